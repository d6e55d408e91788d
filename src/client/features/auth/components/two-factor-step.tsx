import { useState } from 'react';
import { SETTINGS_MESSAGES, twoFactorLoginSchema } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { LOGIN_FAILED } from '../../../lib/auth';

/**
 * The second step when two-step verification is on: a 6-digit code from the authenticator
 * app, or one of the backup codes. Back to the password step when the attempt has expired.
 */
export default function TwoFactorStep({ onDone, onRestart }: { onDone(): void; onRestart(): void }) {
  const auth = useAuth();
  const [method, setMethod] = useState<'totp' | 'backup'>('totp');
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const isTotp = method === 'totp';

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = twoFactorLoginSchema.safeParse({ method, code, trustDevice });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? SETTINGS_MESSAGES.codeRequired);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await auth.verifyTwoFactor(parsed.data);
    } catch (err) {
      // An expired attempt: the auth context toasted "Login failed"; back to the password.
      if (err instanceof ApiError && err.status === 401) {
        onRestart();
        return;
      }
      setError((err as Error).message || LOGIN_FAILED);
      setBusy(false);
      return;
    }
    onDone();
  };

  return (
    <div>
      <h1 className="font-display text-3xl font-extrabold">Two-step verification</h1>
      <p className="mt-2 text-muted-foreground">
        {isTotp
          ? 'Open your authenticator app and enter the 6-digit code for Fancy.'
          : 'Enter one of the backup codes you saved when you set up two-step verification. Each code works once.'}
      </p>
      <form onSubmit={submit} noValidate className="mt-8 grid gap-5">
        <Field id="two-factor-code" label={isTotp ? 'Authentication code' : 'Backup code'} error={error}>
          <Input
            key={method}
            id="two-factor-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode={isTotp ? 'numeric' : 'text'}
            autoComplete={isTotp ? 'one-time-code' : 'off'}
            autoCapitalize="off"
            spellCheck={false}
            maxLength={isTotp ? 7 : 40}
            placeholder={isTotp ? '123456' : 'abcde-12345'}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'two-factor-code-error' : undefined}
            className={isTotp ? 'text-center font-mono text-lg tracking-[0.4em]' : 'font-mono'}
          />
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={trustDevice}
            onChange={(e) => setTrustDevice(e.target.checked)}
            className="size-4 accent-primary"
          />
          Don't ask again on this device for 30 days
        </label>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Checking…' : 'Verify and log in'}
        </Button>
      </form>
      <div className="mt-6 flex flex-col items-center gap-2 text-sm">
        <button
          type="button"
          className="font-medium text-primary hover:underline"
          onClick={() => {
            setMethod(isTotp ? 'backup' : 'totp');
            setCode('');
            setError(undefined);
          }}
        >
          {isTotp ? 'Use a backup code' : 'Use your authenticator app'}
        </button>
        <button type="button" className="text-muted-foreground hover:underline" onClick={onRestart}>
          Back to log in
        </button>
      </div>
    </div>
  );
}
