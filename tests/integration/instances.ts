import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { freePort } from '../helpers/ports';
import { dropDatabase } from '../helpers/test-db';
import { matches, mixerMemberships, mixers, profiles, session, user } from '../../src/server/db/schema';

/**
 * Several real server processes on one PostgreSQL (TEST_DATABASE_URL), the way production runs
 * them (docs/decisions/020): a throwaway database, members with signed session cookies written
 * directly (no password hashing), and instances started and stopped as processes.
 */
export const ORIGIN = 'http://localhost:3000';
export const SECRET = 'shared-secret-for-every-instance-0123456789';

const serverUrl = () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('The pg project needs TEST_DATABASE_URL (a PostgreSQL server).');
  return url;
};

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export async function createDatabase(prefix: string): Promise<TestDatabase> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(serverUrl());
  u.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  return {
    url: u.toString(),
    dataDir,
    async drop() {
      await dropDatabase(serverUrl(), name);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Member {
  id: string;
  cookie: string;
  mixerId: string;
  /** The match with the member's partner (members 0–1, 2–3, … share one). */
  matchId: string;
}

/** Migrates, then writes `mixerCount` live mixers of `perMixer` members, each paired in a match. */
export async function seedMembers(databaseUrl: string, mixerCount: number, perMixer: number): Promise<Member[]> {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  const now = Date.now();
  const mixerRows = await db
    .insert(mixers)
    .values(
      Array.from({ length: mixerCount }, (_, i) => ({
        title: `Failover mixer ${i + 1}`,
        status: 'live',
        startsAt: new Date(now - 5 * 60_000),
        endsAt: new Date(now + 2 * 3_600_000),
        maxParticipants: perMixer,
      })),
    )
    .returning({ id: mixers.id });
  const members: Member[] = [];
  for (let i = 0; i < mixerCount * perMixer; i++) {
    const id = randomBytes(16).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(token).digest('base64');
    const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
    members.push({ id, cookie, mixerId: mixerRows[Math.floor(i / perMixer)].id, matchId: '' });
    await db
      .insert(user)
      .values({ id, name: `Member ${i + 1}`, email: `member${i + 1}@example.test`, emailVerified: true, onboardingComplete: true });
    await db.insert(profiles).values({ id, fullName: `Member ${i + 1}`, onboardingCompleted: true });
    await db.insert(session).values({ id: randomUUID(), token, userId: id, expiresAt: new Date(now + 86_400_000) });
  }
  await db.insert(mixerMemberships).values(members.map((m) => ({ mixerId: m.mixerId, userId: m.id, state: 'joined' })));
  for (let i = 0; i + 1 < members.length; i += 2) {
    const [a, b] = [members[i], members[i + 1]];
    const [p1, p2] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
    const [row] = await db.insert(matches).values({ profile1Id: p1, profile2Id: p2, mixerId: a.mixerId }).returning({ id: matches.id });
    a.matchId = row.id;
    b.matchId = row.id;
  }
  await database.close();
  return members;
}

export interface Instance {
  url: string;
  proc: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Starts `src/server/serve.ts` (the production entry's signal handling) on a free port. */
export async function startInstance(db: TestDatabase, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/serve.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.url,
      AUTH_SECRET: SECRET,
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => (out += d.toString()));
  proc.stderr?.on('data', (d) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Fancy is running')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    void exited.then(({ code }) => {
      clearInterval(timer);
      reject(new Error(`instance exited (${code}):\n${out}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, proc, exited, output: () => out };
}

/** Stops an instance if it is still running (SIGTERM, then SIGKILL after 10 s). */
export async function stopInstance(instance: Instance): Promise<void> {
  if (instance.proc.exitCode !== null || instance.proc.signalCode !== null) return;
  instance.proc.kill('SIGTERM');
  const timer = setTimeout(() => instance.proc.kill('SIGKILL'), 10_000);
  await instance.exited;
  clearTimeout(timer);
}
