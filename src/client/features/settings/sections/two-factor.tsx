import { useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Download, KeyRound } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { SETTINGS_MESSAGES, type TwoFactorEnrolment, totpCodeSchema } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../../lib/auth';
import { sessionsKey, settingsKey, twoFactorApi } from '../api';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../components/form-errors';
import { PasswordField } from '../components/password-field';
import { CardBlock } from '../components/section';
import { DialogButtons, PanelDialog } from '../../../components/ui/panel-dialog';

/** The QR library loads only when a member sets up two-factor sign-in (issue 19: heavy code only where used). */
const QrCode = lazy(() => import('../components/qr-code').then((m) => ({ default: m.QrCode })));

const fieldError = (err: unknown, name: string) => (err instanceof ApiError ? err.fields[name] : undefined);

/** The backup codes, with copy and download, shown once after they are made. */
function BackupCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = `Fancy backup codes — each works once.\n\n${codes.join('\n')}\n`;
  return (
    <div className="grid gap-3">
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-xl bg-muted p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c} className="text-center tracking-wide" data-testid="backup-code">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
            const a = document.createElement('a');
            a.href = url;
            a.download = 'fancy-backup-codes.txt';
            a.click();
            setTimeout(() => URL.revokeObjectURL(url), 10_000);
          }}
        >
          <Download aria-hidden />
          Download
        </Button>
      </div>
    </div>
  );
}

type Step = { name: 'password' } | { name: 'scan'; enrolment: TwoFactorEnrolment } | { name: 'codes'; codes: string[] };

