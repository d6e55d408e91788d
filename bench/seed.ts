/**
 * Shared set-up of the read benchmarks (conversation page, mixers list): members on a temp
 * DATA_DIR, the real server on it as `npm start` would run it, a signed-in session, and a
 * run of ours against a bare node:http server answering with the same bytes.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from 'better-auth/crypto';
import { type Database, openDatabase } from '../src/server/db/client';
import { account, profiles, user } from '../src/server/db/schema';
import { seedReferenceData } from '../src/server/db/seed/reference';
import { freePort, type LoadResult, load, ratio, spawnUntil } from './lib';

export const BENCH_PASSWORD = 'bench-conversation-2026';

export interface BenchMember {
  id: string;
  name: string;
  email: string;
}

/** Opens the DATA_DIR's database with reference data, runs `fill`, and closes it. */
export async function withBenchDatabase<T>(dataDir: string, fill: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    await seedReferenceData(database.db);
    return await fill(database);
  } finally {
    await database.close();
  }
}

/** Verified, onboarded members who can sign in with BENCH_PASSWORD (one password hash for all). */
export async function createMembers(
  database: Database,
  people: { name: string; email: string; profile?: Partial<typeof profiles.$inferInsert> }[],
): Promise<BenchMember[]> {
  const { db } = database;
  const hash = await hashPassword(BENCH_PASSWORD);
  const members = people.map((p) => ({ id: randomUUID().replace(/-/g, ''), name: p.name, email: p.email, profile: p.profile }));
  await db
    .insert(user)
    .values(members.map((m) => ({ id: m.id, name: m.name, email: m.email, emailVerified: true, onboardingComplete: true })));
  await db
    .insert(account)
    .values(members.map((m) => ({ id: randomUUID(), accountId: m.id, providerId: 'credential', userId: m.id, password: hash })));
  await db.insert(profiles).values(members.map((m) => ({ id: m.id, fullName: m.name, onboardingCompleted: true, ...m.profile })));
  return members.map(({ id, name, email }) => ({ id, name, email }));
}

export interface BenchServer {
  base: string;
  stop(): Promise<void>;
}

/** The real server (src/server/serve.ts) on `dataDir`, in its own process, on loopback. */
export async function startBenchServer(dataDir: string, nodeArgs: string[] = []): Promise<BenchServer> {
  const port = freePort();
  const proc = await spawnUntil(
    [...nodeArgs, '--import', 'tsx', 'src/server/serve.ts'],
    {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    'Fancy is running',
  );
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** Signs in through the API; returns the Cookie header for later requests. */
export async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`bench login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

export type ReadBenchRow = {
  endpoint: string;
  response_bytes: number;
  statements: number;
  ours_rps: number;
  bare_rps: number;
  ratio: number;
  /** The issue 15 goal for this row (ours ≥ goal × bare), when it has one, and whether it was met. */
  goal?: string;
  pass?: '✓' | '✗';
  ours_p99_ms: number;
  bare_p99_ms: number;
  errors: number;
  seconds_each: number;
  connections: number;
};

/**
 * The baseline (bench/bare-db.ts) on a copy of `dataDir`: a bare node:http server running the
 * SQL our server runs for `path`, on the same driver, sending the JSON ours sent.
 */
export async function startBareDb(dataDir: string, email: string, p: string) {
  const copy = `${dataDir}-bare`;
  cpSync(dataDir, copy, { recursive: true });
  const port = freePort();
  const proc = await spawnUntil(
    ['--import', 'tsx', 'bench/bare-db.ts'],
    { PORT: String(port), DATA_DIR: copy, BARE_PATH: p, BARE_EMAIL: email },
    'bare ready',
  );
  const info = JSON.parse(/bare ready (\{.*\})/.exec(proc.output)?.[1] ?? '{}') as { statements: number; bytes: number };
  return {
    base: `http://127.0.0.1:${port}`,
    ...info,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(copy, { recursive: true, force: true });
          resolve();
        };
        if (proc.exitCode !== null) return done();
        proc.once('exit', done);
        proc.kill('SIGTERM');
      }),
  };
}

