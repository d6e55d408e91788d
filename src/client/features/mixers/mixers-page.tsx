import { CalendarDays, Search, Sparkles, UsersRound, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, type LoaderFunctionArgs, useSearchParams } from 'react-router';
import { MIXER_INTENTS, type MixerIntent } from '../../../shared/mixer-facts';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { type MixerFilters, mixerListQuery, topicsQuery, useTopics } from './api';
import { preloadQueries } from '../../lib/query';
import { LiveDot } from './components/live-dot';
import { MixerSection } from './components/mixer-section';
import { usePageTitle } from '../../lib/use-page-title';

type Tab = 'foryou' | 'discover' | 'mine';

/** For you is empty: what the member can do about it. */
function ForYouEmpty() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3">
      <p className="font-medium">No mixers fit you right now.</p>
      <ul className="list-disc space-y-1 pl-5 text-left text-sm text-muted-foreground">
        <li>Complete your profile — your age, city, gender and who you're looking for decide which mixers are for you.</li>
        <li>Set your city to see mixers near you, not just online ones.</li>
        <li>
          Or ask for a topic you'd love a mixer about — when enough people ask, one forms itself — and check Discover for what's on this
          week.
        </li>
      </ul>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to="/profile">Update your profile</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/profile#availability">Ask for a topic</Link>
        </Button>
        <Button variant="ghost" asChild>
          <Link to="/mixers?tab=discover">Discover</Link>
        </Button>
      </div>
    </div>
  );
}

/** /mixers: for you (ranked, with reasons), live now, coming up this week and your mixers, with search and filters kept in the URL. */
/** The list and filters the URL asks for. */
function readTab(params: URLSearchParams): Tab {
  const tabParam = params.get('tab');
  return tabParam === 'mine' || tabParam === 'discover' ? tabParam : 'foryou';
}
function readFilters(params: URLSearchParams): MixerFilters {
  const intentParam = params.get('intent');
  return {
    q: params.get('q') || undefined,
    intent: MIXER_INTENTS.includes(intentParam as MixerIntent) ? (intentParam as MixerIntent) : undefined,
    topic: params.get('topic') || undefined,
  };
}
const TAB_SECTIONS = { foryou: ['foryou'], discover: ['live', 'upcoming'], mine: ['mine'] } as const;

/** The open list's first page and the topic filter, loaded with the page (decision 018). */
export const preload = ({ request }: LoaderFunctionArgs) => {
  const params = new URL(request.url).searchParams;
  const filters = readFilters(params);
  return preloadQueries((client) => [
    ...TAB_SECTIONS[readTab(params)].map((section) =>
      client.ensureInfiniteQueryData({ ...mixerListQuery(section, filters), revalidateIfStale: true }),
    ),
    client.ensureQueryData({ ...topicsQuery, revalidateIfStale: true }),
  ]);
};

