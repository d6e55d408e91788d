import { Database, Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DELETE_CONFIRMATION_WORD, SETTINGS_MESSAGES } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useAuth } from '../../auth/auth-context';
import { downloadMyData } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { errorMessage } from '../components/form-errors';
import { CardBlock, SettingsCard, SettingsSection } from '../components/section';

function DownloadBlock() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <CardBlock
      title="Download my data"
      description="A JSON file with everything Fancy holds about you: account, profile, photos (as links), mixers, messages, fancies you gave, matches, reports and consents."
      action={
        <Button
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              const name = await downloadMyData();
              toast({ title: 'Your data is downloading', description: `Saved as ${name}.` });
            } catch (err) {
              toast({ title: "Couldn't prepare your data", description: errorMessage(err), variant: 'destructive' });
            } finally {
              setBusy(false);
            }
          }}
        >
          <Download aria-hidden />
          {busy ? 'Preparing…' : 'Download my data'}
        </Button>
      }
    />
  );
}

function DeleteBlock() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
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
        canConfirm={matches}
        onConfirm={async () => {
          setBusy(true);
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
