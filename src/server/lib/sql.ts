import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jsonArray, readCursor } from '../http/cursor';

/**
 * Raw-SQL helpers every server module uses (docs/decisions/027): they belong to no module, so
 * modules share them from here rather than through another module's service.
 */

/** A database handle or an open transaction. */
export type Queryable = Pick<Db, 'execute'>;

/** Raw rows from `db.execute` (PGlite and node-postgres both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A JSON column as a value: node-postgres parses it, some PGlite paths answer its text; null/undefined → `fallback`. */
export const parseJson = <T>(v: T | string | null | undefined, fallback: T): T =>
  v == null ? fallback : typeof v === 'string' ? (JSON.parse(v) as T) : v;

/** Runs a raw statement and answers its rows. */
export async function query<T>(db: Queryable, statement: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(statement));
}

/** SQL: a timestamptz as an ISO string in UTC with milliseconds (same text on both drivers). */
export const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Epoch milliseconds (as the SQL below selects them) → ISO string. */
export const isoFromMs = (v: unknown) => new Date(Number(v)).toISOString();

/** SQL: a timestamptz as epoch milliseconds (float8, a JS number on both drivers). */
export const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** SQL: a timestamptz as exact UTC text with microseconds, for keyset cursors. */
export const exactTs = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

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

/** SQL: the grouping key of an interest suggestion (`suggestionKey` in shared/profile-texts.ts). */
export const suggestionKeySql = (column: SQL) => sql`lower(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'))`;
