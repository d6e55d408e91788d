/**
 * `npm run db:backup` / `npm run db:restore` for the embedded database (decision 019): a backup
 * taken from a running server, and one taken with it stopped, restore every row and every photo
 * into a wiped DATA_DIR; a restore refuses while the server runs; a damaged archive changes
 * nothing; DATA_DIR is held by one process at a time.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { type Db, openDatabase } from '../../src/server/db/client';
import { user } from '../../src/server/db/schema';
import { jobsSettled } from '../../src/server/infra/jobs/periodic';
import { type Running, startServer } from '../../src/server/main';

const root = mkdtempSync(path.join(tmpdir(), 'fancy-bk-'));
const dataDir = path.join(root, 'data');
const otherDir = path.join(root, 'other');
const liveBackup = path.join(root, 'live.tar.gz');
const stoppedBackup = path.join(root, 'stopped.tar.gz');
let running: Running | undefined;

afterAll(async () => {
  await running?.close();
  rmSync(root, { recursive: true, force: true });
});

const config = (dir = dataDir) =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    PUBLIC_URL: 'http://localhost:3000',
  });

function cli(script: 'db:backup' | 'db:restore', file: string, dir = dataDir): Promise<{ code: number | null; out: string }> {
  const proc = spawn('npm', ['run', '--silent', script, '--', file], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, out })));
}

/** Every table's row count and a hash of its rows, migrations included. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const rowsOf = <T>(res: unknown) => ((res as { rows?: T[] }).rows ?? (res as T[])) as T[];
  const tables = rowsOf<{ s: string; t: string }>(
    await db.execute(sql`select schemaname as s, tablename as t from pg_tables where schemaname in ('public', 'drizzle') order by 1, 2`),
  );
  const out: Record<string, string> = {};
  for (const { s, t } of tables) {
    const [r] = rowsOf<{ n: number; h: string }>(
      await db.execute(
        sql.raw(`select count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as h from "${s}"."${t}" x`),
      ),
    );
    out[`${s}.${t}`] = `${r.n}:${r.h}`;
  }
  return out;
}

/** Every photo file under DATA_DIR/uploads with a hash of its bytes. */
function photos(dir = dataDir): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, rel: string) => {
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(folder, e.name), `${rel}${e.name}/`);
      else
        out[`${rel}${e.name}`] = createHash('sha256')
          .update(readFileSync(path.join(folder, e.name)))
          .digest('hex');
    }
  };
  walk(path.join(dir, 'uploads'), '');
  return out;
}

async function offline<T>(dir: string, use: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: dir });
  try {
    return await use(database.db);
  } finally {
    await database.close();
  }
}

describe('embedded backups', () => {
  it('backs up a running server and a stopped one, and a restore into a wiped DATA_DIR brings back every row and photo', async () => {
    running = await startServer(config());
    const demo = running.demo!;
    await jobsSettled(running.app);
    const { db } = running.database;

    // The dump must fall between two identical states (the periodic jobs may change a mixer meanwhile).
    let before: Record<string, string> = {};
    for (let attempt = 0; attempt < 3; attempt++) {
      before = await fingerprint(db);
      const res = await cli('db:backup', liveBackup);
      expect(res.code, res.out).toBe(0);
      expect(res.out).toContain(`Backed up a running Fancy server (pid ${process.pid})`);
      if (JSON.stringify(await fingerprint(db)) === JSON.stringify(before)) break;
    }
    const photosBefore = photos();
    expect(Object.keys(photosBefore).length).toBeGreaterThanOrEqual(20);
    expect(Number(before['public.user'].split(':')[0])).toBeGreaterThanOrEqual(10);
    const secret = readFileSync(path.join(dataDir, 'auth-secret'), 'utf8');
    const pushKeys = readFileSync(path.join(dataDir, 'vapid-keys.json'), 'utf8');
    expect(statSync(liveBackup).mode & 0o077).toBe(0);

    // One process at a time: neither a second server nor a restore may open the folder now.
    await expect(startServer(config())).rejects.toThrow(/in use by a running Fancy server/);
    const refused = await cli('db:restore', liveBackup);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('Stop it first');

    // Changes after the backup: a member and their photos go.
    const [gone] = await db.select({ id: user.id }).from(user).where(eq(user.email, demo.accounts[0]));
    await db.delete(user).where(eq(user.id, gone.id));
    await running.app.deps.storage.removeFolder(gone.id);
    const after = await fingerprint(db);
    await running.close();
    running = undefined;

    // With the server stopped, the CLI opens the database itself.
    const stopped = await cli('db:backup', stoppedBackup);
    expect(stopped.code, stopped.out).toBe(0);
    expect(stopped.out).toContain('Backed up the stopped database');

    // Wipe everything, then restore the live backup.
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir);
    const restored = await cli('db:restore', liveBackup);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/Restored \d+ account\(s\) and \d+ photo file\(s\)/);
    expect(await offline(dataDir, fingerprint)).toEqual(before);
    expect(photos()).toEqual(photosBefore);
    expect(readFileSync(path.join(dataDir, 'auth-secret'), 'utf8')).toBe(secret);
    expect(readFileSync(path.join(dataDir, 'vapid-keys.json'), 'utf8')).toBe(pushKeys);

    // The stopped backup holds the later state, in a folder of its own.
    expect((await cli('db:restore', stoppedBackup, otherDir)).code).toBe(0);
    expect(await offline(otherDir, fingerprint)).toEqual(after);
    expect(Object.keys(photos(otherDir)).some((k) => k.startsWith(`${gone.id}/`))).toBe(false);

    // The restored instance runs: the removed member signs in again and sees their own picture.
    running = await startServer(config());
    const inject = running.app.inject.bind(running.app);
    const login = await inject({ method: 'POST', url: '/api/auth/login', payload: { email: demo.accounts[0], password: demo.password } });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const profile = (await inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json().profile;
    expect(profile.avatar?.key).toMatch(new RegExp(`^${gone.id}/`));
    const picture = await inject({ method: 'GET', url: profile.avatar.url, headers: { cookie } });
    expect(picture.statusCode).toBe(200);
    expect(createHash('sha256').update(picture.rawPayload).digest('hex')).toBe(photosBefore[profile.avatar.key]);
    await running.close();
    running = undefined;
  }, 240_000);

  it('refuses a damaged archive and leaves the data as it was', async () => {
    const damaged = path.join(root, 'damaged.tar.gz');
    copyFileSync(liveBackup, damaged);
    truncateSync(damaged, Math.floor(statSync(damaged).size / 2));
    const beforeRows = await offline(dataDir, fingerprint);
    const beforePhotos = photos();
    const res = await cli('db:restore', damaged);
    expect(res.code).toBe(2);
    expect(res.out).toContain('is not a readable Fancy backup');
    expect(await offline(dataDir, fingerprint)).toEqual(beforeRows);
    expect(photos()).toEqual(beforePhotos);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('.restoring') || f.startsWith('before-restore'))).toEqual([]);
  });
});
