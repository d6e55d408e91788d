import { CalendarClock } from 'lucide-react';
import type { MixerSummary } from '../../../../shared/schemas/mixers';
import { cn } from '../../../lib/cn';
import { whenLabel } from '../format';

/** "● Live now · until 21:00" / "Tomorrow, 19:30" / "Ended · Sat 21 Nov", for use on a theme band. */
export function StatusPill({ mixer, className }: { mixer: Pick<MixerSummary, 'status' | 'startsAt' | 'endsAt'>; className?: string }) {
  const live = mixer.status === 'live';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold shadow-sm',
        live ? 'bg-white text-rose-700' : 'bg-black/35 text-white backdrop-blur-sm',
        className,
      )}
    >
      {live ? (
        <span className="relative flex size-2" aria-hidden>
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-rose-500 opacity-75" />
          <span className="relative inline-flex size-2 rounded-full bg-rose-600" />
        </span>
      ) : (
        <CalendarClock className="size-3.5" aria-hidden />
      )}
      {whenLabel(mixer)}
    </span>
  );
}
