import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client';
import { dailyActivity, profiles, user } from '../../src/server/db/schema';
import { seedReferenceData } from '../../src/server/db/seed/reference';
import { type FormationRun, runFormation } from '../../src/server/modules/formation/job';
import { rowsOf } from '../../src/server/lib/sql';
import { dropDatabase } from '../helpers/test-db';

/**
 * The formation job on one PostgreSQL (TEST_DATABASE_URL) from two processes at the same
 * moment: exactly one mixer, no duplicate invitations. And without the advisory lock, two
 * concurrent runs still create nothing twice (the unique formation key and invitation pair).
 */
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('The pg project needs TEST_DATABASE_URL (a PostgreSQL server).');

const dbName = `fancy_formation_${Date.now()}`;
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const NOW = '2026-11-25T12:00:00.000Z';
let database: Database;

async function admin(statement: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}

async function seedMembers(count: number, availability: string[], interests: string[]) {
  const ids = Array.from({ length: count }, () => randomUUID().replace(/-/g, ''));
  await database.db
    .insert(user)
    .values(
      ids.map((id) => ({ id, name: `M ${id.slice(0, 5)}`, email: `${id}@example.com`, emailVerified: true, onboardingComplete: true })),
    );
  await database.db.insert(profiles).values(
    ids.map((id) => ({
      id,
      fullName: `M ${id.slice(0, 5)}`,
      onboardingCompleted: true,
      dob: '1993-03-03',
      cityRegion: 'Leeds',
      lookingFor: ['Friends'],
      interests,
      availability,
    })),
  );
  await database.db.insert(dailyActivity).values(ids.map((id) => ({ userId: id, day: '2026-11-24' })));
  return ids;
}

function runInProcess(goAt: number): Promise<FormationRun> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/formation-run.ts'], {
    env: { ...process.env, DATABASE_URL: dbUrl, GO_AT: String(goAt), NOW },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => (out += d.toString()));
    proc.stderr.on('data', (d) => (out += d.toString()));
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`formation process exited (${code}):\n${out}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)) as FormationRun);
    });
  });
}

const count = async (q: ReturnType<typeof sql>) => Number(rowsOf<{ n: string }>(await database.db.execute(q))[0].n);

beforeAll(async () => {
  await admin(`create database ${dbName}`);
  database = await openDatabase({ databaseUrl: dbUrl });
  await seedReferenceData(database.db);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await dropDatabase(serverUrl, dbName);
});

describe('formation on one PostgreSQL from several instances', () => {
  it('two processes running the job at the same moment create exactly one mixer and no duplicate invitations', async () => {
    await seedMembers(8, ['thu-evening'], ['Chess']);
    const goAt = Date.now() + 4000;
    const runs = await Promise.all([runInProcess(goAt), runInProcess(goAt)]);
    expect(runs.flatMap((r) => r.mixers)).toHaveLength(1);
    expect(runs.flatMap((r) => r.invitations)).toHaveLength(8);
    expect(await count(sql`select count(*) as n from mixers where origin = 'auto'`)).toBe(1);
    expect(await count(sql`select count(*) as n from mixer_invitations`)).toBe(8);
    expect(await count(sql`select count(*) - count(distinct (mixer_id, user_id)) as n from mixer_invitations`)).toBe(0);
    expect(await count(sql`select count(*) as n from audit_log where action = 'formation.mixer_created'`)).toBe(1);
  });

  it('even without the advisory lock, concurrent runs on two connections pools create nothing twice', async () => {
    await seedMembers(8, ['sat-morning'], ['Poetry']);
    const second = await openDatabase({ databaseUrl: dbUrl });
    try {
      const now = new Date(NOW);
      const runs = await Promise.all([runFormation(database.db, now, { lock: false }), runFormation(second.db, now, { lock: false })]);
      expect(runs.flatMap((r) => r.mixers)).toHaveLength(1);
      expect(runs.flatMap((r) => r.invitations)).toHaveLength(8);
    } finally {
      await second.close();
    }
    expect(await count(sql`select count(*) as n from mixers where origin = 'auto' and topic = 'Poetry'`)).toBe(1);
    expect(await count(sql`select count(*) as n from mixer_invitations`)).toBe(16);
  });
});
