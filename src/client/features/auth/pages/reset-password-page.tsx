import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { ApiError, api } from '../../../lib/api';
import { SchemaField } from '../components/schema-field';
import { useSchemaForm } from '../use-schema-form';
import { usePageTitle } from '../../../lib/use-page-title';

// Loaded when the form is first used (DESIGN §7).
const resetPasswordFormSchema = () => import('../../../../shared/schemas/auth').then((m) => m.resetPasswordFormSchema);
// The strength estimator's dictionaries are large: fetched on submit only (the server checks too).
const strength = () => import('../../../../shared/password-strength');

export default function ResetPasswordPage() {
  usePageTitle('Reset your password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkError = params.get('error');
  const navigate = useNavigate();
  const toast = useToast();
  const form = useSchemaForm(resetPasswordFormSchema, { password: '', confirm: '' });
  const { isSubmitting } = form;

  if (!token || linkError) {
    return (
      <div className="text-center">
        <h1 className="font-display text-3xl font-extrabold">This link has expired</h1>
        <p className="mt-3 text-muted-foreground">
          Password reset links work once and for 1 hour. Ask for a new one and use it straight away.
        </p>
        <Button asChild className="mt-8">
          <Link to="/auth/forgot-password">Send me a new link</Link>
        </Button>
      </div>
    );
  }

  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (await (await strength()).isWeakPassword(password)) {
      form.setError('password', { message: (await import('../../../../shared/schemas/auth')).COMMON_PASSWORD });
      form.setFocus('password');
      return;
    }
    try {
      await api('/api/auth/reset-password', { body: { token, password } });
      toast({ title: 'Password updated', description: 'You can now log in with your new password.' });
      navigate('/auth/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.fields.password) form.setError('password', { message: err.fields.password });
      else toast({ title: 'Could not reset password', description: (err as Error).message, variant: 'destructive' });
    }
  });

  return (
    <div>
      <h1 className="font-display text-3xl font-extrabold">Choose a new password</h1>
      <p className="mt-2 text-muted-foreground">
        At least 8 characters, and not one that's commonly used. You'll be signed out everywhere else.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-8 grid gap-5">
        <SchemaField form={form} name="password" label="New password" password autoComplete="new-password" />
        <SchemaField form={form} name="confirm" label="Confirm new password" password autoComplete="new-password" />
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save new password'}
        </Button>
      </form>
    </div>
  );
}
