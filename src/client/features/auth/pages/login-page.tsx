import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod/mini';
import { loginSchema } from '../../../../shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useAuth } from '../auth-context';
import { PasswordInput } from '../components/password-input';
import { useNextPath } from '../use-safe-next';

type LoginValues = z.input<typeof loginSchema>;

export default function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const next = useNextPath();
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  if (auth.user && !isSubmitting) return <Navigate to={next} replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await auth.login(values.email, values.password);
      navigate(next, { replace: true });
    } catch {
      form.setFocus('password');
    }
  });

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
