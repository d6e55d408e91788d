/**
 * Chat fan-out (issue 15, `npm run bench`): live mixers of 8 members, every member posting a
 * line as often as the room's rules let them (every MEMBER_LINE_MS, bench/chat-load.ts), over
 * loopback (127.0.0.1 only).
 *
 * Every server runs in its own process, as in production; this process is only the members:
 * one socket each, subscribed to their mixer's room, sending their lines over that socket as
 * the app does while connected (HTTP is its fallback). Latency is
 * send → receive on each member's socket, sender included, both stamped here (one clock).
 *
 * Runs, each beside its goal:
 * - bare: a node:http + `ws` broadcaster with no auth and no database (bench/bare-ws.ts);
 * - ours on the embedded database (PGlite in DATA_DIR): p99 ≤ 100 ms, 0 lost;
 * - with BENCH_DATABASE_URL, on a throwaway PostgreSQL database: one instance (p99 ≤ 50 ms,
 *   0 lost, 0 refused), two instances on the same database with each mixer's members spread
 *   over both, so every line crosses instances through LISTEN/NOTIFY (same goal), and the scale
 *   run: 4,000 sockets at 0.1 msg/s each (p99 ≤ 100 ms, 0 lost), with the server's resident
 *   memory per open socket, and issue 33's two: 10,000 sockets with one line per 10 s per room (same
 *   goal; `… chat-fanout.ts rooms [seconds]` runs it alone) and 2,000 lines a second in rooms of 8
 *   on one instance (p99 ≤ 50 ms, 0 lost).
 * `node --import tsx bench/chat-fanout.ts ceiling` (PostgreSQL) steps the rate and the number
 * of sockets up until p99 crosses 100 ms: the machine's ceiling, written in the README.
 * Our servers run with `npm start`'s node options (its V8 flags); BENCH_SERVER_ARGS adds more,
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
 *
 * Lost: accepted lines that did not reach every member of the mixer (must be 0). Refused:
 * sends answered with an error (members keep to the chat limit and slow mode's flood rule, and
 * their lines hold nothing the guard stops, so none may be refused). Members are written to the
 * database with signed session cookies before the server starts, so setup takes seconds rather
 * than thousands of password hashes.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { type Database, type OpenOptions, openDatabase } from '../src/server/db/client';
import { loadConfig } from '../src/server/config';
import { mixerMemberships, mixers, profiles, session, user } from '../src/server/db/schema';
import { type Running, startServer } from '../src/server/main';
import { benchLine, deliveredToken, lineToken, MEMBER_LINE_MS, refusalStatus } from './chat-load';
import { freePort, START_NODE_OPTIONS, spawnUntil } from './lib';

export interface ChatFanoutOptions {
  mixers?: number;
  membersPerMixer?: number;
  seconds?: number;
  intervalMs?: number;
  /** Also run against PostgreSQL (a throwaway database on this server); or BENCH_DATABASE_URL. */
  databaseUrl?: string;
}

export interface Member {
  id: string;
  mixerId: string;
  cookie: string;
}

export interface RunResult {
  sent: number;
  accepted: number;
  rejected: Record<string, number>;
  expectedDeliveries: number;
  delivered: number;
  losses: number;
  duplicates: number;
  latenciesMs: number[];
  sendPhaseS: number;
  /** Server CPU per accepted line, ms (set by runOn). */
  cpuMsPerLine?: number;
}

const HOST = '127.0.0.1';
/** After the last send, how long to wait for answers from a server that fell behind. */
const MAX_BACKLOG_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

