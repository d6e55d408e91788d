import { VerifiedBadge } from '../../components/ui/verified-badge';
import { HeartCrack, HeartHandshake, MapPin, MessageCircle, MoreHorizontal, Sparkles, UserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { MatchSummary } from '../../../shared/schemas/matches';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { UnmatchDialog } from '../../components/safety/safety-dialogs';
import { cn } from '../../lib/cn';
import { useRealtimeEvents } from '../../lib/realtime';
import { useAuth } from '../../lib/auth';
import { MemberProfileDialog, type MemberRef } from '../profile-card';
import { matchesQuery, matchKeys, useMatches, useUnmatch } from './api';
import { preloadQueries } from '../../lib/query';
import { MatchNotifier } from './match-notifier';
import { usePageTitle } from '../../lib/use-page-title';
import { now as clockNow } from '../../lib/clock';
import { londonDay, londonFormat } from '../../lib/london-time';
import { LoadError } from '../../components/ui/load-error';
import { MenuContent, MenuItem } from '../../components/ui/menu';

const dayMonth = londonFormat({ day: 'numeric', month: 'long' });
const dayMonthYear = londonFormat({ day: 'numeric', month: 'long', year: 'numeric' });
const thisYear = londonFormat({ year: 'numeric' });

/** "today", "yesterday", "3 days ago", "on 2 November" (London days). */
export function matchedWhen(iso: string, now = clockNow()): string {
  const d = new Date(iso);
  const days = londonDay(now) - londonDay(d);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return `on ${(thisYear(d) === thisYear(now) ? dayMonth : dayMonthYear)(d)}`;
}

function Photo({ m }: { m: MatchSummary }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className="relative aspect-[16/11] overflow-hidden bg-gradient-to-br from-accent to-secondary">
      {m.other.avatarUrl && !failed ? (
        <img src={m.other.avatarUrl} alt="" className="size-full object-cover" onError={() => setFailed(true)} />
      ) : (
        <span
          className="flex size-full items-center justify-center font-display text-6xl font-extrabold text-accent-foreground/70"
          aria-hidden
        >
          {m.other.firstName.charAt(0).toUpperCase()}
        </span>
      )}
      {!m.lastMessage && (
        <span className="absolute left-3 top-3 rounded-full bg-primary px-2.5 py-1 text-xs font-bold text-primary-foreground shadow">
          New match
        </span>
      )}
    </div>
  );
}

function MatchCard({
  m,
  myId,
  onUnmatch,
  onViewProfile,
}: {
  m: MatchSummary;
  myId?: string;
  onUnmatch: (m: MatchSummary) => void;
  onViewProfile: (m: MatchSummary) => void;
}) {
  const name = m.other.firstName;
  const unread = m.unreadCount;
  const last = m.lastMessage;
  return (
    <li>
      <Card className="flex h-full flex-col overflow-hidden">
        <div className="relative">
          <Photo m={m} />
          {/* Over the photo, not around it: the "New match" badge stays out of the button's name. */}
          <button
            type="button"
            onClick={() => onViewProfile(m)}
            aria-label={`View ${name}'s profile`}
            className="absolute inset-0 cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-ring"
          />
        </div>
        <div className="flex flex-1 flex-col gap-2 p-4">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <h2 className="flex min-w-0 items-center gap-2 font-display text-xl font-bold">
                <span className="truncate">{name}</span>
                {m.other.verified && <VerifiedBadge label={false} />}
              </h2>
              {m.other.city && (
                <p className="flex items-center gap-1 text-sm text-muted-foreground">
                  <MapPin className="size-3.5 shrink-0" aria-hidden /> {m.other.city}
                </p>
              )}
            </div>
            <DropdownMenu.Root>
              <DropdownMenu.Trigger
                className="-mr-1.5 flex size-9 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                aria-label={`More options for ${name}`}
              >
                <MoreHorizontal className="size-5" aria-hidden />
              </DropdownMenu.Trigger>
              <MenuContent sideOffset={4}>
                <MenuItem icon={UserRound} onSelect={() => onViewProfile(m)}>
                  View profile
                </MenuItem>
                <MenuItem icon={HeartCrack} destructive onSelect={() => onUnmatch(m)}>
                  Unmatch
                </MenuItem>
              </MenuContent>
            </DropdownMenu.Root>
          </div>
          <p className="flex items-start gap-1.5 text-sm">
            <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <span>
              {m.mixer ? (
                <>
                  Met at <span className="font-semibold">{m.mixer.title}</span>
                </>
              ) : (
                'Matched'
              )}{' '}
              · {matchedWhen(m.createdAt)}
            </span>
          </p>
          <p className={cn('line-clamp-2 text-sm', unread ? 'font-medium text-foreground' : 'text-muted-foreground')}>
            {last ? (
              <>
                {last.senderId === myId ? 'You: ' : `${name}: `}
                {last.body}
              </>
            ) : (
              `No messages yet. ${name} is waiting for your hello!`
            )}
          </p>
          <div className="mt-auto pt-2">
            <Button asChild className="w-full">
              <Link to={`/messages/${m.id}`}>
                <MessageCircle aria-hidden />
                {unread > 0
                  ? `Read ${unread} new ${unread === 1 ? 'message' : 'messages'}`
                  : last
                    ? 'Open conversation'
                    : `Say hello to ${name}`}
              </Link>
            </Button>
          </div>
        </div>
      </Card>
    </li>
  );
}

