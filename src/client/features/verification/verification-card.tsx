import { BadgeCheck, Clock, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card';
import { useVerification } from './api';
import { VerifiedBadge } from '../../components/ui/verified-badge';

/** Profile (and Home, after onboarding): the member's verification state and the way to get verified. */
export function VerificationCard({ compact = false }: { compact?: boolean }) {
  const status = useVerification();
  if (status.isPending) return <div className="h-24 animate-pulse rounded-2xl bg-muted" aria-hidden />;
  if (status.isError) return null;
  const s = status.data;
  if (s.state === 'verified') {
    if (compact) return null;
    return (
      <Card className="flex items-center gap-3 p-4">
        <BadgeCheck className="size-6 shrink-0 text-primary" aria-hidden />
        <div>
          <p className="font-semibold">
            You’re verified <VerifiedBadge className="ml-1" label={false} />
          </p>
          <p className="text-sm text-muted-foreground">Your badge shows on your card, in mixers, matches and messages.</p>
        </div>
      </Card>
    );
  }
  if (s.state === 'review') {
    return (
      <Card className="flex items-center gap-3 p-4">
        <Clock className="size-6 shrink-0 text-muted-foreground" aria-hidden />
        <p className="text-sm">Your verification is with our team. We’ll let you know the outcome.</p>
      </Card>
    );
  }
  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <ShieldCheck className="size-7 shrink-0 text-primary" aria-hidden />
      <div className="flex-1">
        <p className="font-semibold">{s.revoked ? 'Your verified badge was removed' : 'Get verified'}</p>
        <p className="text-sm text-muted-foreground">
          {!s.revoked
            ? 'A quick live selfie shows others you’re real and look like your photos. Checked on our own server; no video is kept.'
            : s.revokedReason === 'match_rechecked'
              ? 'We now ask for a closer match between your selfie and your main photo, and yours was checked again, so the badge (and any places in verified-only mixers) went with it. Make a clear, recent photo of you your main photo, then verify again: it takes under a minute.'
              : 'Your new main photo doesn’t look like the face you verified with, so the badge (and any places in verified-only mixers) went with it. Make a clear photo of you your main photo, then verify again: it takes under a minute.'}
        </p>
      </div>
      <Link
        to="/verify"
        className="inline-flex h-10 items-center justify-center rounded-xl bg-primary px-4 text-sm font-semibold text-primary-foreground hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        {s.revoked ? 'Verify again' : 'Get verified'}
      </Link>
    </Card>
  );
}