/** Runs the send pattern against one server; `post` returns the HTTP status. */
async function drive(
  members: Member[],
  sockets: WebSocket[],
  post: (m: Member, body: string) => Promise<number | string>,
  opts: { seconds: number; intervalMs: number; membersPerMixer: number; roomIntervalMs?: number },
): Promise<RunResult> {
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  const latencies: number[] = [];
  let duplicates = 0;
  const seen = sockets.map(() => new Set<string>());

  sockets.forEach((socket, i) => {
    socket.on('message', (raw: Buffer) => {
      const now = performance.now();
      const token = deliveredToken(raw);
      if (token === null) return;
      const t0 = sentAt.get(token);
      if (t0 === undefined) return;
      if (seen[i].has(token)) {
        duplicates++;
        return;
      }
      seen[i].add(token);
      latencies.push(now - t0);
      received.set(token, (received.get(token) ?? 0) + 1);
    });
  });

  const rejected: Record<string, number> = {};
  const accepted = new Set<string>();
  let sent = 0;
  let lineNo = 0;
  let counting = true;
  const start = performance.now() + 200;
  const inflight: Promise<void>[] = [];
  const dueTimes = sendTimes(members, opts);
  await Promise.all(
    members.map(async (m, i) => {
      for (const at of dueTimes[i]) {
        const due = start + at;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const token = lineToken(lineNo++);
        sentAt.set(token, performance.now());
        sent++;
        inflight.push(
          post(m, benchLine(token)).then(
            (status) => {
              if (!counting) return;
              if (status === 201 || status === 200) accepted.add(token);
              else rejected[status] = (rejected[status] ?? 0) + 1;
            },
            () => {
              if (counting) rejected.network = (rejected.network ?? 0) + 1;
            },
          ),
        );
      }
    }),
  );
  // A server that cannot keep up builds a queue: wait for it, but not for ever.
  const settled = await Promise.race([Promise.all(inflight).then(() => true), sleep(MAX_BACKLOG_WAIT_MS).then(() => false)]);
  counting = false;
  if (!settled) rejected.unanswered = sent - accepted.size - Object.values(rejected).reduce((a, b) => a + b, 0);
  const sendPhaseS = (performance.now() - start) / 1000;
  // Drain: give late deliveries up to 10 s.
  const expected = () => [...accepted].length * opts.membersPerMixer;
  const delivered = () => [...accepted].reduce((n, t) => n + Math.min(opts.membersPerMixer, received.get(t) ?? 0), 0);
  const drainUntil = performance.now() + 10_000;
  while (delivered() < expected() && performance.now() < drainUntil) await sleep(50);

  return {
    sent,
    accepted: accepted.size,
    rejected,
    expectedDeliveries: expected(),
    delivered: delivered(),
    losses: expected() - delivered(),
    duplicates,
    latenciesMs: latencies.sort((a, b) => a - b),
    sendPhaseS,
  };
}

/**
 * When each member sends, in ms from the start of the run. Each member on their own schedule every
 * `intervalMs`, the members spread evenly over it; or, with `roomIntervalMs`, each room one line
 * every `roomIntervalMs` with its members taking turns and the rooms spread evenly over it.
 */
export function sendTimes(
  members: Member[],
  opts: { seconds: number; intervalMs: number; roomIntervalMs?: number; membersPerMixer: number },
): number[][] {
  const end = opts.seconds * 1000;
  const every = (offset: number, interval: number) => {
    const times: number[] = [];
    for (let t = offset; t < end; t += interval) times.push(t);
    return times;
  };
  const roomInterval = opts.roomIntervalMs;
  if (!roomInterval) return members.map((_, i) => every((i / members.length) * opts.intervalMs, opts.intervalMs));
  const rooms = [...new Set(members.map((m) => m.mixerId))];
  const roomIndex = new Map(rooms.map((id, r) => [id, r]));
  const seats = new Map<string, number>();
  return members.map((m) => {
    const seat = seats.get(m.mixerId) ?? 0;
    seats.set(m.mixerId, seat + 1);
    const phase = ((roomIndex.get(m.mixerId) ?? 0) / rooms.length) * roomInterval;
    return every(phase + seat * roomInterval, roomInterval * opts.membersPerMixer);
  });
}

