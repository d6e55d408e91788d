/**
 * "Chat with typing and reactions" (issue 29, `npm run bench`): 400 sockets in 50 live mixers of
 * 8, one line per second per room (each member every 8 s, spread over the second), a third of
 * the members typing (one `typing` event per 3 s each, as the composer throttles it), and a
 * reaction per 5 lines. Goals: send → receive p99 of the lines ≤ 100 ms embedded and ≤ 50 ms on
 * PostgreSQL, 0 lost, 0 doubled; beside the same pattern on the bare `ws` server (bench/bare-ws.ts).
 *
 * Reactions: for every fifth accepted line another member of the room reacts to it, as the app
 * does (POST …/messages/:id/reactions with their session; live to the room as `mixer.reaction`);
 * the bare baseline relays a reaction frame to the room instead. Typing is never stored, so it
 * costs the server fan-out only.
 *
 * Run alone: `node --import tsx bench/chat-live-room.ts [seconds]` (BENCH_DATABASE_URL adds the PostgreSQL row).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import {
  type Member,
  openSockets,
  type RunResult,
  type Server,
  seed,
  spawnServer,
  startOurs,
  summarise,
  withPostgres,
} from './chat-fanout';
import { benchLine, deliveredToken, lineToken } from './chat-load';

const HOST = '127.0.0.1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Member `i` reacts to line `messageId` of their room. */
type ReactionSender = (i: number, messageId: string) => void;

export interface LiveRoomOptions {
  mixers?: number;
  membersPerMixer?: number;
  seconds?: number;
  /** One line per room this often. */
  roomLineMs?: number;
  /** A typist's `typing` events this often. */
  typingEveryMs?: number;
  /** Every n-th member types (3: a third). */
  typistEvery?: number;
  /** A reaction per this many lines. */
  linesPerReaction?: number;
  databaseUrl?: string;
}

export const GOALS = { pglite: { p99Ms: 100 }, postgres: { p99Ms: 50 } } as const;

interface Pattern {
  seconds: number;
  perMixer: number;
  roomLineMs: number;
  typingEveryMs: number;
  typistEvery: number;
  linesPerReaction: number;
}

