import { Info } from 'lucide-react';
import { Link } from 'react-router';
import type { MixerSection as Section } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { type MixerFilters, useMixerList } from '../api';
import { MixerCard, MixerCardSkeleton } from './mixer-card';
import { LoadError } from '../../../components/ui/load-error';

/** One list section with its loading, empty and error states and a "Show more" that follows the cursor. */
export function MixerSection({
  id,
  section,
  filters,
  title,
  icon,
  empty,
  filtered,
  showNotice = true,
}: {
  id: string;
  section: Section;
  filters: MixerFilters;
  title: string;
  icon?: React.ReactNode;
  empty: React.ReactNode;
  filtered: boolean;
  /** Show the list's notice (e.g. online mixers only); one section per page is enough. */
  showNotice?: boolean;
}) {
  const list = useMixerList(section, filters);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const notice = showNotice ? list.data?.pages[0]?.notice : null;

  return (
    <section aria-labelledby={id} className="mt-8 first:mt-6">
      <h2 id={id} className="flex items-center gap-2 font-display text-xl font-bold">
        {icon}
        {title}
      </h2>
      {notice && (
        <p className="mt-3 flex items-start gap-2 rounded-xl border border-border bg-muted/60 px-3 py-2 text-sm" role="note">
          <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span>
            {notice}{' '}
            <Link to="/profile" className="font-semibold underline">
              Go to your profile
            </Link>
          </span>
        </p>
      )}
      <div className="mt-4" aria-busy={list.isPending}>
        {list.isPending ? (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <li key={i}>
                <MixerCardSkeleton />
              </li>
            ))}
            <li className="sr-only" role="status">
              Loading mixers
            </li>
          </ul>
        ) : list.isError && !items.length ? (
          <LoadError title="We couldn't load these mixers." error={list.error} onRetry={list.refetch} />
        ) : items.length === 0 ? (
          <Card className="border-dashed p-6 text-center shadow-none">
            {filtered ? <p className="text-muted-foreground">No mixers match your filters.</p> : empty}
          </Card>
        ) : (
          <>
            <ul
              className={cn(
                'grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
                list.isPlaceholderData && 'opacity-60',
              )}
            >
              {items.map((m) => (
                <li key={m.id} className="skip-offscreen [--offscreen-size:260px]">
                  <MixerCard mixer={m} />
                </li>
              ))}
            </ul>
            {list.hasNextPage && (
              <div className="mt-5 flex justify-center">
                <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                  {list.isFetchingNextPage ? 'Loading…' : 'Show more'}
                </Button>
              </div>
            )}
            {list.isError && (
              <p className="mt-3 text-sm text-destructive" role="alert">
                We couldn't load more just now.{' '}
                <button type="button" className="font-semibold underline" onClick={() => void list.fetchNextPage()}>
                  Try again
                </button>
              </p>
            )}
          </>
        )}
      </div>
    </section>
  );
}
