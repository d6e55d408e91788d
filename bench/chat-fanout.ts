/**
 * Chat fan-out (issue 6, `npm run bench` part a): 50 live mixers × 8 members (400 sockets),
 * every member posting about once a second for 30 s, over loopback (127.0.0.1 only).
 *
 * Ours: the real server (`startServer`, in-process, on a temp DATA_DIR with PGlite): each
 * message is an authenticated POST /api/mixers/:id/messages (session lookup, validation,
 * rate limit, membership check + insert in one statement) delivered to the mixer room over
 * /api/realtime. Baseline, in the same run: a bare node:http + `ws` server that receives the
 * same POSTs and broadcasts the same JSON to the same rooms, with no auth and no database.
 *
 * Reported: send→receive latency p50/p95/p99 (send = just before the POST, receive = the
 * event on each member's socket, sender included; one clock, one process), delivered
 * messages/s, losses (accepted messages that did not reach every member: must be 0) and
 * rejected sends. Members are pre-created in the database with signed session cookies,
 * so setup takes seconds rather than 400 password hashes.
 *
 * With BENCH_DATABASE_URL (a PostgreSQL server) the real server is also run in its production
 * shape — PostgreSQL plus the LISTEN/NOTIFY realtime bus — on a throwaway database.
 *
 * Pacing: the chat limit is 10 messages per 10 s per member, so exactly 1 msg/s sits on the
 * limit and ordinary scheduling jitter would trip it; members post every 1010 ms (0.99 msg/s).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { loadConfig } from '../src/server/config';
import { type OpenOptions, openDatabase } from '../src/server/db/client';
import { mixerMemberships, mixers, profiles, session, user } from '../src/server/db/schema';
import { type Running, startServer } from '../src/server/main';

export interface ChatFanoutOptions {
  mixers?: number;
  membersPerMixer?: number;
  seconds?: number;
  intervalMs?: number;
  /** Also run against PostgreSQL (a throwaway database on this server); or BENCH_DATABASE_URL. */
  databaseUrl?: string;
}

interface Member {
  id: string;
  mixerId: string;
  cookie: string;
}

interface RunResult {
  sent: number;
  accepted: number;
  rejected: Record<string, number>;
  expectedDeliveries: number;
  delivered: number;
  losses: number;
  duplicates: number;
  latenciesMs: number[];
  sendPhaseS: number;
}

const HOST = '127.0.0.1';
/** After the last send, how long to wait for answers from a server that fell behind. */
const MAX_BACKLOG_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

