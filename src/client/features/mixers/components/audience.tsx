import { HeartHandshake, Link2Off, type LucideIcon, MapPin, ShieldCheck, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { ageBandLabel, OPEN_POOL, SIDE_LABELS, type Side, whereLabel } from '../../../../shared/audience';
import { type MixerSummary, takenSeats } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Greater London · 25–34": where and for which ages, and whether it is for verified members only. */
export function AudienceLine({ mixer, className }: { mixer: Pick<MixerSummary, 'audience' | 'verifiedOnly'>; className?: string }) {
  return (
    <p className={cn('flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground', className)}>
      {/* The marker wraps under the place and ages rather than cutting them short on a narrow card. */}
      <span className="flex min-w-0 max-w-full items-center gap-1.5">
        <MapPin className="size-3.5 shrink-0" aria-hidden />
        <span className="truncate">
          {whereLabel(mixer.audience.region)} · {ageBandLabel(mixer.audience)}
        </span>
      </span>
      {mixer.verifiedOnly && (
        <span className="flex shrink-0 items-center gap-1 font-medium text-foreground">
          <ShieldCheck className="size-3.5" aria-hidden /> Verified only
        </span>
      )}
    </p>
  );
}

/** The seat plan with the fill of each side (counts only) and which side is mine. */
export function SeatPlanFill({ mixer }: { mixer: Pick<MixerSummary, 'seats' | 'mySide'> }) {
  const sides = mixer.seats.filter((s) => s.key !== OPEN_POOL);
  if (!sides.length) return null;
  return (
    <ul className="mt-3 flex flex-col gap-2" aria-label="Seats per side">
      {sides.map((s) => {
        const taken = takenSeats(s);
        const full = taken >= s.seats;
        const mine = mixer.mySide === s.key;
        return (
          <li key={s.key} className="text-sm">
            <div className="flex items-baseline justify-between gap-2">
              <span className={cn('font-medium', mine && 'text-primary')}>
                {capital(SIDE_LABELS[s.key as Side])}
                {mine && <span className="ml-1 text-xs font-semibold">(your side)</span>}
              </span>
              <span className="whitespace-nowrap text-xs text-muted-foreground tabular-nums">
                {taken}/{s.seats}
                {s.held ? ` · ${s.held} held` : ''}
                {full ? ' · full' : ''}
                {s.waiting ? ` · ${s.waiting} waiting` : ''}
              </span>
            </div>
            <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
              <div
                className={cn('h-full rounded-full', full ? 'bg-amber-500' : 'bg-primary')}
                style={{ width: `${Math.min(100, Math.round((taken / Math.max(1, s.seats)) * 100))}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A mixer page the member cannot use: the reason, what it means, and where to go instead. */
function TurnedAway({
  icon: Icon,
  title,
  message,
  testId,
  children,
}: {
  icon: LucideIcon;
  title: string;
  message: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card className="flex flex-col items-start gap-3 p-6" data-testid={testId}>
        <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Icon className="size-5" aria-hidden />
        </span>
        <h1 className="font-display text-2xl font-bold">{title}</h1>
        <p className="text-muted-foreground">{message}</p>
        {children}
      </Card>
    </div>
  );
}

/** The kind page for a direct link to a mixer set up for other people: never says who it is for. */
export function NotForYou({ message }: { message: string }) {
  return (
    <TurnedAway icon={Link2Off} title="This one isn't for you" message={message} testId="not-for-you">
      <p className="text-sm text-muted-foreground">
        Each mixer is put together so everyone in it could plausibly click with someone else there: who, where and which ages. Keep your
        profile up to date and we'll show you the ones that fit.
      </p>
      <div className="mt-1 flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/mixers">
            <HeartHandshake aria-hidden /> Mixers for you
          </Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/profile">
            <UsersRound aria-hidden /> Check your profile
          </Link>
        </Button>
      </div>
    </TurnedAway>
  );
}

/** A verified-only mixer opened by a member without the badge: why, and the way to get it (issue 21). */
export function VerifiedOnly({ message }: { message: string }) {
  return (
    <TurnedAway icon={ShieldCheck} title="For verified members" message={message} testId="verified-only">
      <div className="mt-1 flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/verify">
            <ShieldCheck aria-hidden /> Get verified
          </Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/mixers">
            <HeartHandshake aria-hidden /> Other mixers
          </Link>
        </Button>
      </div>
    </TurnedAway>
  );
}
