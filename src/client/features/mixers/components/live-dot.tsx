import { cn } from '../../../lib/cn';

/**
 * The red "live" dot. It pings three times as it appears and then stays still: a ping that never
 * stops redraws the screen sixty times a second for as long as the page is open (a tenth of a
 * core in a headless browser, a phone's battery in a room left open for an hour).
 */
export function LiveDot({ className }: { className?: string }) {
  return (
    <span className={cn('relative flex size-2', className)} aria-hidden>
      <span className="absolute inline-flex size-full animate-[ping_1s_cubic-bezier(0,0,0.2,1)_3] rounded-full bg-rose-500 opacity-75 motion-reduce:animate-none" />
      <span className="relative inline-flex size-full rounded-full bg-rose-600" />
    </span>
  );
}