/** Runs the send pattern against one server; `post` returns the HTTP status. */
async function drive(
  members: Member[],
  sockets: WebSocket[],
  post: (m: Member, body: string) => Promise<number>,
  opts: { seconds: number; intervalMs: number; membersPerMixer: number },
): Promise<RunResult> {
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  const latencies: number[] = [];
  let duplicates = 0;
  const seen = sockets.map(() => new Set<string>());

  sockets.forEach((socket, i) => {
    socket.on('message', (raw) => {
      const now = performance.now();
      const text = raw.toString();
      if (!text.includes('"mixer.message"')) return;
      const event = JSON.parse(text) as { message: { body: string } };
      const token = event.message.body.split(' ')[0];
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
  let counting = true;
  const count = Math.floor((opts.seconds * 1000) / opts.intervalMs);
  const start = performance.now() + 200;
  const inflight: Promise<void>[] = [];
  await Promise.all(
    members.map(async (m, i) => {
      // Spread the members evenly over the interval, then keep each on its own schedule.
      const offset = (i / members.length) * opts.intervalMs;
      for (let k = 0; k < count; k++) {
        const due = start + offset + k * opts.intervalMs;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const token = `${i}-${k}-${randomBytes(3).toString('hex')}`;
        sentAt.set(token, performance.now());
        sent++;
        inflight.push(
          post(m, `${token} hello from member ${i}, message ${k}`).then(
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

function summarise(name: string, r: RunResult) {
  return {
    server: name,
    losses_ok: r.losses === 0,
    sent: r.sent,
    accepted: r.accepted,
    rejected: Object.keys(r.rejected).length ? JSON.stringify(r.rejected) : 0,
    delivered: r.delivered,
    losses: r.losses,
    duplicates: r.duplicates,
    delivered_per_s: Math.round(r.delivered / r.sendPhaseS),
    p50_ms: percentile(r.latenciesMs, 50),
    p95_ms: percentile(r.latenciesMs, 95),
    p99_ms: percentile(r.latenciesMs, 99),
    max_ms: percentile(r.latenciesMs, 100),
  };
}

function openSockets(urls: { url: string; headers?: Record<string, string>; room: string }[]): Promise<WebSocket[]> {
  // Connect in batches so the handshake storm stays modest.
  return (async () => {
    const sockets: WebSocket[] = [];
    for (let i = 0; i < urls.length; i += 50) {
      const batch = urls.slice(i, i + 50).map(
        ({ url, headers, room }) =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(url, { headers });
            const timer = setTimeout(() => reject(new Error(`subscribe to ${room} timed out`)), 20_000);
            ws.on('error', reject);
            ws.on('message', (raw) => {
              const text = raw.toString();
              if (text.includes('"ready"')) ws.send(JSON.stringify({ type: 'subscribe', room }));
              if (text.includes('"subscribed"')) {
                clearTimeout(timer);
                resolve(ws);
              }
              if (text.includes('"error"')) reject(new Error(`refused: ${text}`));
            });
          }),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    return sockets;
  })();
}

function httpPost(agent: http.Agent, port: number, urlPath: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        path: urlPath,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The baseline: POST /rooms/:room broadcasts the body, as a chat event, to that room's sockets. */
async function bareServer(): Promise<{ port: number; close(): Promise<void> }> {
  const rooms = new Map<string, Set<WebSocket>>();
  const server = http.createServer((req, res) => {
    const room = decodeURIComponent((req.url ?? '').replace(/^\/rooms\//, ''));
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const { body } = JSON.parse(data) as { body: string };
      const message = {
        id: randomUUID(),
        mixerId: room,
        kind: 'member',
        body,
        createdAt: new Date().toISOString(),
        sender: { id: 'x', firstName: 'X', avatarUrl: null },
      };
      const payload = JSON.stringify({ type: 'mixer.message', message });
      for (const ws of rooms.get(room) ?? []) if (ws.readyState === ws.OPEN) ws.send(payload);
      const reply = JSON.stringify(message);
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) }).end(reply);
    });
  });
  const wss = new WebSocketServer({ server, path: '/api/realtime' });
  wss.on('connection', (ws) => {
    ws.send(JSON.stringify({ type: 'ready', userId: 'x' }));
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as { type: string; room: string };
      if (msg.type !== 'subscribe') return;
      let set = rooms.get(msg.room);
      if (!set) {
        set = new Set();
        rooms.set(msg.room, set);
      }
      set.add(ws);
      ws.on('close', () => set.delete(ws));
      ws.send(JSON.stringify({ type: 'subscribed', room: msg.room }));
    });
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => r());
      }),
  };
}

/** Members, profiles, live mixers, memberships and sessions, written before the server starts. */
async function seed(open: OpenOptions, secret: string, nMixers: number, perMixer: number): Promise<Member[]> {
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
    users.push({ id, name: `Bench Member ${i + 1}`, email: `bench${i + 1}@example.test`, emailVerified: true, onboardingComplete: true });
    sessions.push({ id: randomUUID(), token, userId: id, expiresAt: new Date(now + 86_400_000) });
  }
  for (let i = 0; i < users.length; i += 200) {
    await db.insert(user).values(users.slice(i, i + 200));
    await db.insert(profiles).values(users.slice(i, i + 200).map((u) => ({ id: u.id, fullName: u.name, onboardingCompleted: true })));
    await db.insert(session).values(sessions.slice(i, i + 200));
  }
  await db.insert(mixerMemberships).values(members.map((m) => ({ mixerId: m.mixerId, userId: m.id, state: 'joined' })));
  await database.close();
  return members;
}

/** Starts the real server in-process on the given environment and drives it. */
async function runOurs(
  env: Record<string, string>,
  members: Member[],
  agent: http.Agent,
  shape: { seconds: number; intervalMs: number; membersPerMixer: number },
  /** Work started in the server's process while the chat runs (issue 21: verifications); stopped after. */
  background?: (app: Running['app']) => () => Promise<void>,
): Promise<RunResult> {
  const config = loadConfig({ NODE_ENV: 'test', HOST, PORT: '0', SEED_DEMO: 'false', LOG_LEVEL: 'silent', ...env });
  const running = await startServer(config, { clientDir: path.join(env.DATA_DIR, 'no-client') });
  try {
    const port = Number(new URL(running.url).port);
    const probe = await new Promise<number>((resolve, reject) =>
      http
        .get({ host: HOST, port, path: '/api/mixers?section=mine', headers: { cookie: members[0].cookie } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject),
    );
    if (probe !== 200) throw new Error(`bench session cookies were refused (${probe})`);
    const sockets = await openSockets(
      members.map((m) => ({ url: `ws://${HOST}:${port}/api/realtime`, headers: { cookie: m.cookie }, room: `mixer:${m.mixerId}` })),
    );
    const stop = background?.(running.app);
    try {
      return await drive(
        members,
        sockets,
        (m, body) => httpPost(agent, port, `/api/mixers/${m.mixerId}/messages`, JSON.stringify({ body }), { cookie: m.cookie }),
        shape,
      );
    } finally {
      await stop?.();
      for (const s of sockets) s.terminate();
    }
  } finally {
    await running.close();
  }
}

export async function benchChatFanout(options: ChatFanoutOptions = {}): Promise<Record<string, unknown>> {
  const nMixers = options.mixers ?? 50;
  const perMixer = options.membersPerMixer ?? 8;
  const seconds = options.seconds ?? 30;
  const intervalMs = options.intervalMs ?? 1010;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-fanout-'));
  const secret = randomBytes(32).toString('base64url');
  const shape = { seconds, intervalMs, membersPerMixer: perMixer };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  try {
    const members = await seed({ dataDir }, secret, nMixers, perMixer);

    // Baseline first: bare node:http + ws, same rooms, same JSON.
    const bare = await bareServer();
    let bareResult: RunResult;
    const bareSockets = await openSockets(
      members.map((m) => ({ url: `ws://${HOST}:${bare.port}/api/realtime`, room: `mixer:${m.mixerId}` })),
    );
    try {
      bareResult = await drive(
        members,
        bareSockets,
        (m, body) => httpPost(agent, bare.port, `/rooms/${encodeURIComponent(`mixer:${m.mixerId}`)}`, JSON.stringify({ body })),
        shape,
      );
    } finally {
      for (const s of bareSockets) s.terminate();
      await bare.close();
    }

    // Ours: the real server on the seeded DATA_DIR (embedded PGlite).
    const oursResult = await runOurs({ DATA_DIR: dataDir, AUTH_SECRET: secret }, members, agent, shape);

    // Optionally the production shape too: PostgreSQL (LISTEN/NOTIFY bus) on a throwaway database.
    let pgResult: RunResult | undefined;
    const serverUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
    if (serverUrl) {
      const { default: pg } = await import('pg');
      const name = `fancy_bench_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      try {
        const pgMembers = await seed({ databaseUrl: url.toString() }, secret, nMixers, perMixer);
        pgResult = await runOurs({ DATA_DIR: dataDir, AUTH_SECRET: secret, DATABASE_URL: url.toString() }, pgMembers, agent, shape);
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

    // One row per server (console.table-friendly); the shape is repeated on each row.
    const meta = { sockets: nMixers * perMixer, interval_ms: intervalMs, seconds };
    const baseline = { ...summarise('bare ws broadcast', bareResult), ...meta };
    const ours = {
      ...summarise('ours (Fancy, PGlite)', oursResult),
      ...meta,
      p99_vs_bare: Math.round((percentile(oursResult.latenciesMs, 99) / Math.max(0.1, baseline.p99_ms)) * 10) / 10,
    };
    const rows: Record<string, Record<string, unknown>> = { ours, bare: baseline };
    if (pgResult) {
      rows.ours_postgres = {
        ...summarise('ours (Fancy, PostgreSQL)', pgResult),
        ...meta,
        p99_vs_bare: Math.round((percentile(pgResult.latenciesMs, 99) / Math.max(0.1, baseline.p99_ms)) * 10) / 10,
      };
    }
    return rows;
  } finally {
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Chat p99 on the real server (PGlite) without and then with `background` work running in the
 * server's own process: the same members, rooms and pace both times (issue 21).
 */
export async function chatWithAndWithout(
  background: (app: Running['app']) => () => Promise<void>,
  options: { mixers?: number; membersPerMixer?: number; seconds?: number } = {},
): Promise<{ without: ReturnType<typeof summarise>; with: ReturnType<typeof summarise> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-chat-bg-'));
  const secret = randomBytes(32).toString('base64url');
  const shape = { seconds: options.seconds ?? 15, intervalMs: 1010, membersPerMixer: options.membersPerMixer ?? 8 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  try {
    const members = await seed({ dataDir }, secret, options.mixers ?? 25, shape.membersPerMixer);
    const env = { DATA_DIR: dataDir, AUTH_SECRET: secret };
    const without = summarise('chat alone', await runOurs(env, members, agent, shape));
    const withBg = summarise('chat + verifications', await runOurs(env, members, agent, shape, background));
    return { without, with: withBg };
  } finally {
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run on its own: `node --import tsx bench/chat-fanout.ts [seconds]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = process.argv[2] ? Number(process.argv[2]) : undefined;
  const result = await benchChatFanout({ seconds });
  console.log(JSON.stringify(result, null, 2));
}
