import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, Heart } from 'lucide-react';
import { Link } from 'react-router';
import { afterMixerPath } from '../../../../shared/after-mixer';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { useRealtimeEvents } from '../../../lib/realtime';
import { openPromptsKey, useOpenPrompts } from '../after-mixer-api';
import { themeOf } from '../themes';
import { now } from '../../../lib/clock';

const hoursLeft = (closesAt: string) => Math.max(1, Math.round((new Date(closesAt).getTime() - now().getTime()) / 3_600_000));

/**
 * Home: "Who did you click with?" for each mixer I was in that ended in the last 48 hours.
 * Nothing when there is none (or while loading, or on error: the notice and mail also lead there).
 */
export function AfterMixerPrompts({ className }: { className?: string }) {
  const prompts = useOpenPrompts();
  const qc = useQueryClient();
  // A mixer I'm in changed (it may have just ended): look again.
  useRealtimeEvents((event) => {
    if (event.type === 'mixer.updated') void qc.invalidateQueries({ queryKey: openPromptsKey });
  });
  const items = prompts.data ?? [];
  if (!items.length) return null;
  return (
    <section aria-labelledby="after-mixer-prompts" className={className} data-testid="after-mixer-prompts">
      <Card className="overflow-hidden border-primary/30 p-0">
        <div className="flex items-center gap-3 bg-linear-to-r from-pink-700 to-rose-600 px-5 py-3 text-white">
          <Heart className="size-5 fill-current" aria-hidden />
          <h2 id="after-mixer-prompts" className="font-semibold">
            Who did you click with?
          </h2>
        </div>
        <ul className="divide-y divide-border">
          {items.map((p) => {
            const Icon = themeOf(p.theme).icon;
            return (
              <li key={p.mixerId}>
                <Link
                  to={afterMixerPath(p.mixerId)}
                  className="flex items-center gap-3 px-5 py-3.5 transition-colors hover:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
                >
                  <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-xl', themeOf(p.theme).band, 'text-white')}>
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{p.title}</span>
                    <span className="block text-xs text-muted-foreground">
                      {p.others} {p.others === 1 ? 'person' : 'people'} you met · open {hoursLeft(p.closesAt)} more{' '}
                      {hoursLeft(p.closesAt) === 1 ? 'hour' : 'hours'}
                    </span>
                  </span>
                  <ArrowRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                </Link>
              </li>
            );
          })}
        </ul>
      </Card>
    </section>
  );
}
