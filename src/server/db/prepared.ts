import { is, Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { AS_TEXT_OIDS, type Database } from './client';
import type { PGliteThread } from './pglite-thread';

/** What a hot statement needs of the database. */
type Hot = Pick<Database, 'db' | 'kind' | 'named'>;

/**
 * Hot reads on the embedded database, as cheap as PGlite allows (DESIGN §7).
 *
 * `db.execute()` on PGlite parses and plans the statement on every call and talks to the
 * WebAssembly backend six times (parse, describe, bind, describe, execute, sync). Here each
 * distinct statement text is prepared once per database (`PREPARE`), and every later call is
 * a single simple-protocol `EXECUTE` with the parameters as quoted literals: about a third of
 * the cost for a page of 50 messages. Rows come back exactly as `db.execute()` returns them
 * (same type parsers). On PostgreSQL `readRows` is `db.execute()`: the server plans in native
 * code; a compiled statement (below) is a named one there, and skips drizzle's SQL building too.
 *
 * Only for reads outside transactions. Parameters other than strings, finite numbers,
 * bigints, booleans, dates and null (arrays, JSON objects, buffers) use `db.execute()`.
 */
export async function readRows<T>(database: Hot, query: SQL): Promise<T[]> {
  if (database.kind === 'pglite') {
    const { sql: text, params } = (database.db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query);
    const rows = await executePrepared<T>(database, text, params);
    if (rows) return rows;
  }
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Names the compiled statements apart (PostgreSQL prepares each name once per connection). */
let compiledCount = 0;

/**
 * A hot read whose statement text is the same on every call (decision 016). `build` is called
 * once with a drizzle placeholder for each value to make the text; every call after that only
 * fills in the values: no SQL building, and the same text string (whose hash V8 keeps) to look
 * the prepared statement up by; on PostgreSQL it is a named statement. `build` with the real
 * values answers where neither applies (on PGlite, a value without a literal form). The values
 * must only ever be used as parameters inside `build`, never in JavaScript conditions (a
 * placeholder is truthy): make one reader per statement shape.
 */
export function compiledRead<T, K extends string>(
  build: (values: Record<K, unknown>) => SQL,
): (database: Hot, values: Record<K, string | number | boolean | null>) => Promise<T[]> {
  let compiled: { text: string; slots: ({ name: string } | { value: unknown })[] } | undefined;
  const name = `fancy_compiled_${++compiledCount}`;
  return async (database, values) => {
    if (database.kind === 'pglite' || database.named) {
      if (!compiled) {
        const names = new Proxy({} as Record<K, unknown>, { get: (_, name) => sql.placeholder(String(name)) });
        const q = (database.db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(build(names));
        compiled = { text: q.sql, slots: q.params.map((p) => (is(p, Placeholder) ? { name: p.name } : { value: p })) };
      }
      const params = compiled.slots.map((slot) => ('name' in slot ? values[slot.name as K] : slot.value));
      // PostgreSQL: a named statement, parsed and planned once per connection.
      if (database.named) return database.named<T>(name, compiled.text, params);
      const rows = await executePrepared<T>(database, compiled.text, params);
      if (rows) return rows;
    }
    return ((await database.db.execute(build(values))) as unknown as { rows: T[] }).rows;
  };
}

/**
 * A hot single-statement write (e.g. an INSERT … RETURNING) outside any transaction, prepared
 * like a read: its EXECUTE runs in autocommit, so it commits exactly as `db.execute()` would.
 * @alias compiledRead under the name that says what the caller does
 */
export const compiledWrite = compiledRead;

/** The rows of `text` with `params` from its prepared statement, or undefined where that cannot be used. */
async function executePrepared<T>(database: Hot, text: string, params: readonly unknown[]): Promise<T[] | undefined> {
  const client = (database.db as unknown as { $client: PGliteThread }).$client;
  const cache = cacheFor(client);
  const literals = toLiterals(params);
  if (literals === null || !(await cache.literalsOk)) return undefined;
  const statement = await cache.prepare(text);
  if (!statement) return undefined;
  try {
    const [result] = await client.exec(`execute ${statement.name}${literals}`, statement.options);
    return (result?.rows ?? []) as T[];
  } catch (err) {
    // Someone deallocated it (DISCARD ALL): prepare again next time; this call answers without.
    if ((err as { code?: string }).code !== '26000') throw err;
    cache.forget(text);
    return undefined;
  }
}

/** drizzle's PGlite driver returns dates, timestamps and intervals as strings; so do we. */
const asString = (value: string) => value;
/**
 * Passed only to statements with such columns: PGlite copies its ~300 type parsers into a
 * new object on every query given parsers, which costs more than a small query itself.
 */
const DRIZZLE_OPTIONS = { parsers: Object.fromEntries(AS_TEXT_OIDS.map((oid) => [oid, asString])) };

interface Statement {
  name: string;
  options?: typeof DRIZZLE_OPTIONS;
}

/** Prepared statements per PGlite instance, least recently used dropped past this many. */
const MAX_STATEMENTS = 200;
const caches = new WeakMap<PGliteThread, StatementCache>();

function cacheFor(client: PGliteThread): StatementCache {
  let cache = caches.get(client);
  if (!cache) {
    cache = new StatementCache(client);
    caches.set(client, cache);
  }
  return cache;
}

class StatementCache {
  /** Statement text → its statement (null: it cannot be prepared, e.g. untyped parameters). */
  private names = new Map<string, Promise<Statement | null>>();
  private counter = 0;
  /**
   * Quoted literals are only unambiguous with standard_conforming_strings on (the default
   * since PostgreSQL 9.1); checked once, and everything goes through `db.execute()` if not.
   */
  readonly literalsOk: Promise<boolean>;

  constructor(private client: PGliteThread) {
    this.literalsOk = client
      .query<{ ok: boolean }>(`select current_setting('standard_conforming_strings') = 'on' as ok`)
      .then((r) => r.rows[0]?.ok === true)
      .catch(() => false);
  }

  prepare(text: string): Promise<Statement | null> {
    const known = this.names.get(text);
    if (known) {
      // Most recently used last.
      this.names.delete(text);
      this.names.set(text, known);
      return known;
    }
    const name = `fancy_stmt_${++this.counter}`;
    const prepared = this.client
      .exec(`prepare ${name} as ${text}`)
      .then(() =>
        this.client.query<{ types: number[] | null }>('select result_types::oid[] as types from pg_prepared_statements where name = $1', [
          name,
        ]),
      )
      .then(
        (r): Statement => ((r.rows[0]?.types ?? []).some((t) => AS_TEXT_OIDS.includes(t)) ? { name, options: DRIZZLE_OPTIONS } : { name }),
        () => null,
      );
    this.names.set(text, prepared);
    if (this.names.size > MAX_STATEMENTS) {
      const [oldestText, oldest] = this.names.entries().next().value as [string, Promise<Statement | null>];
      this.names.delete(oldestText);
      void oldest.then((st) => (st ? this.client.exec(`deallocate ${st.name}`).catch(() => undefined) : undefined));
    }
    return prepared;
  }

  forget(text: string) {
    this.names.delete(text);
  }
}

/**
 * `('a', '1', NULL)` for EXECUTE. Every value is a quoted (untyped) literal, so PostgreSQL
 * converts it with the parameter's input function, exactly as it does a text-format bind
 * parameter. Returns null when a value has no safe literal form here.
 */
export function toLiterals(params: readonly unknown[]): string | null {
  if (params.length === 0) return '';
  const out: string[] = [];
  for (const p of params) {
    const text = literalText(p);
    if (text === undefined) return null;
    out.push(text === null ? 'NULL' : `'${text.replaceAll("'", "''")}'`);
  }
  return `(${out.join(', ')})`;
}

function literalText(p: unknown): string | null | undefined {
  if (p === null || p === undefined) return null;
  switch (typeof p) {
    case 'string':
      // PostgreSQL text cannot hold NUL; let the driver report that as it always has.
      return p.includes('\0') ? undefined : p;
    case 'number':
      return Number.isFinite(p) ? String(p) : undefined;
    case 'bigint':
      return String(p);
    case 'boolean':
      return p ? 't' : 'f';
    default:
      return p instanceof Date && !Number.isNaN(p.getTime()) ? p.toISOString() : undefined;
  }
}
