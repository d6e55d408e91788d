import { now as clockNow } from '../../lib/clock';
import { londonDay, londonFormat } from '../../lib/london-time';

/** Times in en-GB, Europe/London (spec §9 defaults), whatever the browser's own zone. */
const time = londonFormat({ hour: '2-digit', minute: '2-digit' });
const shortDay = londonFormat({ weekday: 'short', day: 'numeric', month: 'short' });
const longDay = londonFormat({ weekday: 'long', day: 'numeric', month: 'long' });

export function formatTime(iso: string): string {
  return time(new Date(iso));
}

/**
 * "Today", "Tomorrow", "Yesterday" or "Sat 28 Nov" (London calendar days: on the Sundays the clocks
 * change a day is 23 or 25 hours long, so "tomorrow" is the next date, not 24 hours on).
 */
export function dayLabel(iso: string, now = clockNow(), long = false): string {
  const d = new Date(iso);
  const days = londonDay(d) - londonDay(now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  if (days === -1) return 'Yesterday';
  return (long ? longDay : shortDay)(d);
}

/** "today" / "tomorrow" inside a sentence ("held until today, 18:00"); a date stays as it is. */
export const inSentence = (day: string) => (day === 'Today' || day === 'Tomorrow' ? day.toLowerCase() : day);

/** When a mixer starts, inside a sentence: "today at 19:30", "tomorrow at 19:30", "Sat 28 Nov at 19:30". */
export function startsAtLabel(iso: string, now = clockNow()): string {
  return `${inSentence(dayLabel(iso, now))} at ${formatTime(iso)}`;
}

/** A card's time line: "Live now · until 21:00", "Starts in 25 min", "Tomorrow, 19:30", "Ended · Sat 21 Nov". */
export function whenLabel(m: { status: string; startsAt: string; endsAt: string }, now = clockNow()): string {
  if (m.status === 'live') return `Live now · until ${formatTime(m.endsAt)}`;
  if (m.status === 'cancelled') return `Cancelled · ${dayLabel(m.startsAt, now)}`;
  if (m.status === 'ended') return `Ended · ${dayLabel(m.startsAt, now)}`;
  const minutes = Math.round((new Date(m.startsAt).getTime() - now.getTime()) / 60_000);
  if (minutes <= 0) return 'Starting now';
  if (minutes < 60) return `Starts in ${minutes} min`;
  return `${dayLabel(m.startsAt, now)}, ${formatTime(m.startsAt)}`;
}

/** The detail page's full line: "Saturday 28 November · 19:30–21:00". */
export function rangeLabel(m: { startsAt: string; endsAt: string }, now = clockNow()): string {
  return `${dayLabel(m.startsAt, now, true)} · ${formatTime(m.startsAt)}–${formatTime(m.endsAt)}`;
}
