import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_TZ } from '../../../shared/constants';
import type { ServerEvent } from '../../../shared/realtime/events';
import { isUuid, jsonArray, readCursor } from '../../http/cursor';

/** How modules hand events to the realtime hub (`app.realtime.publish`). */
export type Publish = (room: string, event: ServerEvent) => Promise<void> | void;

export { isUuid };

/** Raw rows from `db.execute` (PGlite and node-postgres both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Epoch milliseconds (as the SQL below selects them) → ISO string. */
export const isoFromMs = (v: unknown) => new Date(Number(v)).toISOString();

/** SQL: a timestamptz as epoch milliseconds (float8, a JS number on both drivers). */
export const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** SQL: a timestamptz as exact UTC text with microseconds, for keyset cursors. */
export const exactTs = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** First word of the display name (cards, chat and mail greetings show first names only). */
export function firstNameOf(name: string | null | undefined, fallback = 'Member'): string {
  return name?.trim().split(/\s+/)[0] || fallback;
}

/** "Saturday 6 December, 19:00" in UK time, for mail and notices about a mixer's start. */
export const ukLongWhen = new Intl.DateTimeFormat('en-GB', {
  timeZone: DEFAULT_TZ,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});

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

/** Opaque keyset cursors: base64url JSON of the sort key. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends unknown[]>(cursor: string | undefined, check: (v: unknown[]) => v is T): T | undefined {
  return readCursor(cursor, (text) => {
    const value = jsonArray(text);
    return value && check(value) ? value : undefined;
  });
}
