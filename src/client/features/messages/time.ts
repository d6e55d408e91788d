import { now as clockNow } from '../../lib/clock';
import { londonDay, londonFormat } from '../../lib/london-time';

/** Time labels for the messenger, British English, on a London clock (lib/london-time). */

const fmt = (options: Intl.DateTimeFormatOptions) => londonFormat(options);
const clock = fmt({ hour: '2-digit', minute: '2-digit' });
const weekdayShort = fmt({ weekday: 'short' });
const dayMonthShort = fmt({ day: 'numeric', month: 'short' });
const dayMonthYearShort = fmt({ day: 'numeric', month: 'short', year: 'numeric' });
const fullDate = fmt({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const weekdayLong = fmt({ weekday: 'long' });
const weekdayDayMonth = fmt({ weekday: 'long', day: 'numeric', month: 'long' });
const dayMonthYearLong = fmt({ day: 'numeric', month: 'long', year: 'numeric' });
const year = fmt({ year: 'numeric' });

/** Whole calendar days between two instants (0 = same day). */
export function daysBetween(earlier: Date, later: Date): number {
  return londonDay(later) - londonDay(earlier);
}

const sameYear = (a: Date, b: Date) => year(a) === year(b);

export function isSameDay(a: string, b: string): boolean {
  return daysBetween(new Date(a), new Date(b)) === 0;
}

/** "14:05" */
export function clockTime(iso: string): string {
  return clock(new Date(iso));
}

/** Conversation list: "now", "5m", "3h", "Yesterday", "Mon", "12 Mar", "12 Mar 2025". */
export function listTime(iso: string, now = clockNow()): string {
  const d = new Date(iso);
  const diffMs = now.getTime() - d.getTime();
  const days = daysBetween(d, now);
  if (diffMs < 60_000) return 'now';
  if (days === 0 && diffMs < 3_600_000) return `${Math.floor(diffMs / 60_000)}m`;
  if (days === 0) return `${Math.floor(diffMs / 3_600_000)}h`;
  if (days === 1) return 'Yesterday';
  if (days < 7) return weekdayShort(d);
  if (sameYear(d, now)) return dayMonthShort(d);
  return dayMonthYearShort(d);
}

/** The long form for screen readers and tooltips: "Monday 3 November 2026 at 14:05". */
export function fullTime(iso: string): string {
  const d = new Date(iso);
  return `${fullDate(d)} at ${clockTime(iso)}`;
}

/** Day separators in a thread: "Today", "Yesterday", "Monday", "Saturday 1 November", "1 November 2025". */
export function dayLabel(iso: string, now = clockNow()): string {
  const d = new Date(iso);
  const days = daysBetween(d, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days < 7) return weekdayLong(d);
  if (sameYear(d, now)) return weekdayDayMonth(d);
  return dayMonthYearLong(d);
}
