import { now as clockNow } from '../../../lib/clock';
import { londonFormat } from '../../../lib/london-time';

let relative: Intl.RelativeTimeFormat | undefined;
const rtf = {
  format(v: number, unit: Intl.RelativeTimeFormatUnit) {
    relative ??= new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
    return relative.format(v, unit);
  },
};
const dateFmt = londonFormat({ day: 'numeric', month: 'short', year: 'numeric' });

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function timeAgo(iso: string, now = clockNow().getTime()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 7 * 86_400) return rtf.format(Math.round(s / 86_400), 'day');
  if (abs < 30 * 86_400) return rtf.format(Math.round(s / (7 * 86_400)), 'week');
  return rtf.format(Math.round(s / (30 * 86_400)), 'month');
}

export const formatDate = (iso: string) => dateFmt(new Date(iso));
