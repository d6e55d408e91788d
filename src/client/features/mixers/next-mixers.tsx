import { ArrowRight, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { useInfiniteQuery } from '@tanstack/react-query';
import { mixerListQuery } from './api';
import { formatTime, whenLabel } from './format';
import { themeOf } from './themes';

/** Home's "Your next mixers" list: loaded with the page (home-page's preload) and read by the section. */
export const nextMixersQuery = mixerListQuery('mine', {}, { limit: 3, active: true });

/**
 * Home's "Your next mixers": the live and upcoming mixers I joined or wait for, soonest first.
 * For the lead to place on the home page (`<YourNextMixers />`).
 */
export function YourNextMixers({ className }: { className?: string }) {
  const list = useInfiniteQuery(nextMixersQuery);
  const items = list.data?.pages[0]?.items ?? [];
  return (
    <section aria-labelledby="next-mixers" className={className}>
      <div className="flex items-center justify-between gap-2">
        <h2 id="next-mixers" className="font-display text-xl font-bold">
          Your next mixers
        </h2>
        <Link to="/mixers?tab=mine" className="text-sm font-semibold text-primary hover:underline">
          See all
        </Link>
      </div>
      <div className="mt-3" aria-busy={list.isPending}>
        {list.isPending ? (
          <ul className="grid gap-3 sm:grid-cols-3" aria-hidden>
            {[0, 1, 2].map((i) => (
              <li key={i} className="h-20 animate-pulse rounded-2xl bg-muted" />
            ))}
          </ul>
        ) : list.isError && !items.length ? (
          <Card className="flex items-center justify-between gap-3 p-4" role="alert">
            <p className="text-sm font-medium">We couldn't load your mixers.</p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <RefreshCw aria-hidden /> Try again
            </Button>
          </Card>
        ) : items.length === 0 ? (
          <Card className="flex flex-col items-start gap-3 border-dashed p-5 shadow-none sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">You haven't joined an upcoming mixer yet. Find one that fits your vibe.</p>
            <Button asChild size="sm">
              <Link to="/mixers">
                Browse mixers <ArrowRight aria-hidden />
              </Link>
            </Button>
          </Card>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {items.map((m) => {
              const theme = themeOf(m.theme);
              const Icon = theme.icon;
              return (
                <li key={m.id}>
                  <Link
                    to={`/mixers/${m.id}`}
                    className="flex h-full items-center gap-3 rounded-2xl border border-border bg-card p-3 shadow-sm transition hover:border-primary/40"
                  >
                    <span className={cn('flex size-12 shrink-0 items-center justify-center rounded-xl', theme.band, theme.onBand)}>
                      <Icon className="size-6" aria-hidden />
                    </span>
                    <span className="min-w-0">
                      <span className="block truncate font-semibold">{m.title}</span>
                      <span
                        className={cn(
                          'block truncate text-xs',
                          m.status === 'live' ? 'font-semibold text-primary' : 'text-muted-foreground',
                        )}
                      >
                        {m.myState === 'waitlisted' ? `Waitlisted · ${formatTime(m.startsAt)}` : whenLabel(m)}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
