import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CakeSlice, Clock, MapPin, RefreshCw, ShieldCheck, Target } from 'lucide-react';
import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useParams } from 'react-router';
import { ageBandLabel, planLabel, whereLabel } from '../../../shared/audience';
import type { MixerDetail } from '../../../shared/mixer-facts';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, peekEmbedded } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useRealtimeEvents } from '../../lib/realtime';
import { useAuth } from '../../lib/auth';
import { chatHistoryQuery, listedMyState, mixerKeys, mixerQuery, useMixer } from './api';
import { preloadQueries } from '../../lib/query';
import { NotForYou, VerifiedOnly } from './components/audience';
import { ChatPanel } from './components/chat-panel';
import { JoinCard } from './components/join-card';
import { ParticipantList } from './components/participant-list';
import { MixerTags } from './components/mixer-tags';
import { StatusPill } from './components/status-pill';
import { rangeLabel, whenLabel } from './format';
import { themeOf } from './themes';
import { usePageTitle } from '../../lib/use-page-title';

type MobileTab = 'chat' | 'people' | 'about';

/** /mixers/:id — the mixer, who's in it, Join / Leave, and (for joined members) the group chat. */
/**
 * The mixer and, for a member who joined it, its chat's newest page, loaded with the page
 * (decision 018). Anyone else is refused the chat, so it is not asked for: beside the mixer when
 * the mixer is already known as joined (cached, in the page the server sent, or in a list the
 * member came from), otherwise once the mixer has come.
 */
export const preload = ({ params }: LoaderFunctionArgs) => {
  const id = params.id ?? '';
  return preloadQueries((client) => {
    const chat = (m: Pick<MixerDetail, 'myState'> | undefined) =>
      m?.myState === 'joined' ? client.ensureInfiniteQueryData({ ...chatHistoryQuery(id), revalidateIfStale: true }) : undefined;
    const mixer = client.ensureQueryData({ ...mixerQuery(id), revalidateIfStale: true });
    const listed = listedMyState(client, id);
    const known =
      client.getQueryData(mixerQuery(id).queryKey) ??
      (peekEmbedded(`/api/mixers/${id}`)?.data as MixerDetail | undefined) ??
      (listed === undefined ? undefined : { myState: listed });
    return [mixer, known ? Promise.resolve(chat(known)) : mixer.then(chat)];
  });
};

export default function MixerDetailPage() {
  const { id = '' } = useParams();
  const mixer = useMixer(id);
  const qc = useQueryClient();
  usePageTitle(mixer.data?.title ?? 'Mixer');

  // A waitlist promotion or a status change arrives on my own room.
  useRealtimeEvents((event) => {
    if (event.type === 'mixer.updated' && event.mixerId === id) void qc.invalidateQueries({ queryKey: mixerKeys.detail(id) });
  });

  if (mixer.isPending) {
    return (
      <div className="flex min-h-[60dvh] items-center justify-center">
        <Spinner label="Loading mixer" />
      </div>
    );
  }
  if (mixer.isError && !mixer.data && mixer.error instanceof ApiError && mixer.error.code === 'not_for_you') {
    return <NotForYou message={mixer.error.message} />;
  }
  if (mixer.isError && !mixer.data && mixer.error instanceof ApiError && mixer.error.code === 'verified_only') {
    return <VerifiedOnly message={mixer.error.message} />;
  }
  if (mixer.isError && !mixer.data) {
    // A malformed id (400) is as missing as an unknown one (404).
    const missing = mixer.error instanceof ApiError && (mixer.error.status === 404 || mixer.error.status === 400);
    return (
      <div className="mx-auto max-w-xl px-4 py-12">
        <Card className="flex flex-col items-start gap-3 p-6" role="alert">
          <h1 className="font-display text-2xl font-bold">{missing ? "We couldn't find that mixer" : "We couldn't load this mixer"}</h1>
          <p className="text-muted-foreground">{missing ? 'It may have been removed. Have a look at the others.' : mixer.error.message}</p>
          <div className="flex gap-2">
            {!missing && (
              <Button variant="outline" onClick={() => void mixer.refetch()}>
                <RefreshCw aria-hidden /> Try again
              </Button>
            )}
            <Button asChild>
              <Link to="/mixers">All mixers</Link>
            </Button>
          </div>
        </Card>
      </div>
    );
  }
  return <Detail mixer={mixer.data} />;
}

