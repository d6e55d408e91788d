import { Address, CheckYourEmail } from '../components/verification-notice';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';
import { SchemaField } from '../components/schema-field';
import { useSchemaForm } from '../use-schema-form';
import { usePageTitle } from '../../../lib/use-page-title';

// Loaded when the form is first used (DESIGN §7).
const forgotPasswordSchema = () => import('../../../../shared/schemas/auth').then((m) => m.forgotPasswordSchema);

export default function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const toast = useToast();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSchemaForm(forgotPasswordSchema, { email: '' });
  const { isSubmitting } = form;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await api('/api/auth/forgot-password', { body: { email } });
      setSentTo(email.trim().toLowerCase());
    } catch (err) {
      toast({ title: 'Something went wrong', description: (err as Error).message, variant: 'destructive' });
    }
  });

  if (sentTo) {
    return (
      <CheckYourEmail
        sentTo={
          <>
            If an account exists for <Address>{sentTo}</Address>, we've sent a link to reset its password. The link works once and expires
            in 1 hour.
          </>
        }
      >
        <Button asChild variant="outline" className="mt-8">
          <Link to="/auth/login">Back to log in</Link>
        </Button>
      </CheckYourEmail>
    );
  }

  return (
    <div>
      <h1 className="font-display text-3xl font-extrabold">Forgot your password?</h1>
      <p className="mt-2 text-muted-foreground">Enter the email you signed up with and we'll send you a link to choose a new one.</p>
      <form onSubmit={onSubmit} noValidate className="mt-8 grid gap-5">
        <SchemaField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Send reset link'}
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        Remembered it?{' '}
        <Link to="/auth/login" className="font-semibold text-primary hover:underline">
          Log in
        </Link>
      </p>
    </div>
  );
}
