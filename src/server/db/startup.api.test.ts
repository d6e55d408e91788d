import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { isAtLatestMigration, latestMigrationMillis, MIGRATIONS_DIR, openDatabase, type Database } from './client';
import { ensureReferenceData, referenceFingerprint } from './seed/reference';

const rows = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

const dirs: string[] = [];
const open: Database[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
const openAt = async (dataDir: string, migrationsFolder?: string) => {
  const database = await openDatabase({ dataDir, migrationsFolder });
  open.push(database);
  return database;
};

afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('start-up skips only what is already done (decision 017)', () => {
  // Creates and migrates an embedded database on disk, then opens it again: ~10 s of CPU alone, and
  // several times that while CI's other suites share the cores (it timed out at 30 s there).
  it('applies a new migration to a data dir made by the previous version', { timeout: 180_000 }, async () => {
    const dataDir = tempDir('fancy-startup-');
    const first = await openAt(dataDir);
    const query = async (q: string) => ({ rows: await rows<{ created_at: unknown }>(first, sql.raw(q)) });
    expect(await isAtLatestMigration(query)).toBe(true);
    await first.db.execute(sql`insert into gender_options (label, sort_order) values ('Kept across versions', 1)`);
    await first.close();

    // The next version ships one more migration.
    const folder = tempDir('fancy-migrations-');
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Record<string, unknown>[] };
    const when = latestMigrationMillis() + 1000;
    journal.entries.push({ idx: journal.entries.length, version: '7', when, tag: '9999_startup-test', breakpoints: true });
    writeFileSync(journalPath, JSON.stringify(journal));
    writeFileSync(path.join(folder, '9999_startup-test.sql'), 'CREATE TABLE "startup_probe" ("id" integer PRIMARY KEY);');

    const next = await openAt(dataDir, folder);
    const probe = await rows<{ name: string | null }>(next, sql`select to_regclass('public.startup_probe')::text as name`);
    expect(probe[0].name).toBe('startup_probe');
    const applied = await rows<{ created_at: string }>(
      next,
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    expect(Number(applied[0].created_at)).toBe(when);
    // Earlier data survived.
    expect(await rows(next, sql`select label from gender_options`)).toEqual([{ label: 'Kept across versions' }]);
  });

  it('a fresh database is not at the latest migration until migrated', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const bare = await PGlite.create('memory://');
    try {
      expect(await isAtLatestMigration((q) => bare.query(q))).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it('seeds reference data once per catalogue and again when the catalogue or the data changed', async () => {
    const database = await openAt('memory://');
    expect(await ensureReferenceData(database.db)).toBe('seeded');
    const count = async () => (await rows<{ n: number }>(database, sql`select count(*)::int as n from predefined_interests`))[0].n;
    const seeded = await count();
    expect(seeded).toBeGreaterThan(0);
    expect(await ensureReferenceData(database.db)).toBe('current');

    // A restored or hand-edited database without the mark is seeded again (idempotently).
    await database.db.execute(sql`delete from gender_options`);
    await database.db.execute(sql`comment on table predefined_interests is null`);
    expect(await ensureReferenceData(database.db)).toBe('seeded');
    expect((await rows<{ n: number }>(database, sql`select count(*)::int as n from gender_options`))[0].n).toBeGreaterThan(0);
    expect(await count()).toBe(seeded);

    // A different catalogue (another fingerprint in the database) is applied too.
    await database.db.execute(sql`delete from orientation_options`);
    await database.db.execute(sql.raw(`comment on table predefined_interests is 'reference:older'`));
    expect(await ensureReferenceData(database.db)).toBe('seeded');
    expect((await rows<{ n: number }>(database, sql`select count(*)::int as n from orientation_options`))[0].n).toBeGreaterThan(0);
    const mark = await rows<{ note: string }>(database, sql`select obj_description('predefined_interests'::regclass, 'pg_class') as note`);
    expect(mark[0].note).toBe(referenceFingerprint());
  });

  it('opens PGlite with bounded shared memory', async () => {
    const database = await openAt('memory://');
    const settings = await rows<{ name: string; setting: string }>(
      database,
      sql`select name, setting from pg_settings where name in ('shared_buffers', 'max_connections') order by name`,
    );
    // shared_buffers is in 8 kB pages: 16 MB, not the stock 128 MB.
    expect(settings).toEqual([
      { name: 'max_connections', setting: '8' },
      { name: 'shared_buffers', setting: String((16 * 1024) / 8) },
    ]);
  });
});