export default function MixersPage() {
  usePageTitle('Mixers');
  const [params, setParams] = useSearchParams();
  const tab = readTab(params);
  const filters: MixerFilters = useMemo(() => readFilters(params), [params]);
  const filtered = Boolean(filters.q || filters.intent || filters.topic);

  const update = (changes: Record<string, string | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace: true },
    );

  // Search is typed freely and applied after a short pause.
  const [search, setSearch] = useState(filters.q ?? '');
  useEffect(() => setSearch(filters.q ?? ''), [filters.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `update` is recreated each render; only the text matters
  useEffect(() => {
    const value = search.trim();
    if (value === (filters.q ?? '')) return;
    const timer = setTimeout(() => update({ q: value || undefined }), 300);
    return () => clearTimeout(timer);
  }, [search, filters.q]);

  const topics = useTopics();
  // Switching lists keeps the filters.
  const tabLink = (value: Tab) => {
    const next = new URLSearchParams(params);
    if (value === 'foryou') next.delete('tab');
    else next.set('tab', value);
    const query = next.toString();
    return query ? `/mixers?${query}` : '/mixers';
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 md:py-10">
      <header className="flex flex-col gap-2">
        <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Mixers</h1>
        <p className="max-w-2xl text-muted-foreground">
          Small themed group chats of 4–8 people who share an interest. Join one, talk about what you love, then Fancy the people you
          clicked with.
        </p>
      </header>

      <nav aria-label="Mixer lists" className="mt-6 inline-flex rounded-full border border-border bg-muted p-1">
        {(
          [
            ['foryou', 'For you'],
            ['discover', 'Discover'],
            ['mine', 'Your mixers'],
          ] as const
        ).map(([value, label]) => (
          <Link
            key={value}
            to={tabLink(value)}
            aria-current={tab === value ? 'page' : undefined}
            className={cn(
              'rounded-full px-4 py-2 text-sm font-semibold text-muted-foreground transition-colors hover:text-foreground',
              tab === value && 'bg-card text-foreground shadow-sm',
            )}
          >
            {label}
          </Link>
        ))}
      </nav>

      <form
        aria-label="Filter mixers"
        className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-center"
        onSubmit={(e) => {
          e.preventDefault();
          update({ q: search.trim() || undefined });
        }}
      >
        <div className="relative lg:w-80">
          <Search className="pointer-events-none absolute left-3.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <label htmlFor="mixer-search" className="sr-only">
            Search mixers
          </label>
          <Input
            id="mixer-search"
            type="search"
            placeholder="Search mixers, topics, interests"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-10"
            maxLength={100}
          />
        </div>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Looking for</legend>
          {([undefined, ...MIXER_INTENTS] as const).map((intent) => {
            const active = filters.intent === intent;
            return (
              <button
                key={intent ?? 'all'}
                type="button"
                aria-pressed={active}
                onClick={() => update({ intent })}
                className={cn(
                  'h-9 rounded-full border px-3.5 text-sm font-medium transition-colors',
                  active
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'border-border bg-card text-muted-foreground hover:text-foreground',
                )}
              >
                {intent ?? 'All'}
              </button>
            );
          })}
        </fieldset>
        <div className="flex items-center gap-2 lg:ml-auto">
          <label htmlFor="mixer-topic" className="sr-only">
            Topic or interest
          </label>
          <select
            id="mixer-topic"
            value={filters.topic ?? ''}
            onChange={(e) => update({ topic: e.target.value || undefined })}
            className="h-9 min-w-0 flex-1 rounded-full border border-input bg-card px-3.5 text-sm lg:w-56 lg:flex-none"
          >
            <option value="">All topics</option>
            {filters.topic && !topics.data?.topics.includes(filters.topic) && <option value={filters.topic}>{filters.topic}</option>}
            {topics.data?.topics.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          {filtered && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setSearch('');
                update({ q: undefined, intent: undefined, topic: undefined });
              }}
            >
              <X aria-hidden /> Clear
            </Button>
          )}
        </div>
      </form>

      {tab === 'foryou' ? (
        <MixerSection
          id="for-you"
          section="foryou"
          filters={filters}
          filtered={filtered}
          title="Picked for you"
          icon={<Sparkles className="size-5 text-primary" aria-hidden />}
          empty={<ForYouEmpty />}
        />
      ) : tab === 'discover' ? (
        <>
          <MixerSection
            id="live-now"
            section="live"
            filters={filters}
            filtered={filtered}
            title="Live now"
            icon={<LiveDot className="size-2.5" />}
            empty={<p className="text-muted-foreground">No mixers are live right now. Pick one coming up below and we'll see you there.</p>}
          />
          <MixerSection
            id="upcoming"
            section="upcoming"
            showNotice={false}
            filters={filters}
            filtered={filtered}
            title="Coming up this week"
            icon={<CalendarDays className="size-5 text-primary" aria-hidden />}
            empty={<p className="text-muted-foreground">Nothing is scheduled for the next 7 days yet. Check back soon.</p>}
          />
        </>
      ) : (
        <MixerSection
          id="your-mixers"
          section="mine"
          filters={filters}
          filtered={filtered}
          title="Your mixers"
          icon={<UsersRound className="size-5 text-primary" aria-hidden />}
          empty={
            <div className="flex flex-col items-center gap-3">
              <p className="text-muted-foreground">You haven't joined any mixers yet.</p>
              <Button asChild>
                <Link to="/mixers">Find a mixer</Link>
              </Button>
            </div>
          }
        />
      )}
    </div>
  );
}