function CardSkeleton() {
  return (
    <li aria-hidden>
      <Card className="overflow-hidden">
        <div className="aspect-[16/11] animate-pulse bg-muted" />
        <div className="space-y-3 p-4">
          <div className="h-5 w-1/3 animate-pulse rounded bg-muted" />
          <div className="h-3.5 w-2/3 animate-pulse rounded bg-muted" />
          <div className="h-11 animate-pulse rounded-full bg-muted" />
        </div>
      </Card>
    </li>
  );
}

/** The unmatch confirmation for the card whose menu asked for it (none open when `match` is null). */
function UnmatchConfirm({ match, onClose }: { match: MatchSummary | null; onClose: () => void }) {
  const unmatch = useUnmatch();
  return (
    <UnmatchDialog
      open={Boolean(match)}
      onOpenChange={(open) => !open && onClose()}
      name={match?.other.firstName ?? ''}
      unmatch={{ run: async () => match && (await unmatch.mutateAsync(match.id)), busy: unmatch.isPending }}
    />
  );
}

/** /matches (DESIGN §6): everyone you fancy who fancies you back, each opening its conversation. */
/** The first page of matches, loaded with the page (decision 018). */
export const preload = () => preloadQueries((client) => [client.ensureInfiniteQueryData({ ...matchesQuery, revalidateIfStale: true })]);

export default function MatchesPage() {
  const auth = useAuth();
  const q = useMatches();
  const [confirming, setConfirming] = useState<MatchSummary | null>(null);
  const [viewing, setViewing] = useState<MemberRef | null>(null);
  const qc = useQueryClient();
  // Last messages and unread counts on the cards stay current.
  useRealtimeEvents((event) => {
    if (event.type === 'dm.message') void qc.invalidateQueries({ queryKey: matchKeys.list });
  });
  usePageTitle('Matches');
  const matches = q.data?.pages.flatMap((p) => p.matches) ?? [];

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 md:py-10">
      <MatchNotifier />
      <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Matches</h1>
      <p className="mt-2 text-muted-foreground">People you fancy who fancy you back. Don’t keep them waiting!</p>

      {q.isPending ? (
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading matches">
          <CardSkeleton />
          <CardSkeleton />
          <CardSkeleton />
        </ul>
      ) : q.isError && !q.data ? (
        <LoadError title="We couldn't load your matches just now." onRetry={q.refetch} className="mt-8" />
      ) : matches.length === 0 ? (
        <Card className="mt-8 flex flex-col items-center px-6 py-12 text-center">
          <span className="flex size-16 items-center justify-center rounded-3xl bg-accent text-accent-foreground">
            <HeartHandshake className="size-8" aria-hidden />
          </span>
          <h2 className="mt-5 font-display text-xl font-bold">No matches yet</h2>
          <p className="mt-2 max-w-md text-sm text-muted-foreground">
            Join a mixer, chat with the group, then fancy the people you clicked with. It’s private: if they fancy you back, you’ll both see
            each other here.
          </p>
          <Button asChild className="mt-6">
            <Link to="/mixers">Find a mixer</Link>
          </Button>
        </Card>
      ) : (
        <>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {matches.map((m) => (
              <MatchCard
                key={m.id}
                m={m}
                myId={auth.user?.id}
                onUnmatch={setConfirming}
                onViewProfile={(match) => setViewing({ id: match.other.id, firstName: match.other.firstName })}
              />
            ))}
          </ul>
          {q.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button variant="outline" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
                {q.isFetchingNextPage ? 'Loading…' : 'Show more matches'}
              </Button>
            </div>
          )}
        </>
      )}
      <UnmatchConfirm match={confirming} onClose={() => setConfirming(null)} />
      <MemberProfileDialog member={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </div>
  );
}
