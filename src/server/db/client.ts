import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { QueryConfig } from 'pg';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { PGliteThread } from './pglite-thread';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs a plain SQL statement (used for health checks and tests). */
  ping(): Promise<void>;
  /**
   * The embedded database's files as one uncompressed tar (PGlite's `dumpDataDir`), taken
   * between statements after a checkpoint; `npm run db:backup` (decision 019). PGlite only.
   */
  dump?(): Promise<Blob>;
  /** The PostgreSQL pool's connections (metrics); absent on PGlite. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * PostgreSQL: runs a named statement in autocommit (each connection parses and plans it once)
   * over the pipelined lanes (db/pipelined-lanes.ts), its rows typed as `db.execute()` types
   * them. For db/prepared.ts's hot statements only: short ones, never part of a transaction.
   */
  named?<T>(name: string, text: string, values: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; without it the embedded PGlite in dataDir is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  /** The committed migrations by default; tests point it at a copy with one more. */
  migrationsFolder?: string;
  /**
   * PGlite only: the files of a database (a `dump()`) a new data folder starts from, instead of
   * an empty one; a folder that already holds a database ignores it. Tests start from a migrated
   * copy (tests/helpers/db-template.ts): creating and migrating a database costs seconds of CPU.
   */
  initialData?: Uint8Array;
}

/**
 * PGlite's memory (decision 017). Its WASM heap holds PostgreSQL's shared memory: the stock
 * 128 MB of shared buffers and 100 connection slots cost ~130 MB resident and ~0.3 s at every
 * start, for one single-user backend whose files the OS caches anyway. PostgreSQL touches every
 * buffer page at start, so each MB here is a resident MB: 16 MB (2,048 pages) keeps a small
 * community's hot pages, and a miss is a read from the OS cache, not the disk. Sorts and hashes
 * stay within work_mem (4 MB per node).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=8', 'wal_buffers=1MB', 'maintenance_work_mem=32MB'];

/** The newest committed migration's timestamp (drizzle's folderMillis), from the journal. */
export function latestMigrationMillis(folder = MIGRATIONS_DIR): number {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/**
 * Drizzle applies every migration newer than the last row of drizzle.__drizzle_migrations;
 * when that row is already at the journal's newest entry there is nothing to do, and one
 * read replaces the migrator's four statements and its reading and hashing of every file.
 * A missing table (a fresh database) or an older row runs the migrator as before.
 */
export async function isAtLatestMigration(
  query: (sql: string) => Promise<{ rows: { created_at: unknown }[] }>,
  folder = MIGRATIONS_DIR,
): Promise<boolean> {
  try {
    const { rows } = await query('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
    return rows.length > 0 && Number(rows[0].created_at) >= latestMigrationMillis(folder);
  } catch {
    return false;
  }
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const folder = opts.migrationsFolder ?? MIGRATIONS_DIR;
  const database = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, folder)
    : await openPglite(opts.dataDir ?? 'memory://', folder, opts.initialData);
  return database;
}

async function openPglite(dataDir: string, folder: string, initialData?: Uint8Array): Promise<Database> {
  let target = dataDir;
  let fresh = true;
  if (!dataDir.startsWith('memory://')) {
    target = path.resolve(dataDir, 'pglite');
    fresh = !existsSync(path.join(target, 'PG_VERSION'));
    mkdirSync(target, { recursive: true });
  }
  // On its own thread (decision 023): a long statement never stalls sockets and HTTP. The thread
  // starts first, so the database opens while this one loads the driver (and, at `npm start`, the
  // rest of the server: serve.ts).
  const opening = PGliteThread.create(target, PGLITE_SETTINGS, fresh ? initialData : undefined);
  opening.catch(() => {});
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await opening;
  const db = drizzle({ client: client as unknown as PGlite, schema });
  if (!(await isAtLatestMigration((q) => client.query<{ created_at: unknown }>(q), folder))) {
    await migrate(db, { migrationsFolder: folder });
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    async ping() {
      await client.query('select 1');
    },
    async dump() {
      // Dirty pages go to the data files first, so the copy needs little WAL replay when loaded.
      await client.exec('CHECKPOINT');
      return client.dumpDataDir('none');
    },
    async close() {
      await client.close();
    },
  };
}

/** Timestamps, dates, intervals, numeric[] and their arrays: the types drizzle's drivers leave as text (db/prepared.ts too). */
export const AS_TEXT_OIDS: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

async function openPostgres(url: string, folder: string): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { pipelinedLanes } = await import('./pipelined-lanes');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const lanes = pipelinedLanes(pg.Client, { connectionString: url }, pool);
  // As drizzle's node-postgres driver reads them: dates, timestamps and intervals stay text.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      AS_TEXT_OIDS.includes(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text'),
  };
  const db = drizzle({ client: pool, schema });
  if (!(await isAtLatestMigration((q) => pool.query(q), folder))) await migrate(db, { migrationsFolder: folder });
  // A second close waits for the first: whoever drops the database next must find the pool ended.
  let closing: Promise<void> | undefined;
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    async named<T>(name: string, text: string, values: readonly unknown[]) {
      return (await lanes.query({ name, text, values: values as unknown[], types } as QueryConfig)).rows as T[];
    },
    close() {
      closing ??= lanes.end().then(() => pool.end());
      return closing;
    },
  };
}
