import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod/mini';
import { loginSchema } from '../../../../shared/schemas/auth';
import { SETTINGS_MESSAGES, twoFactorLoginSchema } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { ApiError, api } from '../../../lib/api';
import { useAuth } from '../auth-context';
import { PasswordInput } from '../components/password-input';
import { useNextPath } from '../use-safe-next';

type LoginValues = z.input<typeof loginSchema>;

const LOGIN_FAILED = 'An error occurred during login. Please try again.';

/**
 * The second step when two-step verification is on: a 6-digit code from the authenticator
 * app, or one of the backup codes. Back to the password step when the attempt has expired.
 */
function TwoFactorStep({ onDone, onRestart }: { onDone(): Promise<void>; onRestart(): void }) {
  const toast = useToast();
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
      await api('/api/auth/two-factor', { body: parsed.data });
      await onDone();
    } catch (err) {
      const message = (err as Error).message || LOGIN_FAILED;
      if (err instanceof ApiError && err.status === 401) {
        toast({ title: 'Login failed', description: message, variant: 'destructive' });
        onRestart();
        return;
      }
      setError(message);
      setBusy(false);
    }
  };

  return (
    <div>
      <h2 className="font-display text-3xl font-extrabold">Two-step verification</h2>
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

export default function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const next = useNextPath();
  const toast = useToast();
  const [twoFactor, setTwoFactor] = useState(false);
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  if (auth.user && !isSubmitting && !twoFactor) return <Navigate to={next} replace />;

  const signedIn = async () => {
    await auth.refresh('SIGNED_IN');
    toast({ title: 'Welcome back!', description: "You've successfully logged in." });
    navigate(next, { replace: true });
  };

  // Like auth.login, plus the two-step answer: with two-step verification on, the password alone gives no session.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await api<{ ok: true; twoFactor?: boolean }>('/api/auth/login', { body: values });
      if (res.twoFactor) {
        setTwoFactor(true);
        return;
      }
      await signedIn();
    } catch (err) {
      toast({ title: 'Login failed', description: (err as Error).message || LOGIN_FAILED, variant: 'destructive' });
      form.setFocus('password');
    }
  });

  if (twoFactor) {
    return (
      <TwoFactorStep
        onDone={signedIn}
        onRestart={() => {
          setTwoFactor(false);
          form.setValue('password', '');
        }}
      />
    );
  }

  return (
    <div>
      <h2 className="font-display text-3xl font-extrabold">Welcome back</h2>
      <p className="mt-2 text-muted-foreground">Log in to see your mixers, matches and messages.</p>
      <form onSubmit={onSubmit} noValidate className="mt-8 grid gap-5">
        <Field id="email" label="Email" error={errors.email?.message}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(errors.email)}
            aria-describedby={errors.email ? 'email-error' : undefined}
            {...form.register('email')}
          />
        </Field>
        <Field id="password" label="Password" error={errors.password?.message}>
          <PasswordInput
            id="password"
            autoComplete="current-password"
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? 'password-error' : undefined}
            {...form.register('password')}
          />
        </Field>
        <div className="-mt-2 text-right">
          <Link to="/auth/forgot-password" className="text-sm font-medium text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Logging in…' : 'Log in'}
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        New to Fancy?{' '}
        <Link to="/auth/register" className="font-semibold text-primary hover:underline">
          Create an account
        </Link>
      </p>
    </div>
  );
}
