/**
 * `npm run bench` part (b): one page of a conversation (50 messages) from our server versus a
 * bare node:http server running the same SQL on the same driver and sending the same JSON
 * (bench/bare-db.ts; issue 15 goal ≥ 0.7×). Our server runs as its own process on a
 * temp DATA_DIR seeded with a matched pair and 200 messages, exactly as `npm start` would serve
 * it (session cookie checked, participant check and page in one query); autocannon drives both
 * from this process on 127.0.0.1 in alternating rounds.
 */
import { directMessages, matches, mixerMemberships, mixers } from '../src/server/db/schema';
import { createMembers, signedInReadBench, withBenchDatabase } from './seed';

const MESSAGES = 200;

export function seed(dataDir: string) {
  return withBenchDatabase(dataDir, async (database) => {
    const { db } = database;
    const people = await createMembers(database, [
      { name: 'Bench Ada', email: 'ada@bench.fancy.test' },
      { name: 'Bench Bo', email: 'bo@bench.fancy.test' },
    ]);
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
  });
}

export function benchConversation(): Promise<Record<string, unknown>> {
  return signedInReadBench({
    name: 'conv',
    seed,
    endpoint: 'GET /api/conversations/:id/messages (50 of 200)',
    path: ({ matchId }) => `/api/conversations/${matchId}/messages`,
    goal: 0.7,
    check: (status, body) => {
      const page = JSON.parse(body) as { messages?: unknown[] };
      if (status !== 200 || page.messages?.length !== 50) throw new Error(`unexpected conversation page: ${status} ${body.slice(0, 200)}`);
    },
  });
}

// Run alone: `node --import tsx bench/conversation.ts`
if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchConversation());
}