/** Lines, typing and reactions on open sockets; lines are measured send → receive on every member's socket. */
async function drive(
  members: Member[],
  sockets: WebSocket[],
  p: Pattern,
  react: ReactionSender,
): Promise<RunResult & { typingDelivered: number; reactions: number }> {
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  const latencies: number[] = [];
  const seen = sockets.map(() => new Set<string>());
  const pending = new Map<string, (answer: { ok: boolean; id?: string; code?: string }) => void>();
  let duplicates = 0;
  let typingDelivered = 0;

  sockets.forEach((socket, i) => {
    socket.on('message', (raw: Buffer) => {
      const now = performance.now();
      const text = raw.toString();
      if (text.startsWith('{"type":"typing"')) {
        typingDelivered++;
        return;
      }
      if (text.startsWith('{"type":"sent"') || text.startsWith('{"type":"send-failed"')) {
        const answer = JSON.parse(text) as { type: string; ref: string; code?: string; message?: { id: string } };
        pending.get(answer.ref)?.({ ok: answer.type === 'sent', id: answer.message?.id, code: answer.code });
        pending.delete(answer.ref);
        return;
      }
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

  const memberInterval = p.roomLineMs * p.perMixer;
  const count = Math.floor((p.seconds * 1000) / memberInterval);
  const start = performance.now() + 200;
  const end = start + p.seconds * 1000;
  const accepted = new Set<string>();
  const rejected: Record<string, number> = {};
  const linesInRoom = new Map<string, number>();
  let sent = 0;
  let refs = 0;
  let lineNo = 0;
  let reactions = 0;
  const inflight: Promise<void>[] = [];

  const lines = members.map(async (m, i) => {
    const room = `mixer:${m.mixerId}`;
    // Members of a room take turns: one line per room every roomLineMs.
    const offset = (i % p.perMixer) * p.roomLineMs + (Math.floor(i / p.perMixer) / (members.length / p.perMixer)) * p.roomLineMs;
    for (let k = 0; k < count; k++) {
      const wait = start + offset + k * memberInterval - performance.now();
      if (wait > 0) await sleep(wait);
      const token = lineToken(lineNo++);
      const ref = `l${++refs}`;
      sentAt.set(token, performance.now());
      sent++;
      inflight.push(
        new Promise<void>((resolve) => {
          pending.set(ref, (answer) => {
            if (answer.ok) {
              accepted.add(token);
              const n = (linesInRoom.get(room) ?? 0) + 1;
              linesInRoom.set(room, n);
              if (answer.id && n % p.linesPerReaction === 0) {
                // Another member of the room reacts.
                const other = i - (i % p.perMixer) + ((i + 1) % p.perMixer);
                react(other, answer.id);
                reactions++;
              }
            } else rejected[answer.code ?? 'error'] = (rejected[answer.code ?? 'error'] ?? 0) + 1;
            resolve();
          });
          sockets[i].send(JSON.stringify({ type: 'send', room, body: benchLine(token), ref }));
        }),
      );
    }
  });

  const typing = members.map(async (m, i) => {
    if (i % p.typistEvery !== 0) return;
    const room = `mixer:${m.mixerId}`;
    let at = start + (i / members.length) * p.typingEveryMs;
    while (at < end) {
      const wait = at - performance.now();
      if (wait > 0) await sleep(wait);
      sockets[i].send(JSON.stringify({ type: 'typing', room, typing: true }));
      at += p.typingEveryMs;
    }
  });

  await Promise.all([...lines, ...typing]);
  await Promise.race([Promise.all(inflight), sleep(60_000)]);
  const sendPhaseS = (performance.now() - start) / 1000;
  const expected = () => accepted.size * p.perMixer;
  const delivered = () => [...accepted].reduce((n, t) => n + Math.min(p.perMixer, received.get(t) ?? 0), 0);
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
    typingDelivered,
    reactions,
  };
}

async function runOn(servers: Server[], members: Member[], p: Pattern, cookies: boolean) {
  const sockets = await openSockets(
    members.map((m, i) => ({
      url: `ws://${HOST}:${servers[i % servers.length].port}/api/realtime`,
      headers: cookies ? { cookie: m.cookie } : undefined,
      room: `mixer:${m.mixerId}`,
    })),
  );
  // Ours: the app's reaction route with the member's session; the bare baseline: a frame it relays.
  let reactionsRefused = 0;
  const react: ReactionSender = cookies
    ? (i, messageId) => {
        const m = members[i];
        const base = `http://${HOST}:${servers[i % servers.length].port}`;
        void fetch(`${base}/api/mixers/${m.mixerId}/messages/${messageId}/reactions`, {
          method: 'POST',
          headers: { cookie: m.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ emoji: '❤️' }),
        })
          .then((res) => {
            if (!res.ok) reactionsRefused++;
            return res.body?.cancel();
          })
          .catch(() => {
            reactionsRefused++;
          });
      }
    : (i, messageId) => sockets[i].send(JSON.stringify({ type: 'reaction', room: `mixer:${members[i].mixerId}`, body: messageId }));
  try {
    return { ...(await drive(members, sockets, p, react)), reactionsRefused };
  } finally {
    for (const s of sockets) s.terminate();
  }
}

function row(name: string, r: Awaited<ReturnType<typeof runOn>>, goal?: { p99Ms: number }) {
  const base = summarise(name, r, goal);
  // 0 doubled is part of the goal here.
  const pass = goal ? (base.pass === '✓' && r.duplicates === 0 ? '✓' : '✗') : '';
  return {
    ...base,
    goal: goal ? `${base.goal}, 0 doubled` : base.goal,
    pass,
    typing_delivered: r.typingDelivered,
    reactions: r.reactions,
    reactions_refused: r.reactionsRefused,
  };
}

export async function benchChatLiveRoom(options: LiveRoomOptions = {}): Promise<Record<string, unknown>> {
  const nMixers = options.mixers ?? 50;
  const perMixer = options.membersPerMixer ?? 8;
  const p: Pattern = {
    seconds: options.seconds ?? 30,
    perMixer,
    roomLineMs: options.roomLineMs ?? 1000,
    typingEveryMs: options.typingEveryMs ?? 3000,
    typistEvery: options.typistEvery ?? 3,
    linesPerReaction: options.linesPerReaction ?? 5,
  };
  const meta = { sockets: nMixers * perMixer, lines_per_s: Math.round((nMixers * 1000) / p.roomLineMs), seconds: p.seconds };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-live-room-'));
  const secret = randomBytes(32).toString('base64url');
  const rows: Record<string, Record<string, unknown>> = {};
  const ours = async (env: Record<string, string>, open: Parameters<typeof seed>[0]) => {
    const members = await seed(open, secret, nMixers, perMixer);
    const server = await startOurs({ AUTH_SECRET: secret, ...env });
    try {
      return await runOn([server], members, p, true);
    } finally {
      await server.stop();
    }
  };
  try {
    const bare = await spawnServer(['--import', 'tsx', 'bench/bare-ws.ts'], {}, 'bare ready');
    try {
      const members = Array.from({ length: nMixers * perMixer }, (_, i) => ({
        id: `m${i}`,
        mixerId: `bench-${Math.floor(i / perMixer)}`,
        cookie: '',
      }));
      rows.bare = { ...row('bare ws broadcast (lines + typing + reactions)', await runOn([bare], members, p, false)), ...meta };
    } finally {
      await bare.stop();
    }
    const bareP99 = Math.max(0.1, Number(rows.bare.p99_ms));
    const vsBare = (p99: unknown) => Math.round((Number(p99) / bareP99) * 10) / 10;
    rows.ours = { ...row('ours, typing + reactions (PGlite)', await ours({ DATA_DIR: dataDir }, { dataDir }), GOALS.pglite), ...meta };
    rows.ours.p99_vs_bare = vsBare(rows.ours.p99_ms);
    const serverUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
    if (serverUrl) {
      await withPostgres(serverUrl, async (url) => {
        const r = await ours({ DATA_DIR: dataDir, DATABASE_URL: url }, { databaseUrl: url });
        rows.ours_postgres = { ...row('ours, typing + reactions (PostgreSQL)', r, GOALS.postgres), ...meta };
        rows.ours_postgres.p99_vs_bare = vsBare(rows.ours_postgres.p99_ms);
      });
    }
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = process.argv[2] ? Number(process.argv[2]) : undefined;
  console.table(Object.values(await benchChatLiveRoom({ seconds })));
}
