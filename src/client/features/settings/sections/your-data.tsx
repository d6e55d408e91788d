import { Database, Download, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { DELETE_CONFIRMATION_WORD, SETTINGS_MESSAGES } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useAuth } from '../../../lib/auth';
import { ApiError } from '../../../lib/api';
import { downloadMyData, reauthenticate } from '../api';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../components/form-errors';
import { PasswordField } from '../components/password-field';
import { CardBlock, SettingsCard, SettingsSection } from '../components/section';

/**
 * The password asked again before the export or deletion (docs/decisions/006): the field's state,
 * and `confirm()`, which re-authenticates and, on a wrong password, shows the server's message on
 * the field and puts the focus back in it.
 */
function usePasswordAgain() {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const ref = useRef<HTMLInputElement>(null);
  return {
    ref,
    filled: password.length > 0,
    field: {
      ref,
      autoComplete: 'current-password',
      value: password,
      error,
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
        setPassword(e.target.value);
        setError(undefined);
      },
    },
    async confirm(): Promise<boolean> {
      try {
        await reauthenticate(password);
        return true;
      } catch (err) {
        setError(err instanceof ApiError && err.fields.password ? err.fields.password : errorMessage(err));
        ref.current?.focus();
        return false;
      }
    },
    reset() {
      setPassword('');
      setError(undefined);
    },
  };
}

function DownloadBlock() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const again = usePasswordAgain();

  const download = async () => {
    setBusy(true);
    try {
      const name = await downloadMyData();
      toast({ title: 'Your data is downloading', description: `Saved as ${name}.` });
      return true;
    } catch (err) {
      // Not signed in within the last few minutes: ask for the password, then try again.
      if (err instanceof ApiError && err.status === 403 && err.message === SETTINGS_MESSAGES.reauthRequired) {
        setAsking(true);
        return false;
      }
      toast({ title: "Couldn't prepare your data", description: errorMessage(err), variant: 'destructive' });
      return true;
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setAsking(false);
    again.reset();
  };

  return (
    <>
      <CardBlock
        title="Download my data"
        description="A JSON file with everything Fancy holds about you: account, profile, photos (as links), mixers, messages, fancies you gave, matches, reports and consents."
        action={
          <Button variant="outline" size="sm" disabled={busy} onClick={() => void download()}>
            <Download aria-hidden />
            {busy ? 'Preparing…' : 'Download my data'}
          </Button>
        }
      />
      <ConfirmDialog
        open={asking}
        onOpenChange={(next) => {
          if (!next) close();
        }}
        title="Confirm it's you"
        description={<p>For your security, please enter your password again to download your data.</p>}
        confirmLabel="Download my data"
        busyLabel="Preparing…"
        busy={busy}
        canConfirm={again.filled}
        initialFocus={again.ref}
        onConfirm={async () => {
          setBusy(true);
          if (!(await again.confirm())) return setBusy(false);
          if (await download()) close();
        }}
      >
        <PasswordField id="export-password" label="Password" {...again.field} />
      </ConfirmDialog>
    </>
  );
}

function DeleteBlock() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const again = usePasswordAgain();
  const matches = typed.trim() === DELETE_CONFIRMATION_WORD;

  return (
    <>
      <CardBlock
        title="Delete account"
        description="Permanently deletes your account, profile, photos, mixer memberships, fancies, matches and the messages you sent. This can't be undone."
        action={
          <Button variant="destructive" size="sm" onClick={() => setOpen(true)}>
            <Trash2 aria-hidden />
            Delete account
          </Button>
        }
      />
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            setTyped('');
            setTouched(false);
            again.reset();
          }
        }}
        destructive
        title="Delete your account?"
        description={
          <>
            <p>
              This permanently deletes your account and everything in it: your profile and photos, mixer memberships, fancies, matches and
              the messages you sent. You'll be signed out everywhere.
            </p>
            <p>Want a copy first? Use "Download my data" before you go.</p>
          </>
        }
        confirmLabel="Delete my account"
        busyLabel="Deleting…"
        busy={busy}
        canConfirm={matches && again.filled}
        initialFocus={again.ref}
        onConfirm={async () => {
          setBusy(true);
          // Deleting needs the password again (docs/decisions/006); a wrong one keeps the dialog open.
          if (!(await again.confirm())) return setBusy(false);
          // Go to the site root first: once the account is gone, the protected pages would send the
          // browser to the login page before a later move to '/' could finish loading.
          await navigate('/', { replace: true });
          try {
            // deleteAccount shows the spec's success or failure toast (§8).
            await auth.deleteAccount();
          } catch {
            // Nothing was deleted: back to Settings, where the failure toast explains.
            await navigate('/settings#your-data', { replace: true });
          }
        }}
      >
        <PasswordField id="delete-password" label="Your password" {...again.field} />
        <Field
          id="delete-confirm"
          label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
          error={touched && typed && !matches ? SETTINGS_MESSAGES.deleteConfirm : undefined}
        >
          <Input
            id="delete-confirm"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={touched && Boolean(typed) && !matches}
          />
        </Field>
      </ConfirmDialog>
    </>
  );
}

export function YourDataSection() {
  return (
    <SettingsSection
      id="your-data"
      icon={Database}
      title="Your data"
      description="Your information belongs to you. Take a copy or leave for good."
    >
      <SettingsCard>
        <DownloadBlock />
      </SettingsCard>
      <SettingsCard className="border-destructive/40">
        <DeleteBlock />
      </SettingsCard>
    </SettingsSection>
  );
}
