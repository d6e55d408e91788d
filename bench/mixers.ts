/**
 * `npm run bench` part (c), issue 6: the mixers list (`GET /api/mixers`, the "Live now" page
 * a signed-in member opens first) from our server versus a bare node:http server running the
 * same SQL on the same driver and sending the same JSON (bench/bare-db.ts; issue 15 goal
 * ≥ 0.7×). 20 live mixers of 8 members each (the viewer in 5, avatars on every face,
 * tags and intents that partly match the viewer's profile), 41 members; one page of 12.
 */
import { mixerMemberships, mixers } from '../src/server/db/schema';
import { createMembers, signedInReadBench, withBenchDatabase } from './seed';

const MIXERS = 20;
const MEMBERS_PER_MIXER = 8;
const POOL = 40;
const TAGS = ['Board games', 'Coffee', 'Hiking', 'Live music', 'Cooking', 'Photography', 'Running', 'Books'];
const INTENTS = ['Dating', 'Friends', 'Casual'] as const;

export function seedMixers(dataDir: string) {
  return withBenchDatabase(dataDir, async (database) => {
    const { db } = database;
    const [viewer] = await createMembers(database, [
      {
        name: 'Bench Viewer',
        email: 'viewer@bench.fancy.test',
        profile: { interests: ['Coffee', 'Books', 'Hiking'], lookingFor: ['Friends'], cityRegion: 'Leeds', dob: '1994-05-17' },
      },
    ]);
    const pool = await createMembers(
      database,
      Array.from({ length: POOL }, (_, i) => ({
        name: `Bench Member ${i + 1}`,
        email: `member${i + 1}@bench.fancy.test`,
        profile: { avatarUrl: `bench-${i + 1}/avatar.webp`, cityRegion: 'Leeds', dob: '1993-02-11', interests: [TAGS[i % TAGS.length]] },
      })),
    );
    const now = Date.now();
    const created = await db
      .insert(mixers)
      .values(
        Array.from({ length: MIXERS }, (_, i) => ({
          title: `Bench Mixer ${i + 1}`,
          topic: TAGS[i % TAGS.length],
          description: 'An evening of easy conversation with people nearby who like the same things.',
          tags: [TAGS[i % TAGS.length], TAGS[(i + 3) % TAGS.length]],
          intent: INTENTS[i % INTENTS.length],
          status: 'live',
          // Live for the whole run: the server's lifecycle timer leaves them alone.
          startsAt: new Date(now - (i + 1) * 60_000),
          endsAt: new Date(now + 6 * 3_600_000),
          maxParticipants: 10,
        })),
      )
      .returning({ id: mixers.id });
    const memberships = created.flatMap((m, i) => [
      ...Array.from({ length: MEMBERS_PER_MIXER }, (_, j) => ({
        mixerId: m.id,
        userId: pool[(i * 3 + j) % POOL].id,
        joinedAt: new Date(now - (j + 1) * 30_000),
      })),
      ...(i % 4 === 0 ? [{ mixerId: m.id, userId: viewer.id }] : []),
    ]);
    await db.insert(mixerMemberships).values(memberships);
    return { email: viewer.email };
  });
}

export function benchMixers(): Promise<Record<string, unknown>> {
  return signedInReadBench({
    name: 'mixers',
    seed: seedMixers,
    endpoint: `GET /api/mixers (12 of ${MIXERS} live)`,
    path: () => '/api/mixers',
    goal: 0.7,
    check: (status, body) => {
      const page = JSON.parse(body) as { items?: { preview: unknown[] }[]; nextCursor?: string | null };
      if (status !== 200 || page.items?.length !== 12 || !page.nextCursor || page.items.some((m) => m.preview.length === 0)) {
        throw new Error(`unexpected mixers page: ${status} ${body.slice(0, 200)}`);
      }
    },
  });
}

// Run alone: `node --import tsx bench/mixers.ts`
if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchMixers());
}
