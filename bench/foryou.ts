/**
 * `npm run bench` part (d), issue 13: "For you" (`GET /api/mixers?section=foryou`, where
 * /mixers opens) with a few thousand mixers and members, against a bare node:http server
 * running the same SQL on the same driver and sending the same JSON (bench/bare-db.ts), like
 * the mixers list. 3,000 mixers (a third live or this
 * week, the rest ended or later), 2,000 members, 6 seats taken in each; audiences spread over
 * regions, age bands and seat plans so eligibility really filters. One page of 12.
 */
import { AUDIENCE_REGIONS, PLAN_PRESETS } from '../src/shared/audience';
import { mixerMemberships, mixers } from '../src/server/db/schema';
import { type BenchMember, createMembers, signedInReadBench, withBenchDatabase } from './seed';

const MIXERS = 3_000;
const MEMBERS = 2_000;
const SEATED = 6;
const TAGS = ['Board games', 'Coffee', 'Hiking', 'Live music', 'Sunday roasts', 'Photography', 'Running', 'Book club', 'Climbing', 'Jazz'];
const INTENTS = ['Dating', 'Friends', 'Casual'] as const;
const HOUR = 3_600_000;

export function seedForYou(dataDir: string) {
  return withBenchDatabase(dataDir, async (database) => {
    const { db } = database;
    const [viewer] = await createMembers(database, [
      {
        name: 'Bench Viewer',
        email: 'viewer@bench.fancy.test',
        profile: {
          interests: ['Coffee', 'Book club', 'Hiking', 'Jazz'],
          lookingFor: ['Dating', 'Friends'],
          genderIdentities: ['Woman'],
          sexualOrientations: ['Bisexual'],
          cityRegion: 'Leeds',
          dob: '1994-05-17',
        },
      },
    ]);
    const people: BenchMember[] = [];
    for (let from = 0; from < MEMBERS; from += 500) {
      people.push(
        ...(await createMembers(
          database,
          Array.from({ length: Math.min(500, MEMBERS - from) }, (_, k) => {
            const i = from + k;
            return {
              name: `Bench Member ${i + 1}`,
              email: `member${i + 1}@bench.fancy.test`,
              profile: {
                avatarUrl: `bench-${i + 1}/avatar.webp`,
                cityRegion: 'Leeds',
                dob: `${1970 + (i % 35)}-0${1 + (i % 9)}-1${i % 10}`,
                genderIdentities: [i % 2 ? 'Man' : 'Woman'],
                sexualOrientations: [i % 5 === 0 ? 'Gay' : 'Straight'],
                lookingFor: [INTENTS[i % 3]],
                interests: [TAGS[i % TAGS.length], TAGS[(i + 4) % TAGS.length], TAGS[(i + 7) % TAGS.length]],
              },
            };
          }),
        )),
      );
    }
    const now = Date.now();
    const rows = Array.from({ length: MIXERS }, (_, i) => {
      const intent = INTENTS[i % 3];
      // 1 in 3 live or within the week (what For you considers); the rest ended or later.
      const phase = i % 3 === 0 ? (i % 6 === 0 ? 'live' : 'soon') : i % 3 === 1 ? 'ended' : 'later';
      const startsAt =
        phase === 'live'
          ? now - HOUR / 2
          : phase === 'soon'
            ? now + ((i % 160) + 1) * HOUR
            : phase === 'ended'
              ? now - 48 * HOUR
              : now + 20 * 24 * HOUR;
      const plan = intent === 'Dating' ? PLAN_PRESETS[i % PLAN_PRESETS.length].plan : [];
      return {
        title: `Bench For You ${i + 1}`,
        topic: TAGS[i % TAGS.length],
        description: 'An evening of easy conversation with people nearby who like the same things.',
        tags: [TAGS[i % TAGS.length], TAGS[(i + 3) % TAGS.length]],
        intent,
        status: phase === 'live' ? 'live' : phase === 'ended' ? 'ended' : 'scheduled',
        startsAt: new Date(startsAt),
        endsAt: new Date(phase === 'live' ? now + 6 * HOUR : startsAt + HOUR),
        maxParticipants: 8,
        audienceRegion: i % 4 === 0 ? null : AUDIENCE_REGIONS[i % AUDIENCE_REGIONS.length],
        ageMin: i % 2 ? 18 : 25,
        ageMax: i % 2 ? 99 : 45,
        seatPlan: plan,
      };
    });
    const created: { id: string }[] = [];
    for (let from = 0; from < rows.length; from += 500) {
      created.push(
        ...(await db
          .insert(mixers)
          .values(rows.slice(from, from + 500))
          .returning({ id: mixers.id })),
      );
    }
    const memberships = created.flatMap((m, i) =>
      Array.from({ length: SEATED }, (_, j) => ({
        mixerId: m.id,
        userId: people[(i * 7 + j) % MEMBERS].id,
        side: rows[i].seatPlan.length ? rows[i].seatPlan[j % rows[i].seatPlan.length].side : 'all',
        joinedAt: new Date(now - (j + 1) * 30_000),
      })),
    );
    for (let from = 0; from < memberships.length; from += 1000) {
      await db.insert(mixerMemberships).values(memberships.slice(from, from + 1000));
    }
    return { email: viewer.email };
  });
}

export function benchForYou(): Promise<Record<string, unknown>> {
  return signedInReadBench({
    name: 'foryou',
    seed: seedForYou,
    endpoint: `GET /api/mixers?section=foryou (12; ${MIXERS} mixers, ${MEMBERS} members)`,
    path: () => '/api/mixers?section=foryou',
    check: (status, body) => {
      const page = JSON.parse(body) as { items?: { reasons?: string[] }[]; nextCursor?: string | null };
      if (status !== 200 || page.items?.length !== 12 || !page.nextCursor || page.items.some((m) => !m.reasons?.length)) {
        throw new Error(`unexpected For you page: ${status} ${body.slice(0, 200)}`);
      }
    },
  });
}

// Run alone: `node --import tsx bench/foryou.ts`
if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchForYou());
}
