import { DEFAULT_TZ } from '../../shared/constants';

/** First word of the display name (cards, chat and mail greetings show first names only). */
export function firstNameOf(name: string | null | undefined, fallback = 'Member'): string {
  return name?.trim().split(/\s+/)[0] || fallback;
}

const londonParts = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, year: 'numeric', month: 'numeric', day: 'numeric' });

/** Age in whole years on `now` (calendar date in Europe/London) for a 'YYYY-MM-DD' date of birth. */
export function ageFromDob(dob: string | null | undefined, now = new Date()): number | null {
  const m = dob?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!m) return null;
  const parts = Object.fromEntries(londonParts.formatToParts(now).map((p) => [p.type, p.value]));
  const [y, mo, d] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  let age = y - Number(m[1]);
  if (mo < Number(m[2]) || (mo === Number(m[2]) && d < Number(m[3]))) age -= 1;
  return age >= 0 ? age : null;
}
