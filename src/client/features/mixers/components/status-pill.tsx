import { CalendarClock } from 'lucide-react';
import type { MixerSummary } from '../../../../shared/mixer-facts';
import { cn } from '../../../lib/cn';
import { whenLabel } from '../format';
import { LiveDot } from './live-dot';

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
      {live ? <LiveDot /> : <CalendarClock className="size-3.5" aria-hidden />}
      {whenLabel(mixer)}
    </span>
  );
}
