import { DEFAULT_TZ } from '../../shared/constants';

/** "Saturday 6 December, 19:00" in UK time, for mail and notices about a mixer's start. */
export const ukLongWhen = new Intl.DateTimeFormat('en-GB', {
  timeZone: DEFAULT_TZ,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});
