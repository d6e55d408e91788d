import { Lightbulb, SendHorizontal, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { HOST_TEXTS } from '../../../shared/host-texts';
import { Button } from '../../components/ui/button';
import { useHostEvents, useHostView, useNudgeAction } from './api';
import { useStickToBottom } from './stick-to-bottom';

/**
 * The host's private nudge, above the composer: only this member sees it, once. A suggested
 * reply to the current prompt, sent with one tap (as the member's own line) or dismissed.
 * Also keeps the room's host view live (polls, this nudge) while the chat is open.
 */
export function HostNudge({ mixerId, live }: { mixerId: string; live: boolean }) {
  useHostEvents(mixerId);
  const host = useHostView(mixerId);
  const act = useNudgeAction(mixerId);
  const [error, setError] = useState<string | undefined>();
  const nudge = host.data?.nudge;
  const ref = useRef<HTMLElement>(null);
  useStickToBottom(ref, Boolean(live && nudge));
  if (!live || !nudge) return null;

  const run = (action: 'send' | 'dismiss') => {
    setError(undefined);
    act.mutate(action, { onError: (err) => setError(err.message) });
  };

  return (
    <section
      ref={ref}
      aria-labelledby="host-nudge-title"
      className="border-t border-border bg-primary/5 px-3 py-2.5 dark:bg-primary/10 sm:px-4"
      data-host-nudge
    >
      <div className="flex items-start gap-2">
        <Lightbulb className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0 flex-1">
          <h3 id="host-nudge-title" className="text-sm font-semibold">
            {HOST_TEXTS.nudgeTitle} <span className="font-normal text-muted-foreground">Only you can see this.</span>
          </h3>
          <p className="mt-0.5 line-clamp-2 text-xs text-muted-foreground">The host asked: {nudge.prompt}</p>
          <p className="mt-1.5 rounded-xl bg-card px-3 py-2 text-sm text-foreground shadow-sm">“{nudge.reply}”</p>
          {error && (
            <p role="alert" className="mt-1 text-xs font-medium text-destructive">
              {error}
            </p>
          )}
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" onClick={() => run('send')} disabled={act.isPending}>
              <SendHorizontal aria-hidden /> Send this
            </Button>
            <Button size="sm" variant="ghost" onClick={() => run('dismiss')} disabled={act.isPending}>
              <X aria-hidden /> No thanks
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
