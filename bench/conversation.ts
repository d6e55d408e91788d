/**
 * `npm run bench` part (b): one page of a conversation (50 messages) from our server versus a
 * bare node:http server answering with the same bytes. Our server runs as its own process on a
 * temp DATA_DIR seeded with a matched pair and 200 messages, exactly as `npm start` would serve
 * it (session cookie checked, participant check and page in one query); autocannon drives both
 * from this process on 127.0.0.1 for a bounded time each.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from 'better-auth/crypto';
import { openDatabase } from '../src/server/db/client';
import { account, directMessages, matches, mixerMemberships, mixers, profiles, user } from '../src/server/db/schema';
import { seedReferenceData } from '../src/server/db/seed/reference';
import { freePort, load, ratio, spawnUntil } from './lib';

const SECONDS = 10;
const CONNECTIONS = 32;
const MESSAGES = 200;
const PASSWORD = 'bench-conversation-2026';

export async function seed(dataDir: string) {
  const database = await openDatabase({ dataDir });
  try {
    await seedReferenceData(database.db);
    const { db } = database;
    const hash = await hashPassword(PASSWORD);
    const people = [
      { id: randomUUID().replace(/-/g, ''), name: 'Bench Ada', email: 'ada@bench.fancy.test' },
      { id: randomUUID().replace(/-/g, ''), name: 'Bench Bo', email: 'bo@bench.fancy.test' },
    ];
    for (const p of people) {
      await db.insert(user).values({ id: p.id, name: p.name, email: p.email, emailVerified: true, onboardingComplete: true });
      await db.insert(account).values({ id: randomUUID(), accountId: p.id, providerId: 'credential', userId: p.id, password: hash });
      await db.insert(profiles).values({ id: p.id, fullName: p.name, onboardingCompleted: true });
    }
    const now = Date.now();
    const [mixer] = await db
      .insert(mixers)
      .values({ title: 'Bench Mixer', status: 'ended', startsAt: new Date(now - 7_200_000), endsAt: new Date(now - 3_600_000) })
      .returning({ id: mixers.id });
    await db.insert(mixerMemberships).values(people.map((p) => ({ mixerId: mixer.id, userId: p.id })));
    const [a, b] = people.map((p) => p.id).sort();
    const [match] = await db
      .insert(matches)
      .values({ profile1Id: a, profile2Id: b, status: 'matched', mixerId: mixer.id })
      .returning({ id: matches.id });
    await db.insert(directMessages).values(
      Array.from({ length: MESSAGES }, (_, i) => ({
        matchId: match.id,
        senderId: i % 2 ? b : a,
        recipientId: i % 2 ? a : b,
        body: `Message ${i + 1}: ${'a friendly, ordinary sentence about board games and coffee. '.repeat(1 + (i % 3))}`.trim(),
        isRead: true,
        createdAt: new Date(now - (MESSAGES - i) * 60_000),
      })),
    );
    return { matchId: match.id, email: people[0].email };
  } finally {
    await database.close();
  }
}

export async function benchConversation(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-conv-'));
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: Awaited<ReturnType<typeof spawnUntil>> | undefined;
  let bare: Awaited<ReturnType<typeof spawnUntil>> | undefined;
  try {
    const { matchId, email } = await seed(dataDir);
    server = await spawnUntil(
      ['--import', 'tsx', 'src/server/serve.ts'],
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
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`bench login failed: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .filter((c) => !c.endsWith('='))
      .join('; ');

    const route = `/api/conversations/${matchId}/messages`;
    const res = await fetch(base + route, { headers: { cookie } });
    const body = await res.text();
    const page = JSON.parse(body) as { messages: unknown[]; nextCursor: string | null };
    if (!res.ok || page.messages.length !== 50) throw new Error(`unexpected conversation page: ${res.status} ${body.slice(0, 200)}`);

    const barePort = freePort();
    bare = await spawnUntil(
      ['--import', 'tsx', 'bench/bare-server.ts'],
      {
        PORT: String(barePort),
        BARE_ROUTES: JSON.stringify({ [route]: { type: res.headers.get('content-type') ?? 'application/json', body } }),
      },
      'bare ready',
    );
    const b = await load(`http://127.0.0.1:${barePort}${route}`, { seconds: SECONDS, connections: CONNECTIONS });
    const o = await load(base + route, { seconds: SECONDS, connections: CONNECTIONS, headers: { cookie } });
    return {
      endpoint: 'GET /api/conversations/:id/messages (50 of 200)',
      response_bytes: Buffer.byteLength(body),
      ours_rps: o.reqPerSec,
      bare_rps: b.reqPerSec,
      ratio: ratio(o.reqPerSec, b.reqPerSec),
      ours_p99_ms: o.p99Ms,
      bare_p99_ms: b.p99Ms,
      errors: o.errors + o.non2xx,
      seconds_each: SECONDS,
      connections: CONNECTIONS,
    };
  } finally {
    bare?.kill('SIGTERM');
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: `node --import tsx bench/conversation.ts`
if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchConversation());
}
