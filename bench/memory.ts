/**
 * Issue 15 (decision 017): warm restart to listening and resident memory, embedded mode.
 *
 * Restart: `npm start`'s own entry (src/server/launch.mjs: server bundle and client build checks, then the server) on one
 * DATA_DIR with the client already built; the first start makes the data dir (migrations,
 * reference and demo data), then three more starts are timed from spawn to the "running" line.
 *
 * Memory (goals of issue 33): the resident set (VmRSS) of that server process, idle 5 s after a warm start, then
 * after each of two rounds of load: 400 sockets in 50 live mixers each posting a chat line as
 * often as the room's rules let them (MEMBER_LINE_MS, bench/chat-load.ts) for 20 s, while 16
 * connections read GET /api/mixers the whole time. Two rounds show whether memory is bounded
 * (flat) or grows with use.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { openDatabase } from '../src/server/db/client';
import { mixerMemberships, mixers, profiles, session, user } from '../src/server/db/schema';
import { benchLine, lineToken, MEMBER_LINE_MS } from './chat-load';
import { freePort, START_ARGS } from './lib';

export const RESTART_GOAL_MS = 2000;
export const IDLE_GOAL_MB = 250;
export const LOADED_GOAL_MB = 400;
/** "Flat": the second round may add at most this much over the first. */
export const FLAT_MARGIN_MB = 50;

const HOST = '127.0.0.1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  proc: ChildProcess;
  port: number;
  ms: number;
  stop(): Promise<void>;
}

