import { useQuery } from '@tanstack/react-query';
import { CalendarHeart, Eye, Heart, MessageCircle, Send, Sparkles, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { displayName, useAuth } from '../../lib/auth';
import { invitationsQuery, YourInvitations } from '../invitations';
import { AfterMixerPrompts, nextMixersQuery, openPromptsQuery, YourNextMixers } from '../mixers';
import { AvailabilityPrompt, availabilityQuery } from '../profile';
import { isOnboardingDeferred, resumeOnboarding } from '../onboarding';
import { VerificationCard, verificationQuery } from '../verification';
import { preloadQueries } from '../../lib/query';
import { usePageTitle } from '../../lib/use-page-title';
import { LoadError } from '../../components/ui/load-error';
import { statsQuery } from '../../lib/stats';
import type { DashboardCounters } from '../../../shared/stats';
import { now } from '../../lib/clock';
import { londonHour } from '../../lib/london-time';

const TILES: { key: keyof DashboardCounters; label: string; icon: typeof Heart; to?: string }[] = [
  { key: 'unreadMessages', label: 'Unread messages', icon: MessageCircle, to: '/messages' },
  { key: 'matches', label: 'Matches', icon: Heart, to: '/matches' },
  { key: 'activeMixers', label: 'Live mixers', icon: Sparkles, to: '/mixers' },
  { key: 'mixersJoined', label: 'Mixers joined', icon: UsersRound, to: '/mixers' },
  { key: 'messagesSent', label: 'Messages sent', icon: Send },
  { key: 'profileViews', label: 'Profile views', icon: Eye },
];

function greeting(hour: number) {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/**
 * Every read the page shows at once: the sections that would otherwise appear above the counters
 * once their data arrives (and push them down), and the next mixers. All are in the page's HTML
 * (src/shared/route-preload.ts), so none is a render of its own after the page is up.
 */
export const preload = () =>
  preloadQueries((client) => [
    client.ensureInfiniteQueryData({ ...nextMixersQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...invitationsQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...openPromptsQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...availabilityQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...verificationQuery, revalidateIfStale: true }),
  ]);

export default function HomePage() {
  usePageTitle('Home');
  const auth = useAuth();
  const name = displayName(auth.profile, auth.user).split(' ')[0];
  // A failed refetch keeps the previous figures (spec §4); the first failure shows a retry.
  const stats = useQuery(statsQuery);
  const deferred = !auth.profile?.onboardingCompleted && isOnboardingDeferred();

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 md:py-10">
      <h1 className="font-display text-3xl font-extrabold sm:text-4xl">
        {greeting(londonHour(now()))}, {name}
      </h1>
      <p className="mt-2 text-muted-foreground">Here's what's happening on Fancy today.</p>

      {deferred && (
        <Card className="mt-6 flex flex-col gap-4 border-primary/30 bg-accent/60 p-5 sm:flex-row sm:items-center">
          <CalendarHeart className="size-8 shrink-0 text-primary" aria-hidden />
          <div className="flex-1">
            <h2 className="font-semibold">Finish your profile to join mixers</h2>
            <p className="text-sm text-muted-foreground">You saved your progress earlier. It only takes a few minutes to complete.</p>
          </div>
          <Button onClick={resumeOnboarding}>Continue setting up</Button>
        </Card>
      )}

      <YourInvitations className="mt-6" />
      <AfterMixerPrompts className="mt-6" />
      {auth.profile?.onboardingCompleted && <AvailabilityPrompt className="mt-6" />}
      {auth.profile?.onboardingCompleted && (
        <div className="mt-6">
          <VerificationCard compact />
        </div>
      )}

      <section aria-labelledby="counters" className="mt-8">
        <h2 id="counters" className="sr-only">
          Your activity
        </h2>
        {stats.isError && !stats.data ? (
          <LoadError title="We couldn't load your activity just now." onRetry={stats.refetch} />
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
            {TILES.map(({ key, label, icon: Icon, to }) => {
              const value = stats.data?.[key];
              const body = (
                <Card className="flex h-full items-center gap-3 p-4 transition-colors hover:border-primary/40 sm:p-5">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent text-accent-foreground sm:size-12">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <span className="min-w-0">
                    <span className="block text-2xl font-extrabold tabular-nums sm:text-3xl" data-testid={`counter-${key}`}>
                      {value ?? (
                        <>
                          <span aria-hidden className="inline-block h-7 w-8 animate-pulse rounded bg-muted align-middle" />
                          <span className="sr-only">Loading</span>
                        </>
                      )}
                    </span>
                    <span className="block text-xs leading-tight text-muted-foreground sm:text-sm">{label}</span>
                  </span>
                </Card>
              );
              return <li key={key}>{to ? <Link to={to}>{body}</Link> : body}</li>;
            })}
          </ul>
        )}
      </section>

      <YourNextMixers className="mt-10" />
    </div>
  );
}