function Detail({ mixer }: { mixer: MixerDetail }) {
  const auth = useAuth();
  const theme = themeOf(mixer.theme);
  const Icon = theme.icon;
  const hasChat = mixer.myState === 'joined' && mixer.status !== 'cancelled';
  const [tab, setTab] = useState<MobileTab>('chat');
  // Below lg the chat, people and about panels are tabs; on desktop they sit side by side. CSS
  // alone decides (`lg:`), so the server renders the page the same for every window (decision 028).
  const panel = (value: MobileTab) => ({ id: `panel-${value}`, role: 'tabpanel', 'aria-labelledby': `tab-${value}` });
  const phoneHidden = (hidden: boolean) => hidden && 'max-lg:hidden';

  const about = (
    <Card className="p-4 sm:p-5">
      <h2 className="font-semibold">About this mixer</h2>
      <p className="mt-2 whitespace-pre-line text-sm leading-relaxed text-muted-foreground">{mixer.description || 'No description yet.'}</p>
      <dl className="mt-4 grid gap-2 text-sm">
        <div className="flex items-center gap-2">
          <dt className="flex items-center gap-1.5 text-muted-foreground">
            <Clock className="size-4" aria-hidden /> When
          </dt>
          <dd className="font-medium">{rangeLabel(mixer)}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="flex items-center gap-1.5 text-muted-foreground">
            <Target className="size-4" aria-hidden /> For
          </dt>
          <dd className="font-medium">
            {mixer.intent}
            {mixer.audience.seatPlan.length > 0 && ` · ${planLabel(mixer.audience.seatPlan)}`}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="flex items-center gap-1.5 text-muted-foreground">
            <MapPin className="size-4" aria-hidden /> Where
          </dt>
          <dd className="font-medium">{whereLabel(mixer.audience.region)}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="flex items-center gap-1.5 text-muted-foreground">
            <CakeSlice className="size-4" aria-hidden /> Ages
          </dt>
          <dd className="font-medium">{ageBandLabel(mixer.audience)}</dd>
        </div>
        {mixer.verifiedOnly && (
          <div className="flex items-center gap-2">
            <dt className="flex items-center gap-1.5 text-muted-foreground">
              <ShieldCheck className="size-4" aria-hidden /> Who
            </dt>
            <dd className="font-medium">Verified members only</dd>
          </div>
        )}
      </dl>
      <MixerTags tags={mixer.tags} sharedTags={mixer.sharedTags} className="mt-4" />
    </Card>
  );

  return (
    <div className="mx-auto max-w-6xl sm:px-6 sm:py-6">
      {hasChat && (
        // Phones in the chat: a slim band, so the conversation gets the screen.
        <div className={cn('relative flex items-center gap-3 overflow-hidden px-3 py-3 lg:hidden', theme.band, theme.onBand)}>
          <Icon className="pointer-events-none absolute -right-3 -top-3 size-24 opacity-20" aria-hidden strokeWidth={1.25} />
          <Link
            to="/mixers"
            aria-label="All mixers"
            className="relative flex size-9 shrink-0 items-center justify-center rounded-full bg-black/20 backdrop-blur-sm hover:bg-black/30"
          >
            <ArrowLeft className="size-5" aria-hidden />
          </Link>
          <div className="relative min-w-0">
            <h1 className="truncate font-display text-lg font-extrabold leading-tight">{mixer.title}</h1>
            <p className="truncate text-xs font-medium opacity-95">
              {mixer.topic} · {whenLabel(mixer)}
            </p>
          </div>
        </div>
      )}
      <div
        className={cn(
          'relative overflow-hidden px-4 pb-5 pt-4 sm:rounded-3xl sm:px-6 sm:pb-6',
          hasChat && 'max-lg:hidden',
          theme.band,
          theme.onBand,
        )}
      >
        <Icon className="pointer-events-none absolute -right-4 -top-2 size-40 opacity-20 sm:size-52" aria-hidden strokeWidth={1.25} />
        <Link
          to="/mixers"
          className="relative inline-flex items-center gap-1.5 rounded-full bg-black/20 px-3 py-1.5 text-sm font-medium backdrop-blur-sm hover:bg-black/30"
        >
          <ArrowLeft className="size-4" aria-hidden /> All mixers
        </Link>
        <div className="relative mt-4 flex flex-wrap items-center gap-2">
          <StatusPill mixer={mixer} />
          <span className="rounded-full bg-white/90 px-2.5 py-1 text-xs font-semibold text-stone-900">{mixer.intent}</span>
        </div>
        <p className="relative mt-3 text-xs font-semibold uppercase tracking-wider opacity-90">{mixer.topic}</p>
        <h1 className="relative mt-1 max-w-3xl font-display text-2xl font-extrabold leading-tight sm:text-4xl">{mixer.title}</h1>
        <p className="relative mt-2 text-sm font-medium opacity-95">{rangeLabel(mixer)}</p>
      </div>

      {hasChat && (
        <div
          role="tablist"
          aria-label="Mixer sections"
          className="sticky top-14 z-20 flex border-b border-border bg-background/95 px-2 backdrop-blur md:top-0 lg:hidden"
        >
          {(
            [
              ['chat', 'Chat'],
              ['people', `People (${mixer.participants.length})`],
              ['about', 'About'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              id={`tab-${value}`}
              aria-selected={tab === value}
              aria-controls={`panel-${value}`}
              tabIndex={tab === value ? 0 : -1}
              onClick={() => setTab(value)}
              onKeyDown={(e) => {
                const order: MobileTab[] = ['chat', 'people', 'about'];
                const i = order.indexOf(tab);
                const next = e.key === 'ArrowRight' ? order[(i + 1) % 3] : e.key === 'ArrowLeft' ? order[(i + 2) % 3] : undefined;
                if (!next) return;
                e.preventDefault();
                setTab(next);
                document.getElementById(`tab-${next}`)?.focus();
              }}
              className={cn(
                'flex-1 border-b-2 px-3 py-3 text-sm font-semibold transition-colors',
                tab === value ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
              )}
            >
              {label}
            </button>
          ))}
        </div>
      )}

      <div className="mt-4 grid gap-4 px-4 sm:px-0 lg:mt-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-6">
        {hasChat ? (
          <>
            <div {...panel('chat')} className={cn('min-w-0 lg:row-span-3', phoneHidden(tab !== 'chat'))}>
              <ChatPanel
                // A room of its own per mixer: where it opened, the lines on screen, the unread divider.
                key={mixer.id}
                mixer={mixer}
                me={auth.user?.id ?? ''}
                className="h-[calc(100dvh-17.5rem)] min-h-[20rem] md:h-[calc(100dvh-10rem)] lg:sticky lg:top-6 lg:h-[calc(100dvh-18rem)] lg:min-h-[26rem] lg:max-h-[52rem]"
              />
            </div>
            <div className={cn('flex min-w-0 flex-col gap-4', phoneHidden(tab === 'chat'))}>
              <div className={cn(phoneHidden(tab === 'about'))}>
                <JoinCard mixer={mixer} />
              </div>
              <div {...panel('people')} className={cn(phoneHidden(tab !== 'people'))}>
                <ParticipantList mixer={mixer} />
              </div>
              <div {...panel('about')} className={cn(phoneHidden(tab !== 'about'))}>
                {about}
              </div>
            </div>
          </>
        ) : (
          <>
            <div className="flex min-w-0 flex-col gap-4 lg:order-2">
              <JoinCard mixer={mixer} />
            </div>
            <div className="flex min-w-0 flex-col gap-4 lg:order-1 lg:row-span-2">
              {about}
              <ParticipantList mixer={mixer} />
            </div>
          </>
        )}
      </div>
    </div>
  );
}