/** `npm start` on dataDir; resolves when it says it is running, with the time it took. */
function start(dataDir: string, secret: string): Promise<Server> {
  const port = freePort();
  const t0 = performance.now();
  const proc = spawn(process.execPath, START_ARGS, {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST,
      DATA_DIR: dataDir,
      AUTH_SECRET: secret,
      LOG_LEVEL: 'error',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onExit = (code: number | null) => reject(new Error(`server exited (${code}):\n${out}`));
    proc.stdout?.on('data', (d) => {
      out += d.toString();
      if (out.includes('Fancy is running')) {
        proc.off('exit', onExit);
        const ms = Math.round(performance.now() - t0);
        resolve({
          proc,
          port,
          ms,
          stop: () =>
            new Promise<void>((done) => {
              if (proc.exitCode !== null) return done();
              proc.once('exit', () => done());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
    proc.stderr?.on('data', (d) => (out += d.toString()));
    proc.on('exit', onExit);
  });
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

interface Member {
  mixerId: string;
  cookie: string;
}

/** Live mixers, members and signed session cookies, written before the server starts. */
async function seed(dataDir: string, secret: string, nMixers: number, perMixer: number): Promise<Member[]> {
  const database = await openDatabase({ dataDir });
  try {
    const { db } = database;
    const now = Date.now();
    const rows = await db
      .insert(mixers)
      .values(
        Array.from({ length: nMixers }, (_, i) => ({
          title: `Memory mixer ${i + 1}`,
          topic: 'Benchmarks',
          status: 'live' as const,
          startsAt: new Date(now - 5 * 60_000),
          endsAt: new Date(now + 6 * 3_600_000),
          maxParticipants: perMixer,
          icebreaker: 'What would you never forget?',
        })),
      )
      .returning({ id: mixers.id });
    const members: Member[] = [];
    const users: (typeof user.$inferInsert)[] = [];
    const sessions = [];
    for (let i = 0; i < nMixers * perMixer; i++) {
      const id = randomBytes(16).toString('hex');
      const token = randomBytes(24).toString('base64url');
      const signature = createHmac('sha256', secret).update(token).digest('base64');
      members.push({
        mixerId: rows[Math.floor(i / perMixer)].id,
        cookie: `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
      });
      users.push({
        id,
        name: `Memory Member ${i + 1}`,
        email: `memory${i + 1}@example.test`,
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
    await db
      .insert(mixerMemberships)
      .values(members.map((m, i) => ({ mixerId: m.mixerId, userId: users[i].id, state: 'joined' as const })));
    return members;
  } finally {
    await database.close();
  }
}

async function openSocket(port: number, m: Member): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${HOST}:${port}/api/realtime`, { headers: { cookie: m.cookie } });
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (text.includes('"ready"')) ws.send(JSON.stringify({ type: 'subscribe', room: `mixer:${m.mixerId}` }));
      if (text.includes('"subscribed"')) resolve(ws);
      if (text.includes('"error"')) reject(new Error(`refused: ${text}`));
    });
  });
}

function post(agent: http.Agent, port: number, m: Member, body: string): Promise<number> {
  return new Promise((resolve) => {
    const data = JSON.stringify({ body });
    const req = http.request(
      {
        host: HOST,
        port,
        path: `/api/mixers/${m.mixerId}/messages`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), cookie: m.cookie },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(data);
  });
}

/** One round of load; returns how many chat sends were accepted and how many reads were served. */
/** One signed-in GET /api/mixers, in ms. */
async function timedRead(port: number, cookie: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`http://${HOST}:${port}/api/mixers`, { headers: { cookie } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /api/mixers answered ${res.status}`);
  return Math.round((performance.now() - t0) * 10) / 10;
}

async function round(
  port: number,
  members: Member[],
  seconds: number,
): Promise<{ sends: number; accepted: number; refused: Record<number, number>; reads: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sockets: WebSocket[] = [];
  for (let i = 0; i < members.length; i += 50)
    sockets.push(...(await Promise.all(members.slice(i, i + 50).map((m) => openSocket(port, m)))));
  const reads = autocannon({
    url: `http://${HOST}:${port}/api/mixers`,
    duration: seconds,
    connections: 16,
    headers: { cookie: members[0].cookie },
  });
  let sends = 0;
  let accepted = 0;
  let lineNo = 0;
  const refused: Record<number, number> = {};
  const interval = MEMBER_LINE_MS;
  const begin = performance.now() + 100;
  await Promise.all(
    members.map(async (m, i) => {
      const offset = (i / members.length) * interval;
      for (let k = 0; k < Math.floor((seconds * 1000) / interval); k++) {
        const wait = begin + offset + k * interval - performance.now();
        if (wait > 0) await sleep(wait);
        sends++;
        const status = await post(agent, port, m, benchLine(lineToken(lineNo++)));
        if (status === 201 || status === 200) accepted++;
        else refused[status] = (refused[status] ?? 0) + 1;
      }
    }),
  );
  const result = await reads;
  for (const s of sockets) s.terminate();
  agent.destroy();
  return { sends, accepted, refused, reads: result.requests.total };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchMemoryAndRestart(opts: { seconds?: number } = {}): Promise<Record<string, Record<string, unknown>>> {
  const seconds = opts.seconds ?? 20;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-memory-'));
  const secret = randomBytes(32).toString('base64url');
  try {
    // First start: migrations, reference data and the demo community on a fresh data dir.
    const first = await start(dataDir, secret);
    await first.stop();
    const members = await seed(dataDir, secret, 50, 8);
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await start(dataDir, secret);
      warm.push(s.ms);
      await s.stop();
    }
    const server = await start(dataDir, secret);
    let idle: number;
    let firstRead: number;
    let warmRead: number;
    const after: { rss: number; sends: number; accepted: number; refused: Record<number, number>; reads: number }[] = [];
    try {
      await sleep(5000);
      idle = rssMb(server.proc.pid ?? 0);
      // The first member read after the idle spell, and the same read again (warm): a memory saving
      // that dropped caches or compiled code would show here.
      firstRead = await timedRead(server.port, members[0].cookie);
      warmRead = await timedRead(server.port, members[0].cookie);
      for (let i = 0; i < 2; i++) {
        const r = await round(server.port, members, seconds);
        await sleep(3000);
        after.push({ rss: rssMb(server.proc.pid ?? 0), ...r });
      }
    } finally {
      await server.stop();
    }
    const restart = median(warm);
    const growth = after[1].rss - after[0].rss;
    return {
      restart: {
        what: 'warm restart to listening (npm start, built client, same DATA_DIR; median of 3)',
        value: `${restart} ms`,
        runs: warm.join(' / '),
        goal: `≤ ${RESTART_GOAL_MS} ms`,
        ok: restart <= RESTART_GOAL_MS ? '✓' : '✗',
        first_start: `${first.ms} ms (fresh DATA_DIR, demo seeded)`,
      },
      idle: {
        what: 'resident memory idle (5 s after a warm start)',
        value: `${idle} MB`,
        goal: `≤ ${IDLE_GOAL_MB} MB`,
        ok: idle <= IDLE_GOAL_MB ? '✓' : '✗',
      },
      first_read: {
        what: 'GET /api/mixers, the first member read after the idle spell, then the same read again',
        value: `${firstRead} ms (then ${warmRead} ms)`,
      },
      loaded: {
        what: `resident memory after load (2 rounds: 400 sockets chatting 1 line/${MEMBER_LINE_MS / 1000} s + 16 readers of GET /api/mixers, ${seconds} s each)`,
        value: `${after[0].rss} MB → ${after[1].rss} MB`,
        runs: after
          .map((a) => {
            const refused = Object.entries(a.refused).map(([status, n]) => `${n} × ${status}`);
            return `${a.accepted}/${a.sends} sends${refused.length ? ` (refused: ${refused.join(', ')})` : ''}, ${a.reads} reads`;
          })
          .join('; '),
        goal: `≤ ${LOADED_GOAL_MB} MB, second round ≤ +${FLAT_MARGIN_MB} MB`,
        ok: Math.max(after[0].rss, after[1].rss) <= LOADED_GOAL_MB && growth <= FLAT_MARGIN_MB ? '✓' : '✗',
      },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run on its own: `node --import tsx bench/memory.ts [seconds]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchMemoryAndRestart({ seconds: process.argv[2] ? Number(process.argv[2]) : undefined }));
}
