import { DEFAULT_TZ } from '../../shared/constants';

/**
 * Fancy tells time in Europe/London (spec §9's default zone), as mixer times always were: the same
 * on every device and on the server that renders a member page (decision 028).
 */
const dayFmt = new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
const hourFmt = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, hour: 'numeric', hourCycle: 'h23' });

/** The London calendar day of an instant, as a whole number of days (consecutive days differ by 1). */
export function londonDay(d: Date): number {
  return Date.parse(`${dayFmt.format(d)}T00:00:00Z`) / 86_400_000;
}

/** The hour (0–23) on a London clock. */
export function londonHour(d: Date): number {
  return Number(hourFmt.format(d));
}
