import { Check } from 'lucide-react';
import { useRef, useState } from 'react';
import type { HostPoll } from '../../../shared/host-texts';
import { cn } from '../../lib/cn';
import { useVote } from './api';
import { useStickToBottom } from './stick-to-bottom';

/**
 * The halfway poll: one tap answers; then (or once voting has closed) the results, live as the
 * others vote. Counts leave out anyone hidden from me, as everywhere.
 */
export function PollCard({ mixerId, poll }: { mixerId: string; poll: HostPoll }) {
  const vote = useVote(mixerId);
  const [error, setError] = useState<string | undefined>();
  const showResults = poll.myVote !== null || !poll.open;
  const ref = useRef<HTMLDivElement>(null);
  useStickToBottom(ref, true);

  if (!showResults) {
    return (
      <div ref={ref}>
        <fieldset className="mt-3">
          <legend className="sr-only">{poll.question}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {poll.options.map((o, i) => (
              <button
                key={o.label}
                type="button"
                disabled={vote.isPending}
                onClick={() => {
                  setError(undefined);
                  vote.mutate({ pollId: poll.id, option: i }, { onError: (err) => setError(err.message) });
                }}
                className="min-h-11 rounded-xl border border-primary/40 bg-card px-3 py-2 text-left text-sm font-semibold text-foreground transition-colors hover:bg-primary/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60"
              >
                {o.label}
              </button>
            ))}
          </div>
          {error && (
            <p role="alert" className="mt-2 text-sm font-medium text-destructive">
              {error}
            </p>
          )}
        </fieldset>
      </div>
    );
  }

  return (
    <div className="mt-3" ref={ref}>
      <ul className="flex flex-col gap-1.5" aria-label={`Results: ${poll.question}`}>
        {poll.options.map((o, i) => {
          const pct = poll.total ? Math.round((o.votes / poll.total) * 100) : 0;
          const mine = poll.myVote === i;
          return (
            <li key={o.label} className="relative overflow-hidden rounded-xl border border-border bg-card">
              <span
                className={cn('absolute inset-y-0 left-0 transition-[width] duration-500', mine ? 'bg-primary/25' : 'bg-muted')}
                style={{ width: `${pct}%` }}
                aria-hidden
              />
              <span className="relative flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span className={cn('flex items-center gap-1.5', mine && 'font-semibold')}>
                  {mine && <Check className="size-4 text-primary" aria-label="Your answer" />}
                  {o.label}
                </span>
                <span className="tabular-nums text-muted-foreground">
                  {pct}% <span className="sr-only">({o.votes === 1 ? '1 vote' : `${o.votes} votes`})</span>
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      <p className="mt-1.5 text-xs text-muted-foreground" aria-live="polite">
        {poll.total === 1 ? '1 vote' : `${poll.total} votes`}
        {poll.open ? ' · live' : ' · voting closed'}
      </p>
    </div>
  );
}