/** Set-up: password → scan the QR code (or type the key) → a code from the app → backup codes. */
function SetupDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const toast = useToast();
  const auth = useAuth();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>({ name: 'password' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    if (busy) return;
    onOpenChange(next);
    if (!next) {
      setStep({ name: 'password' });
      setPassword('');
      setCode('');
      setError(undefined);
    }
  };

  const start = async () => {
    if (!password) return setError(SETTINGS_MESSAGES.currentPasswordRequired);
    setBusy(true);
    setError(undefined);
    try {
      const enrolment = await twoFactorApi.start(password);
      setPassword('');
      setStep({ name: 'scan', enrolment });
    } catch (err) {
      setError(fieldError(err, 'password') ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (enrolment: TwoFactorEnrolment) => {
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) return setError(SETTINGS_MESSAGES.codeRequired);
    setBusy(true);
    setError(undefined);
    try {
      await twoFactorApi.verify(parsed.data);
      setStep({ name: 'codes', codes: enrolment.backupCodes });
      toast({ title: 'Two-step verification is on', description: "We'll ask for a code from your app when you log in." });
      void qc.invalidateQueries({ queryKey: settingsKey });
      void qc.invalidateQueries({ queryKey: sessionsKey });
      void auth.refresh();
    } catch (err) {
      setError(fieldError(err, 'code') ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PanelDialog
      open={open}
      onOpenChange={close}
      title={step.name === 'codes' ? 'Save your backup codes' : 'Set up two-step verification'}
      className="grid gap-4"
    >
      {step.name === 'password' && (
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void start();
          }}
        >
          <Dialog.Description className="text-sm text-muted-foreground">
            You'll need an authenticator app such as Google Authenticator, Microsoft Authenticator or 1Password. First, confirm it's you.
          </Dialog.Description>
          <PasswordField
            id="tf-password"
            label="Your password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error}
          />
          <DialogButtons busy={busy} busyLabel="Checking…" label="Continue" />
        </form>
      )}
      {step.name === 'scan' && (
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void verify(step.enrolment);
          }}
        >
          <Dialog.Description className="text-sm text-muted-foreground">
            Scan this code with your authenticator app, then type the 6-digit code it shows.
          </Dialog.Description>
          <Suspense fallback={<div className="mx-auto size-48 animate-pulse rounded-xl border border-border bg-muted" />}>
            <QrCode
              value={step.enrolment.totpURI}
              label="QR code for your authenticator app"
              className="mx-auto size-48 rounded-xl border border-border"
            />
          </Suspense>
          <details className="rounded-xl bg-muted p-3 text-sm">
            <summary className="cursor-pointer font-medium">Can't scan it? Enter a key instead</summary>
            <p className="mt-2 text-muted-foreground">In your app, add an account by key and type:</p>
            <p className="mt-1 break-all font-mono tracking-wider" data-testid="totp-secret">
              {step.enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </p>
          </details>
          <Field id="tf-code" label="6-digit code" error={error}>
            <Input
              id="tf-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'tf-code-error' : undefined}
              className="text-center font-mono text-lg tracking-[0.4em]"
            />
          </Field>
          <DialogButtons busy={busy} busyLabel="Checking…" label="Turn on" />
        </form>
      )}
      {step.name === 'codes' && (
        <div className="grid gap-4">
          <Dialog.Description className="text-sm text-muted-foreground">
            If you lose your phone, each of these codes lets you log in once. Keep them somewhere safe: we won't show them again.
          </Dialog.Description>
          <BackupCodes codes={step.codes} />
          <Button onClick={() => close(false)}>I've saved them</Button>
        </div>
      )}
    </PanelDialog>
  );
}

/** Password confirmation shared by "Turn off" and "New backup codes". */
function PasswordConfirm({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  destructive,
  onConfirm,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: string;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm(password: string): Promise<void>;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) {
          setPassword('');
          setError(undefined);
        }
      }}
      title={title}
      description={<p>{description}</p>}
      confirmLabel={confirmLabel}
      busyLabel="Checking…"
      busy={busy}
      destructive={destructive}
      canConfirm={password.length > 0}
      onConfirm={async () => {
        setBusy(true);
        setError(undefined);
        try {
          await onConfirm(password);
          setPassword('');
        } catch (err) {
          setError(fieldError(err, 'password') ?? errorMessage(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <PasswordField
        id={`${confirmLabel.toLowerCase().replace(/\W+/g, '-')}-password`}
        label="Your password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
      />
    </ConfirmDialog>
  );
}

export function TwoFactorBlock({ enabled }: { enabled: boolean }) {
  const toast = useToast();
  const auth = useAuth();
  const qc = useQueryClient();
  const [setup, setSetup] = useState(false);
  const [turnOff, setTurnOff] = useState(false);
  const [regen, setRegen] = useState(false);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  return (
    <CardBlock
      title="Two-step verification"
      description={
        enabled
          ? 'On. Logging in asks for a code from your authenticator app, or one of your backup codes.'
          : 'Add a code from an authenticator app to your password when you log in, so a leaked password alone is not enough.'
      }
      action={
        <span
          className={cn(
            'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold',
            enabled ? 'border border-success/50 text-success' : 'border border-border text-muted-foreground',
          )}
        >
          <KeyRound className="size-3.5" aria-hidden />
          {enabled ? 'On' : 'Off'}
        </span>
      }
    >
      {enabled ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" size="sm" onClick={() => setRegen(true)}>
            New backup codes
          </Button>
          <Button variant="outline" size="sm" className="text-destructive" onClick={() => setTurnOff(true)}>
            Turn off
          </Button>
        </div>
      ) : (
        <Button size="sm" onClick={() => setSetup(true)}>
          Set up two-step verification
        </Button>
      )}
      {newCodes && (
        <div className="mt-4 grid gap-2">
          <p className="text-sm font-medium">Your new backup codes (the old ones no longer work):</p>
          <BackupCodes codes={newCodes} />
          <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => setNewCodes(null)}>
            Hide codes
          </Button>
        </div>
      )}
      <SetupDialog open={setup} onOpenChange={setSetup} />
      <PasswordConfirm
        open={turnOff}
        onOpenChange={setTurnOff}
        title="Turn off two-step verification?"
        description="Logging in will only need your password. You can turn it on again at any time."
        confirmLabel="Turn off"
        destructive
        onConfirm={async (password) => {
          await twoFactorApi.disable(password);
          setTurnOff(false);
          setNewCodes(null);
          toast({ title: 'Two-step verification is off', description: 'Logging in now needs only your password.' });
          void qc.invalidateQueries({ queryKey: settingsKey });
          void qc.invalidateQueries({ queryKey: sessionsKey });
          void auth.refresh();
        }}
      />
      <PasswordConfirm
        open={regen}
        onOpenChange={setRegen}
        title="Make new backup codes?"
        description="Your current backup codes will stop working."
        confirmLabel="Make new codes"
        onConfirm={async (password) => {
          const { backupCodes } = await twoFactorApi.backupCodes(password);
          setRegen(false);
          setNewCodes(backupCodes);
          toast({ title: 'New backup codes ready', description: 'Save them somewhere safe.' });
        }}
      />
    </CardBlock>
  );
}