export function summarise(name: string, r: RunResult, goal?: { p99Ms: number; noRefusals?: boolean }) {
  const p99 = percentile(r.latenciesMs, 99);
  const refused = r.sent - r.accepted;
  const met = goal && p99 <= goal.p99Ms && r.losses === 0 && r.accepted > 0 && (!goal.noRefusals || refused === 0);
  return {
    server: name,
    goal: goal ? `p99 ≤ ${goal.p99Ms} ms, 0 lost${goal.noRefusals ? ', 0 refused' : ''}` : '(baseline)',
    pass: goal ? (met ? '✓' : '✗') : '',
    sent: r.sent,
    accepted: r.accepted,
    rejected: Object.keys(r.rejected).length ? JSON.stringify(r.rejected) : 0,
    delivered: r.delivered,
    losses: r.losses,
    duplicates: r.duplicates,
    delivered_per_s: Math.round(r.delivered / r.sendPhaseS),
    p50_ms: percentile(r.latenciesMs, 50),
    p95_ms: percentile(r.latenciesMs, 95),
    p99_ms: p99,
    max_ms: percentile(r.latenciesMs, 100),
    server_cpu_ms_per_line: r.cpuMsPerLine,
  };
}

export function openSockets(urls: { url: string; headers?: Record<string, string>; room: string }[]): Promise<WebSocket[]> {
  // Connect in batches so the handshake storm stays modest.
  return (async () => {
    const sockets: WebSocket[] = [];
    for (let i = 0; i < urls.length; i += 50) {
      const batch = urls.slice(i, i + 50).map(
        ({ url, headers, room }) =>
          new Promise<WebSocket>((resolve, reject) => {
            // The server's frames are its own JSON; checking their UTF-8 again is load-generator CPU.
            const ws = new WebSocket(url, { headers, skipUTF8Validation: true });
            const timer = setTimeout(() => reject(new Error(`subscribe to ${room} timed out`)), 20_000);
            ws.on('error', reject);
            const setUp = (raw: Buffer) => {
              const text = raw.toString();
              if (text.includes('"ready"')) ws.send(JSON.stringify({ type: 'subscribe', room }));
              if (text.includes('"subscribed"')) {
                clearTimeout(timer);
                ws.off('message', setUp);
                resolve(ws);
              }
              if (text.includes('"error"')) reject(new Error(`refused: ${text}`));
            };
            ws.on('message', setUp);
          }),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    return sockets;
  })();
}

const SENT = Buffer.from('{"type":"sent"');
const SEND_FAILED = Buffer.from('{"type":"send-failed"');
const startsWith = (raw: Buffer, prefix: Buffer) => raw.subarray(0, prefix.length).equals(prefix);

/**
 * Sends each member's lines over their own socket, as the app does while it is connected:
 * resolves with 201 on `sent`, or the HTTP status the refusal's code stands for.
 */
function socketSender(members: Member[], sockets: WebSocket[]): (m: Member, body: string) => Promise<number | string> {
  const byMember = new Map(members.map((m, i) => [m, sockets[i]]));
  const pending = new Map<string, (status: number | string) => void>();
  for (const socket of sockets) {
    socket.on('message', (raw: Buffer) => {
      if (!startsWith(raw, SENT) && !startsWith(raw, SEND_FAILED)) return;
      const answer = JSON.parse(raw.toString()) as { type: string; ref: string; code?: string };
      pending.get(answer.ref)?.(answer.type === 'sent' ? 201 : refusalStatus(answer.code));
      pending.delete(answer.ref);
    });
  }
  let refs = 0;
  return (m, body) =>
    new Promise<number | string>((resolve) => {
      const ref = `b${++refs}`;
      pending.set(ref, resolve);
      byMember.get(m)?.send(JSON.stringify({ type: 'send', room: `mixer:${m.mixerId}`, body, ref }));
    });
}

/** Earlier mixers and their lines already on file in the bench's database, as on a service in use. */
const PAST_MIXERS = 500;
const LINES_PER_PAST_MIXER = 200;

/**
 * A service in use has chat on file and statistics on its tables (autovacuum keeps them). An empty
 * `mixer_messages` that fills at 2,000 lines a second is neither: autovacuum measures it once at a
 * few dozen rows, and the server's named statements, planned from that, then read the whole table
 * for every line (decision 023): the run measures the planner's surprise, not the service.
 */
async function seedHistory(db: Database['db'], senderId: string) {
  await db.execute(sql`
    with past as (
      insert into mixers (title, topic, status, starts_at, ends_at, max_participants, icebreaker)
      select 'Bench past mixer ' || g, 'Benchmarks', 'ended', now() - interval '30 days', now() - interval '29 days', 8, 'Earlier'
        from generate_series(1, ${PAST_MIXERS}) g
      returning id
    )
    insert into mixer_messages (mixer_id, sender_id, body, created_at)
    select past.id, ${senderId}, 'An earlier line ' || n, now() - interval '30 days' + n * interval '1 second'
      from past cross join generate_series(1, ${LINES_PER_PAST_MIXER}) n`);
  await db.execute(sql`analyze`);
}

/** Members, profiles, live mixers, memberships and sessions, written before the server starts. */
export async function seed(open: OpenOptions, secret: string, nMixers: number, perMixer: number): Promise<Member[]> {
  const database = await openDatabase(open);
  const { db } = database;
  const now = Date.now();
  const mixerRows = await db
    .insert(mixers)
    .values(
      Array.from({ length: nMixers }, (_, i) => ({
        title: `Bench mixer ${i + 1}`,
        topic: 'Benchmarks',
        status: 'live',
        startsAt: new Date(now - 5 * 60_000),
        endsAt: new Date(now + 2 * 3_600_000),
        maxParticipants: perMixer,
        icebreaker: 'What is the fastest thing you own?',
      })),
    )
    .returning({ id: mixers.id });
  const members: Member[] = [];
  const run = randomBytes(4).toString('hex');
  const users = [];
  const sessions = [];
  for (let i = 0; i < nMixers * perMixer; i++) {
    const id = randomBytes(16).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const signature = createHmac('sha256', secret).update(token).digest('base64');
    members.push({
      id,
      mixerId: mixerRows[Math.floor(i / perMixer)].id,
      cookie: `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
    });
    users.push({
      id,
      name: `Bench Member ${i + 1}`,
      email: `bench-${run}-${i + 1}@example.test`,
      emailVerified: true,
      onboardingComplete: true,
    });
    sessions.push({ id: randomUUID(), token, userId: id, expiresAt: new Date(now + 86_400_000) });
  }
  for (let i = 0; i < users.length; i += 200) {
    await db.insert(user).values(users.slice(i, i + 200));
    await db.insert(profiles).values(users.slice(i, i + 200).map((u) => ({ id: u.id, fullName: u.name, onboardingCompleted: true })));
    await db.insert(session).values(sessions.slice(i, i + 200));
  }
  await db.insert(mixerMemberships).values(members.map((m) => ({ mixerId: m.mixerId, userId: m.id, state: 'joined' })));
  await seedHistory(db, members[0].id);
  await database.close();
  return members;
}

export interface Shape {
  mixers: number;
  perMixer: number;
  seconds: number;
  intervalMs: number;
  /** Instead of every member every `intervalMs`: one line per room every this many ms, members taking turns. */
  roomIntervalMs?: number;
  /**
   * Chat starts once the servers have finished with the sockets' arrival (sessions checked,
   * rooms joined, presence told): the steady state of many open sockets, not the connection storm.
   */
  settle?: boolean;
}

/** Waits until the servers use under a fifth of a core over a second (at most a minute). */
async function settle(cpuMs: () => number) {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const before = cpuMs();
    await sleep(1000);
    if (cpuMs() - before < 200) return;
  }
}

export interface Server {
  port: number;
  /** Resident memory of the server process, MB. */
  rssMb(): number;
  /** CPU time the server process has used so far (user + system), ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function rssMbOf(pid: number | undefined): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function spawnServer(args: string[], env: Record<string, string>, ready: string): Promise<Server> {
  const port = freePort();
  const proc = await spawnUntil(args, { PORT: String(port), ...env }, ready);
  return {
    port,
    rssMb: () => rssMbOf(proc.pid),
    cpuMs: () => cpuMsOf(proc.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** The real server (src/server/serve.ts) in its own process on the given database. */
export function startOurs(env: Record<string, string>): Promise<Server> {
  return spawnServer(
    ['--import', 'tsx', ...START_NODE_OPTIONS, ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), 'src/server/serve.ts'],
    { NODE_ENV: 'test', HOST, SEED_DEMO: 'false', LOG_LEVEL: 'error', PUBLIC_URL: 'http://localhost:3000', ...env },
    'Fancy is running',
  );
}

/**
 * Opens one socket per member (member i on server i mod n), sends every line over it, and
 * reports; with `memory`, the first server's resident memory before and after the sockets open.
 */
async function runOn(servers: Server[], members: Member[], shape: Shape, opts: { cookies: boolean }) {
  const before = servers[0].rssMb();
  const sockets = await openSockets(
    members.map((m, i) => ({
      url: `ws://${HOST}:${servers[i % servers.length].port}/api/realtime`,
      headers: opts.cookies ? { cookie: m.cookie } : undefined,
      room: `mixer:${m.mixerId}`,
    })),
  );
  const withSockets = servers[0].rssMb();
  const cpu = () => servers.reduce((sum, s) => sum + s.cpuMs(), 0);
  try {
    if (shape.settle) await settle(cpu);
    const cpuBefore = cpu();
    const result = await drive(members, sockets, socketSender(members, sockets), { ...shape, membersPerMixer: shape.perMixer });
    // CPU per accepted line, all instances together: a figure a busy machine disturbs less than latency.
    result.cpuMsPerLine = Math.round(((cpu() - cpuBefore) / Math.max(1, result.accepted)) * 100) / 100;
    return {
      result,
      memory: { before, withSockets, after: servers[0].rssMb(), socketsOnFirst: Math.ceil(members.length / servers.length) },
    };
  } finally {
    for (const s of sockets) s.terminate();
  }
}

/** A throwaway PostgreSQL database on the bench server, dropped afterwards. */
export async function withPostgres<T>(serverUrl: string, use: (url: string) => Promise<T>): Promise<T> {
  const { default: pg } = await import('pg');
  const name = `fancy_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await use(url.toString());
  } finally {
    // Closed connections take a moment to leave the server; dropping under them would
    // send "terminating connection" to clients that are just going away.
    for (let i = 0; i < 25; i++) {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (!rows[0].n) break;
      await sleep(200);
    }
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const meta = (shape: Shape, instances = 1) => ({
  sockets: shape.mixers * shape.perMixer,
  instances,
  msg_per_s: Math.round(
    shape.roomIntervalMs ? (shape.mixers * 1000) / shape.roomIntervalMs : (shape.mixers * shape.perMixer * 1000) / shape.intervalMs,
  ),
  seconds: shape.seconds,
});

/** Fresh members in their own live mixers, on a fresh server (or two) on the given database. */
async function runOurs(env: Record<string, string>, open: OpenOptions, secret: string, shape: Shape, instances = 1) {
  const members = await seed(open, secret, shape.mixers, shape.perMixer);
  const servers: Server[] = [];
  try {
    for (let i = 0; i < instances; i++) servers.push(await startOurs({ AUTH_SECRET: secret, ...env }));
    return await runOn(servers, members, shape, { cookies: true });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

export const GOALS = {
  pglite: { p99Ms: 100 },
  postgres: { p99Ms: 50, noRefusals: true },
  twoInstances: { p99Ms: 50, noRefusals: true },
  scale: { p99Ms: 100 },
} as const;

export async function benchChatFanout(options: ChatFanoutOptions = {}): Promise<Record<string, unknown>> {
  const shape: Shape = {
    // 800 sockets at the members' pace: about 380 lines a second.
    mixers: options.mixers ?? 100,
    perMixer: options.membersPerMixer ?? 8,
    seconds: options.seconds ?? 30,
    intervalMs: options.intervalMs ?? MEMBER_LINE_MS,
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-fanout-'));
  const secret = randomBytes(32).toString('base64url');
  const rows: Record<string, Record<string, unknown>> = {};
  try {
    const bare = await spawnServer(['--import', 'tsx', 'bench/bare-ws.ts'], {}, 'bare ready');
    try {
      const members = Array.from({ length: shape.mixers * shape.perMixer }, (_, i) => ({
        id: `m${i}`,
        mixerId: `bench-${Math.floor(i / shape.perMixer)}`,
        cookie: '',
      }));
      const { result } = await runOn([bare], members, shape, { cookies: false });
      rows.bare = { ...summarise('bare ws broadcast', result), ...meta(shape) };
    } finally {
      await bare.stop();
    }
    const bareP99 = Math.max(0.1, Number(rows.bare.p99_ms));
    const vsBare = (p99: unknown) => Math.round((Number(p99) / bareP99) * 10) / 10;

    const pglite = await runOurs({ DATA_DIR: dataDir }, { dataDir }, secret, shape);
    rows.ours = { ...summarise('ours (Fancy, PGlite)', pglite.result, GOALS.pglite), ...meta(shape) };
    rows.ours.p99_vs_bare = vsBare(rows.ours.p99_ms);

    const serverUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
    if (serverUrl) {
      await withPostgres(serverUrl, async (url) => {
        const env = { DATA_DIR: dataDir, DATABASE_URL: url };
        const one = await runOurs(env, { databaseUrl: url }, secret, shape);
        rows.ours_postgres = { ...summarise('ours (Fancy, PostgreSQL)', one.result, GOALS.postgres), ...meta(shape) };
        rows.ours_postgres.p99_vs_bare = vsBare(rows.ours_postgres.p99_ms);
        const two = await runOurs(env, { databaseUrl: url }, secret, shape, 2);
        rows.two_instances = {
          ...summarise('ours, 2 instances, 1 PostgreSQL', two.result, GOALS.twoInstances),
          ...meta(shape, 2),
          p99_vs_bare: vsBare(summarise('', two.result).p99_ms),
        };
        const scaleShape: Shape = { mixers: 500, perMixer: 8, seconds: shape.seconds, intervalMs: 10_100 };
        const scale = await runOurs(env, { databaseUrl: url }, secret, scaleShape);
        const perSocketKb = ((scale.memory.withSockets - scale.memory.before) * 1024) / scale.memory.socketsOnFirst;
        rows.scale = {
          ...summarise('ours, 4,000 sockets at 0.1 msg/s (PostgreSQL)', scale.result, GOALS.scale),
          ...meta(scaleShape),
          rss_mb_idle: scale.memory.before,
          rss_mb_with_sockets: scale.memory.withSockets,
          rss_mb_after: scale.memory.after,
          kb_per_socket: Math.round(perSocketKb),
        };
        rows.rooms = await roomsRow(env, url, secret, shape.seconds);
        // Issue 33's rate: 2,000 lines a second in rooms of 8 on one instance.
        const rate = rateShape(2_000, shape.seconds);
        const fast = await runOurs(env, { databaseUrl: url }, secret, rate);
        rows.rate = { ...summarise('ours, 2,000 lines/s in rooms of 8 (PostgreSQL)', fast.result, GOALS.postgres), ...meta(rate) };
      });
    }
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue 33's open-sockets row: 10,000 sockets on one instance (1,250 rooms of 8) with one line per
 * 10 s per room, on PostgreSQL; p99 ≤ 100 ms, 0 lost, and the server's resident memory.
 */
async function roomsRow(env: Record<string, string>, url: string, secret: string, seconds: number) {
  const shape: Shape = { mixers: ROOMS_SOCKETS / 8, perMixer: 8, seconds, intervalMs: 0, roomIntervalMs: 10_000, settle: true };
  const run = await runOurs(env, { databaseUrl: url }, secret, shape);
  return {
    ...summarise(`ours, ${ROOMS_SOCKETS.toLocaleString('en-GB')} sockets, 1 line per 10 s per room (PostgreSQL)`, run.result, GOALS.scale),
    ...meta(shape),
    rss_mb_idle: run.memory.before,
    rss_mb_with_sockets: run.memory.withSockets,
    rss_mb_after: run.memory.after,
    kb_per_socket: Math.round(((run.memory.withSockets - run.memory.before) * 1024) / ROOMS_SOCKETS),
  };
}
const ROOMS_SOCKETS = Number(process.env.BENCH_ROOMS_SOCKETS) || 10_000;

/**
 * Chat alone, then chat while `background` runs inside the server (issue 21: ten face checks
 * at a time in the server's own worker pool). The server runs in this process so the bench can
 * start work inside it; both rows share that set-up, so they compare with each other only.
 */
export async function chatWithAndWithout(
  background: (app: Running['app']) => () => Promise<void>,
  options: { mixers?: number; membersPerMixer?: number; seconds?: number } = {},
): Promise<{ without: ReturnType<typeof summarise>; with: ReturnType<typeof summarise> }> {
  const shape: Shape = {
    mixers: options.mixers ?? 50,
    perMixer: options.membersPerMixer ?? 8,
    seconds: options.seconds ?? 15,
    intervalMs: MEMBER_LINE_MS,
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-chat-bg-'));
  const secret = randomBytes(32).toString('base64url');
  const run = async (work?: typeof background) => {
    const members = await seed({ dataDir }, secret, shape.mixers, shape.perMixer);
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST,
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      AUTH_SECRET: secret,
    });
    const running = await startServer(config, { clientDir: path.join(dataDir, 'no-client') });
    const server: Server = {
      port: Number(new URL(running.url).port),
      rssMb: () => Number.NaN,
      cpuMs: () => Number.NaN,
      stop: () => running.close(),
    };
    const stop = work?.(running.app);
    try {
      return (await runOn([server], members, shape, { cookies: true })).result;
    } finally {
      await stop?.();
      await server.stop();
    }
  };
  try {
    const without = summarise('chat alone', await run());
    return { without, with: summarise('chat + verifications', await run(background)) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `rate` lines a second in rooms of 8: as many rooms as it needs with every member at most at their pace, at least 500. */
function rateShape(rate: number, seconds: number): Shape {
  const mixers = Math.max(500, Math.ceil((rate * MEMBER_LINE_MS) / 1000 / 8));
  return { mixers, perMixer: 8, seconds, intervalMs: Math.round((mixers * 8 * 1000) / rate), settle: true };
}

/**
 * Steps load up on one instance on PostgreSQL until p99 crosses 100 ms: first the rate (at least
 * 4,000 sockets, more where the members' pace needs them for that rate), then the number of
 * sockets at 0.1 msg/s each. Prints one row per step.
 */
async function findCeiling(serverUrl: string, seconds: number, rates = [400, 800, 1200, 1600, 2000, 2400]) {
  const secret = randomBytes(32).toString('base64url');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-ceiling-'));
  const steps: { label: string; shape: Shape }[] = [
    ...rates.map((rate) => {
      const shape = rateShape(rate, seconds);
      return { label: `${(shape.mixers * 8).toLocaleString('en-GB')} sockets, ${rate} msg/s`, shape };
    }),
    ...[8_000, 12_000, 16_000].map((n) => ({
      label: `${n.toLocaleString('en-GB')} sockets, 0.1 msg/s each`,
      shape: { mixers: n / 8, perMixer: 8, seconds, intervalMs: 10_100, settle: true },
    })),
  ];
  try {
    for (const { label, shape } of steps) {
      const row = await withPostgres(serverUrl, async (url) => {
        const run = await runOurs({ DATA_DIR: dataDir, DATABASE_URL: url }, { databaseUrl: url }, secret, shape);
        return { step: label, ...summarise(label, run.result, GOALS.scale), rss_mb_with_sockets: run.memory.withSockets };
      });
      console.table([row]);
      if (row.pass !== '✓') break;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// On its own: `node --import tsx bench/chat-fanout.ts [seconds]`, `… ceiling [seconds] [rate,rate…]`, or `… rooms [seconds]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'rooms') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('The rooms run needs BENCH_DATABASE_URL (a PostgreSQL server).');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-rooms-'));
    const secret = randomBytes(32).toString('base64url');
    try {
      const row = await withPostgres(url, (db) =>
        roomsRow({ DATA_DIR: dataDir, DATABASE_URL: db }, db, secret, Number(process.argv[3]) || 30),
      );
      console.table([row]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else if (process.argv[2] === 'ceiling') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('The ceiling run needs BENCH_DATABASE_URL (a PostgreSQL server).');
    await findCeiling(url, process.argv[3] ? Number(process.argv[3]) : 20, process.argv[4]?.split(',').map(Number));
  } else {
    const seconds = process.argv[2] ? Number(process.argv[2]) : undefined;
    console.table(Object.values(await benchChatFanout({ seconds })));
  }
}
