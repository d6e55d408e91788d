import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';

/** The e-mail-verification screen (spec §2): address, instructions, resend, support, and a way out. */
export function VerificationNotice({ email, onBack, onLogout }: { email: string; onBack?: () => void; onLogout?: () => void }) {
  const toast = useToast();
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      await api('/api/auth/resend-verification', { body: { email } });
      toast({ title: 'Verification email sent', description: 'Please check your email for the verification link.' });
    } catch (err) {
      toast({ title: 'Failed to resend email', description: (err as Error).message || 'Please try again later.', variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };
  return (
    <CheckYourEmail
      sentTo={
        <>
          We sent a verification link to <Address>{email}</Address>.
        </>
      }
    >
      <p className="mt-2 text-muted-foreground">
        Open it on this device to confirm your address and finish creating your account. It can take a minute to arrive — check your spam
        folder too.
      </p>
      <div className="mt-8 grid gap-3">
        <Button onClick={resend} disabled={sending} size="lg">
          {sending ? 'Sending…' : 'Resend verification email'}
        </Button>
        {onLogout && (
          <Button variant="outline" onClick={onLogout}>
            Log out
          </Button>
        )}
        {onBack && (
          <Button variant="outline" asChild>
            <Link to="/auth/login" onClick={onBack}>
              Back to log in
            </Link>
          </Button>
        )}
      </div>
      <p className="mt-6 text-sm text-muted-foreground">
        Wrong address or no email?{' '}
        <Link to="/contact-support" className="font-semibold text-primary hover:underline">
          Contact support
        </Link>
      </p>
    </CheckYourEmail>
  );
}

/** "Check your email": the envelope, the heading, where the mail went (`sentTo`), then what to do next. */
export function CheckYourEmail({ sentTo, children }: { sentTo: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="text-center">
      <span className="mx-auto flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
        <MailCheck className="size-8" aria-hidden />
      </span>
      <h1 className="mt-6 font-display text-3xl font-extrabold">Check your email</h1>
      <p className="mt-3 text-muted-foreground">{sentTo}</p>
      {children}
    </div>
  );
}

/** An email address in a sentence: it stands out, and wraps whole rather than mid-word. */
export const Address = ({ children }: { children: string }) => (
  <strong className="inline-block max-w-full text-foreground">{children}</strong>
);
