import { type SQL, sql } from 'drizzle-orm';
import { isCursorInteger, isUuid, jsonArray, readCursor } from '../../http/cursor';

/** SQL: a timestamptz as exact microseconds since the epoch (keyset cursors). */
export const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::bigint`;

export { isUuid };

/** Opaque keyset cursors: base64url JSON of [sort value, id]. */
export function encodeCursor(sortValue: string | number, id: string): string {
  return Buffer.from(JSON.stringify([String(sortValue), id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { sort: string; id: string } | undefined {
  return readCursor(cursor, (text) => {
    const value = jsonArray(text);
    if (value?.length !== 2 || !isCursorInteger(value[0]) || !isUuid(value[1])) return undefined;
    return { sort: String(value[0]), id: value[1] };
  });
}

/** First word of a display name, for greetings. */
export const firstName = (name: string | null | undefined) => name?.trim().split(/\s+/)[0] || 'there';
