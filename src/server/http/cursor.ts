import { AppError } from './errors';

/**
 * Keyset cursors are opaque base64url text made by the server, but they come back from the
 * client: every part is checked in its value (not just its shape) before it reaches SQL, so a
 * well-formed-but-wrong cursor is a 400, never a database error.
 */
export function readCursor<T>(cursor: string | undefined, parse: (text: string) => T | undefined): T | undefined {
  if (!cursor) return undefined;
  let value: T | undefined;
  try {
    value = parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    throw new AppError('validation', 'That page link is no longer valid. Please reload.', {
      cursor: 'That page link is no longer valid. Please reload.',
    });
  }
  return value;
}

/** A JSON array cursor, or undefined. */
export const jsonArray = (text: string): unknown[] | undefined => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value : undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** Years a stored timestamp can have; anything outside is not one of ours (and may overflow SQL). */
const MIN_MS = Date.UTC(1970, 0, 1);
const MAX_MS = Date.UTC(2200, 0, 1);
const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

/** An ISO UTC timestamp (up to microseconds) that is a real calendar time in a sane range. */
export function isCursorTimestamp(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = v.match(ISO_UTC);
  if (!m) return false;
  const ms = Date.parse(v);
  return ms >= MIN_MS && ms < MAX_MS && new Date(ms).toISOString().slice(0, 10) === m[1];
}

/** An integer sort key (microseconds, scores) that fits a bigint with room to spare. */
export function isCursorInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  return typeof v === 'string' && /^-?\d{1,17}$/.test(v);
}
