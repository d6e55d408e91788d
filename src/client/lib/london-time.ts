import { DEFAULT_TZ } from '../../shared/constants';

/**
 * Fancy tells time in Europe/London (spec §9's default zone), as mixer times always were: the same
 * on every device and on the server that renders a member page (decision 028).
 */

/**
 * A date formatter (en-GB, London time unless `options` says otherwise), made on its first use:
 * each Intl formatter costs a phone a millisecond or more to build, and a page module that builds
 * a dozen at load makes its start-up a long task.
 */
export function londonFormat(options: Intl.DateTimeFormatOptions, locale = 'en-GB'): (d: Date) => string {
  let f: Intl.DateTimeFormat | undefined;
  return (d) => {
    f ??= new Intl.DateTimeFormat(locale, { timeZone: DEFAULT_TZ, ...options });
    return f.format(d);
  };
}

const dayKey = londonFormat({ year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA');
const hour = londonFormat({ hour: 'numeric', hourCycle: 'h23' });

/** The London calendar day of an instant, as a whole number of days (consecutive days differ by 1). */
export function londonDay(d: Date): number {
  return Date.parse(`${dayKey(d)}T00:00:00Z`) / 86_400_000;
}

/** The hour (0–23) on a London clock. */
export function londonHour(d: Date): number {
  return Number(hour(d));
}