/** Rounds of equal length: mean throughput, the worst p99, all errors. */
function combine(runs: LoadResult[]): LoadResult {
  return {
    reqPerSec: Math.round(runs.reduce((n, r) => n + r.reqPerSec, 0) / runs.length),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  };
}

/**
 * One signed-in GET from our server versus the bare baseline (same SQL, same driver, same
 * JSON), each loaded for `seconds` with autocannon; ours is checked by `check` first.
 */
export async function readAgainstBare(opts: {
  endpoint: string;
  base: string;
  bare: { base: string; statements: number };
  path: string;
  cookie: string;
  check: (status: number, body: string) => void;
  seconds: number;
  connections: number;
  goal?: number;
}): Promise<ReadBenchRow> {
  const res = await fetch(opts.base + opts.path, { headers: { cookie: opts.cookie } });
  const body = await res.text();
  opts.check(res.status, body);
  // Alternating rounds, so that load from elsewhere on a shared machine falls on both alike.
  const rounds = Math.max(1, Math.floor(opts.seconds / 3));
  const each = Math.max(1, Math.round(opts.seconds / rounds));
  // A second of warm-up each (JIT, prepared statements), not counted.
  await load(opts.bare.base + opts.path, { seconds: 1, connections: opts.connections });
  await load(opts.base + opts.path, { seconds: 1, connections: opts.connections, headers: { cookie: opts.cookie } });
  const bareRuns: LoadResult[] = [];
  const ourRuns: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    bareRuns.push(await load(opts.bare.base + opts.path, { seconds: each, connections: opts.connections }));
    ourRuns.push(await load(opts.base + opts.path, { seconds: each, connections: opts.connections, headers: { cookie: opts.cookie } }));
  }
  const b = combine(bareRuns);
  const o = combine(ourRuns);
  return {
    endpoint: opts.endpoint,
    response_bytes: Buffer.byteLength(body),
    statements: opts.bare.statements,
    ours_rps: o.reqPerSec,
    bare_rps: b.reqPerSec,
    ratio: ratio(o.reqPerSec, b.reqPerSec),
    ...(opts.goal === undefined
      ? {}
      : { goal: `≥ ${opts.goal}× bare`, pass: o.reqPerSec >= opts.goal * b.reqPerSec ? ('✓' as const) : ('✗' as const) }),
    ours_p99_ms: o.p99Ms,
    bare_p99_ms: b.p99Ms,
    errors: o.errors + o.non2xx,
    seconds_each: opts.seconds,
    connections: opts.connections,
  };
}

/**
 * The whole signed-in read bench: seeds a fresh DATA_DIR, starts the baseline on a copy of it
 * and our server on it, signs in as the seeded member and loads `path` on both (10 s, 32
 * connections each). BENCH_SECONDS shortens or lengthens the runs.
 */
export async function signedInReadBench<T extends { email: string }>(opts: {
  name: string;
  seed: (dataDir: string) => Promise<T>;
  endpoint: string;
  path: (seeded: T) => string;
  check: (status: number, body: string) => void;
  /** Throughput goal as a fraction of the baseline's (issue 15: 0.7). */
  goal?: number;
}): Promise<ReadBenchRow> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `fancy-bench-${opts.name}-`));
  let server: BenchServer | undefined;
  let bare: Awaited<ReturnType<typeof startBareDb>> | undefined;
  try {
    const seeded = await opts.seed(dataDir);
    bare = await startBareDb(dataDir, seeded.email, opts.path(seeded));
    server = await startBenchServer(dataDir, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
    const cookie = await signIn(server.base, seeded.email);
    return await readAgainstBare({
      endpoint: opts.endpoint,
      base: server.base,
      bare,
      path: opts.path(seeded),
      cookie,
      check: opts.check,
      seconds: Number(process.env.BENCH_SECONDS) || 10,
      connections: 32,
      goal: opts.goal,
    });
  } finally {
    await server?.stop();
    await bare?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
