import { Check } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../shared/constants';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { VerificationNotice } from '../components/verification-notice';
import { SchemaField } from '../components/schema-field';
import { rememberPendingEmail } from '../pending-email';
import { useSchemaForm } from '../use-schema-form';
import { usePageTitle } from '../../../lib/use-page-title';

// Loaded when the form is first used (DESIGN §7).
const schemas = () => import('../../../../shared/schemas/auth');
const registerSchema = () => schemas().then((m) => m.registerSchema);
// The strength estimator's dictionaries are large: fetched on submit only (the server checks too).
const strength = () => import('../../../../shared/password-strength');

export default function RegisterPage() {
  usePageTitle('Create your account');
  const auth = useAuth();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSchemaForm(registerSchema, { fullName: '', email: '', password: '' });
  const { isSubmitting } = form;
  const password = form.watch('password');

  if (auth.user && !sentTo) return <Navigate to="/home" replace />;
  if (sentTo) return <VerificationNotice email={sentTo} onBack={() => setSentTo(null)} />;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { campaignFromParams, WEAK_PASSWORD_MESSAGES } = await schemas();
      const weakness = await (await strength()).passwordWeakness(values.password, [values.email, values.fullName]);
      if (weakness) {
        form.setError('password', { message: WEAK_PASSWORD_MESSAGES[weakness] });
        form.setFocus('password');
        return;
      }
      const campaign = campaignFromParams(params);
      await auth.register({ ...values, campaign });
      const email = values.email.trim().toLowerCase();
      rememberPendingEmail(email);
      setSentTo(email);
    } catch (err) {
      if (err instanceof ApiError) {
        for (const [field, message] of Object.entries(err.fields)) {
          if (field === 'fullName' || field === 'email' || field === 'password') form.setError(field, { message });
        }
      }
    }
  });

  const rules = [
    { ok: password.length >= PASSWORD_MIN, text: `At least ${PASSWORD_MIN} characters` },
    { ok: password.length > 0 && password.length <= PASSWORD_MAX, text: `No more than ${PASSWORD_MAX} characters` },
    { ok: false, text: 'Not a common password, nor your name or email (we check for you)', neutral: true },
  ];

  return (
    <div>
      <h1 className="font-display text-3xl font-extrabold">Create your account</h1>
      <p className="mt-2 text-muted-foreground">Fancy is for adults 18+. It takes a minute, and it's free.</p>
      <form onSubmit={onSubmit} noValidate className="mt-8 grid gap-5">
        <SchemaField form={form} name="fullName" label="Full name" autoComplete="name" />
        <SchemaField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <SchemaField
          form={form}
          name="password"
          label="Password"
          password
          autoComplete="new-password"
          hint={
            <ul className="mt-1 grid gap-1" aria-label="Password rules">
              {rules.map((r) => (
                <li key={r.text} className={`flex items-center gap-1.5 ${r.ok ? 'text-success' : ''}`}>
                  <Check className={`size-3.5 ${r.ok ? 'opacity-100' : 'opacity-30'}`} aria-hidden />
                  {r.text}
                </li>
              ))}
            </ul>
          }
        />
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Creating your account…' : 'Create account'}
        </Button>
        <p className="text-xs text-muted-foreground">
          By creating an account you agree to our{' '}
          <Link to="/terms" className="underline">
            Terms &amp; Conditions
          </Link>{' '}
          and confirm you have read our{' '}
          <Link to="/privacy" className="underline">
            Privacy Policy
          </Link>
          .
        </p>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link to="/auth/login" className="font-semibold text-primary hover:underline">
          Log in
        </Link>
      </p>
    </div>
  );
}
