import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { SchemaField } from '../components/schema-field';
import { forgetPendingEmail, pendingEmail } from '../pending-email';
import { useSchemaForm } from '../use-schema-form';
import { useNextPath } from '../use-safe-next';
import { usePageTitle } from '../../../lib/use-page-title';

// Loaded when the form is first used (DESIGN §7).
const loginSchema = () => import('../../../../shared/schemas/auth').then((m) => m.loginFormSchema);
// Only members with two-step verification see this step (and its schema): loaded on demand.
const TwoFactorStep = lazy(() => import('../components/two-factor-step'));

export default function LoginPage() {
  usePageTitle('Log in');
  const auth = useAuth();
  const navigate = useNavigate();
  const next = useNextPath();
  const [twoFactor, setTwoFactor] = useState(false);
  // From a verification link: signing in with its token confirms the address (docs/decisions/006).
  const [params] = useSearchParams();
  const verify = params.get('verify');
  const verifyToken = verify && verify !== 'invalid' ? verify : undefined;
  // From an e-mail change link: it applies only once signed in to the account that asked, so it is opened again then.
  const changeToken = params.get('change') || undefined;
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const { isSubmitting } = form;
  // From the confirmation link, on the device that signed up: the address is filled in (after the
  // first render, which matches the page as built; never over what the member typed already).
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    filled.current = true;
    const email = verifyToken ? pendingEmail() : '';
    if (!email || form.watch('email')) return;
    form.setValue('email', email);
    form.setFocus('password');
  }, [verifyToken, form]);

  if (auth.user && !isSubmitting && !twoFactor) return <Navigate to={next} replace />;

  // Signed in (the auth context has said "Welcome back!": its toasts are the only ones).
  const signedIn = () => {
    if (verifyToken) forgetPendingEmail();
    if (changeToken) {
      window.location.assign(`/api/auth/verify-email?${new URLSearchParams({ token: changeToken })}`);
      return;
    }
    navigate(next, { replace: true });
  };

  // With two-step verification on, the password alone gives no session: the second step follows.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if ((await auth.login(values.email, values.password, { verifyToken })) === 'two-factor') {
        setTwoFactor(true);
        return;
      }
      signedIn();
    } catch {
      // "Login failed" is the auth context's toast.
      form.setFocus('password');
    }
  });

  if (twoFactor) {
    return (
      <Suspense
        fallback={
          <div className="flex justify-center py-16">
            <Spinner />
          </div>
        }
      >
        <TwoFactorStep
          onDone={signedIn}
          onRestart={() => {
            setTwoFactor(false);
            form.setValue('password', '');
          }}
        />
      </Suspense>
    );
  }

  return (
    <div>
      {/* A new member from their verification link is confirming an address, not coming back. */}
      <h1 className="font-display text-3xl font-extrabold">{verifyToken ? 'Confirm your email' : 'Welcome back'}</h1>
      <p className="mt-2 text-muted-foreground">
        {verifyToken ? 'One last step before your first mixer.' : 'Log in to see your mixers, matches and messages.'}
      </p>
      {changeToken && (
        <p role="status" className="mt-4 rounded-xl border border-border bg-muted/50 p-3 text-sm">
          To move your account to this new email address, log in with your current address and password. Did not ask for this? Close this
          page: nothing changes.
        </p>
      )}
      {verify && (
        <p role="status" className="mt-4 rounded-xl border border-border bg-muted/50 p-3 text-sm">
          {verifyToken
            ? 'Log in with the password you chose to confirm your email address.'
            : 'This verification link is invalid or has expired. Log in to ask for a new one.'}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-8 grid gap-5">
        <SchemaField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <SchemaField form={form} name="password" label="Password" password autoComplete="current-password" />
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
