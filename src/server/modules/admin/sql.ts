import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isCursorInteger, isUuid, jsonArray, readCursor } from '../../http/cursor';

/** A database handle or an open transaction. */
export type Queryable = Pick<Db, 'execute'>;

/** Raw rows from `db.execute` (PGlite and node-postgres both answer `{ rows }`). */
export async function query<T>(db: Queryable, statement: SQL): Promise<T[]> {
  const result = await db.execute(statement);
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** SQL: a timestamptz as an ISO string in UTC with milliseconds (same text on both drivers). */
export const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** SQL: a timestamptz as exact microseconds since the epoch (keyset cursors). */
export const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::bigint`;

/** SQL: the grouping key of an interest suggestion (see `suggestionKey` in shared/schemas/admin). */
export const suggestionKeySql = (column: SQL) => sql`lower(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'))`;

/** JSON columns come back parsed (pg) or as text (some PGlite paths). */
export const parseJson = <T>(v: T | string | null | undefined, fallback: T): T =>
  v == null ? fallback : typeof v === 'string' ? (JSON.parse(v) as T) : v;

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
