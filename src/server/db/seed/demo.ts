import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { and, gt, inArray, like } from 'drizzle-orm';
import { AVAILABILITY_PRESETS, type SlotKey } from '../../../shared/availability';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { Storage } from '../../infra/storage/storage';
import { loadSharp, THUMB_EDGE_PX } from '../../modules/profiles/images';
import { newPhotoKey, thumbKey } from '../../modules/profiles/service';
import type { Database } from '../client';
import {
  account,
  dailyActivity,
  directMessages,
  fancies,
  matches,
  mixerAttendance,
  mixerMemberships,
  mixerMessages,
  mixers,
  profiles,
  user,
} from '../schema';
import {
  type Audience,
  DEFAULT_AUDIENCE,
  fittingPools,
  londonToday,
  memberFacts,
  pickSeat,
  planSeats,
  type SeatKey,
  seatPools,
} from '../../../shared/audience';
import {
  DEMO_ACCOUNT_KEYS,
  DEMO_CHAT,
  DEMO_MATCHES,
  DEMO_MEMBERS,
  DEMO_MIXERS,
  DEMO_PASSWORD,
  type DemoMember,
  type DemoMixer,
} from './demo-data';

export const DEMO_EMAIL_DOMAIN = '@demo.fancy.test';

/** A round-ish portrait card with initials, generated locally (no downloads). */
function avatarSvg(m: DemoMember): string {
  const initials = m.fullName
    .split(/\s+/)
    .map((p) => p[0])
    .slice(0, 2)
    .join('')
    .toUpperCase();
  const h = m.avatarHue;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h},70%,62%)"/><stop offset="1" stop-color="hsl(${(h + 40) % 360},65%,42%)"/></linearGradient></defs>
<rect width="512" height="512" fill="url(#g)"/>
<circle cx="256" cy="210" r="92" fill="hsla(0,0%,100%,0.22)"/>
<path d="M96 470c20-96 88-150 160-150s140 54 160 150z" fill="hsla(0,0%,100%,0.22)"/>
<text x="256" y="236" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="84" font-weight="700" fill="#fff">${initials}</text>
</svg>`;
}

/**
 * Embedded mode's demo data (issue: foundation): members with complete profiles and avatars,
 * mixers around now with memberships and chat. Runs once: skipped when demo members exist.
 */
export async function seedDemoData({ database, storage }: { database: Database; storage: Storage }) {
  const { db } = database;
  const accounts = DEMO_ACCOUNT_KEYS.map((k) => DEMO_MEMBERS.find((m) => m.key === k)?.email ?? k);
  const existing = await db
    .select({ id: user.id })
    .from(user)
    .where(like(user.email, `%${DEMO_EMAIL_DOMAIN}`))
    .limit(1);
  if (existing.length) {
    await refreshDemoMixers(database);
    return { accounts, password: DEMO_PASSWORD, seeded: false };
  }

  const hash = await hashPassword(DEMO_PASSWORD);
  const sharp = await loadSharp();
  const now = Date.now();
  const ids = new Map<string, string>();

  for (const [index, m] of DEMO_MEMBERS.entries()) {
    const id = randomUUID().replace(/-/g, '');
    ids.set(m.key, id);
    const avatarKey = newPhotoKey(id);
    const avatar = sharp(Buffer.from(avatarSvg(m)));
    await storage.put(avatarKey, await avatar.clone().webp({ quality: 82 }).toBuffer(), 'image/webp');
    // The thumbnail uploads get (account menu, lists), so demo members look like real ones.
    await storage.put(
      thumbKey(avatarKey),
      await avatar.resize({ width: THUMB_EDGE_PX, height: THUMB_EDGE_PX }).webp({ quality: 80 }).toBuffer(),
      'image/webp',
    );
    await db.insert(user).values({ id, name: m.fullName, email: m.email, emailVerified: true, onboardingComplete: true });
    await db.insert(account).values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash });
    await db.insert(profiles).values({
      id,
      fullName: m.fullName,
      pronouns: m.pronouns,
      bio: m.bio,
      avatarUrl: avatarKey,
      dob: m.dob,
      genderIdentities: m.genderIdentities,
      sexualOrientations: m.sexualOrientations,
      lookingFor: m.lookingFor,
      interests: m.interests,
      smallJoy: m.smallJoy,
      loveToTalkAbout: m.loveToTalkAbout,
      valueInRelationships: m.valueInRelationships,
      sharedExperience: m.sharedExperience,
      cityRegion: m.city,
      countryCode: m.city ? 'GB' : null,
      tz: 'Europe/London',
      shareCityRegion: m.shareCity,
      locationSource: m.city ? 'manual' : 'unknown',
      locationLastConfirmedAt: m.city ? new Date(now) : null,
      onboardingCompleted: true,
      onboardingStep: 10,
      ...demoAvailability(index, m),
    });
  }

  const mixerIds = await seedDemoMixers(database, ids, now);
  await seedDemoMatches(database, ids, mixerIds, now);
  await seedDemoAttendance(database, ids, mixerIds, now);
  await seedDemoActivity(database, ids, now);
  return { accounts, password: DEMO_PASSWORD, seeded: true };
}

/**
 * Demo matches (issue 6): both fancies, the match (pair stored ordered) and its direct
 * messages, everything read except the lines marked unread.
 */
export async function seedDemoMatches(
  { db }: Pick<Database, 'db'>,
  ids: ReadonlyMap<string, string>,
  mixerIds: ReadonlyMap<string, string>,
  now = Date.now(),
) {
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
  for (const m of DEMO_MATCHES) {
    const a = ids.get(m.a);
    const b = ids.get(m.b);
    if (!a || !b) continue;
    const mixerId = mixerIds.get(m.mixerKey) ?? null;
    await db.insert(fancies).values([
      { fromUserId: a, toUserId: b, mixerId, createdAt: at(m.minutesAgo + 3) },
      { fromUserId: b, toUserId: a, mixerId, createdAt: at(m.minutesAgo) },
    ]);
    const [p1, p2] = a < b ? [a, b] : [b, a];
    const [row] = await db
      .insert(matches)
      .values({ profile1Id: p1, profile2Id: p2, status: 'matched', mixerId, createdAt: at(m.minutesAgo) })
      .returning({ id: matches.id });
    if (!m.messages.length) continue;
    await db.insert(directMessages).values(
      m.messages.map((dm) => {
        const sender = dm.from === m.a ? a : b;
        return {
          matchId: row.id,
          senderId: sender,
          recipientId: sender === a ? b : a,
          body: dm.body,
          isRead: !dm.unread,
          createdAt: at(dm.minutesAgo),
        };
      }),
    );
  }
}

/**
 * When demo members are free and what they ask for (issue 14): a spread of the usual patterns,
 * and most of them asking for one or two of their own interests.
 */
export function demoAvailability(index: number, m: DemoMember): { availability: SlotKey[]; topicAsks: string[] } {
  const [weekdayEvenings, weekendDaytime, weekendEvenings] = AVAILABILITY_PRESETS.map((p) => p.slots);
  const patterns: readonly (readonly SlotKey[])[] = [
    weekdayEvenings,
    [...weekendDaytime, ...weekendEvenings],
    [...weekdayEvenings, ...weekendEvenings],
    ['tue-evening', 'thu-evening', 'sat-afternoon', 'sun-morning'],
    [],
  ];
  const availability = [...patterns[index % patterns.length]];
  const topicAsks = availability.length ? m.interests.slice(0, index % 3 === 0 ? 2 : 1) : [];
  return { availability, topicAsks };
}

/**
 * How the demo's ended mixers went for their members, as the lifecycle records it when a
 * mixer ends (modules/mixers/lifecycle.ts): demo members are in theirs from the start to the
 * end, so attended when they wrote a line, else no-show (decision 014).
 */
export async function seedDemoAttendance(
  { db }: Pick<Database, 'db'>,
  ids: ReadonlyMap<string, string>,
  mixerIds: ReadonlyMap<string, string>,
  now = Date.now(),
) {
  const rows = DEMO_MIXERS.filter((mx) => mx.startOffsetMinutes + mx.durationMinutes <= 0).flatMap((mx) =>
    mx.memberKeys.map((key) => ({
      mixerId: mixerIds.get(mx.key) as string,
      userId: ids.get(key) as string,
      outcome: DEMO_CHAT.some((line) => line.mixerKey === mx.key && line.memberKey === key) ? 'attended' : 'no_show',
      recordedAt: new Date(now + (mx.startOffsetMinutes + mx.durationMinutes) * 60_000),
    })),
  );
  if (rows.length) await db.insert(mixerAttendance).values(rows);
}

/**
 * Days demo members used the app in the last week (admin metrics, and the formation job, which
 * invites only members active lately): everyone today, most on a few earlier days too.
 */
export async function seedDemoActivity({ db }: Pick<Database, 'db'>, ids: ReadonlyMap<string, string>, now = Date.now()) {
  const rows = [...ids.values()].flatMap((userId, index) =>
    [0, 1, 2, 3, 4, 5, 6]
      .filter((daysAgo) => daysAgo === 0 || (index + daysAgo) % 3 !== 0)
      .map((daysAgo) => ({ userId, day: new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10) })),
  );
  await db.insert(dailyActivity).values(rows).onConflictDoNothing();
}

/** A demo mixer's audience: online and all ages unless given; a Dating mixer without a plan is open to everyone. */
export function demoAudience(mx: DemoMixer): Audience {
  const a = { ...DEFAULT_AUDIENCE, ...mx.audience };
  if (mx.intent === 'Dating' && !a.seatPlan.length) a.seatPlan = [{ side: 'everyone', seats: mx.maxParticipants }];
  return a;
}

/** The side each demo member takes, in joining order, by the same rule as a real join. */
export function demoSides(mx: DemoMixer, audience: Audience, now = Date.now()): SeatKey[] {
  const pools = seatPools(audience.seatPlan, mx.maxParticipants).map((p) => ({ ...p, joined: 0, waiting: 0 }));
  const today = londonToday(new Date(now));
  return mx.memberKeys.map((key) => {
    const m = DEMO_MEMBERS.find((x) => x.key === key) as DemoMember;
    const facts = memberFacts({ ...m, city: m.city }, today);
    const pick = pickSeat(pools, fittingPools(audience.seatPlan, facts)) ?? { key: pools[0].key, state: 'joined' };
    const pool = pools.find((p) => p.key === pick.key);
    if (pool) pool.joined += 1;
    return pick.key;
  });
}

/**
 * The demo mixers (times relative to `now`) with their memberships, icebreakers and chat.
 * From then on the mixer lifecycle (modules/mixers/lifecycle.ts) moves them along the clock.
 */
export async function seedDemoMixers(
  { db }: Pick<Database, 'db'>,
  ids: ReadonlyMap<string, string>,
  now = Date.now(),
): Promise<Map<string, string>> {
  const mixerIds = new Map<string, string>();
  for (const mx of DEMO_MIXERS) {
    const startsAt = new Date(now + mx.startOffsetMinutes * 60_000);
    const endsAt = new Date(startsAt.getTime() + mx.durationMinutes * 60_000);
    const status = endsAt.getTime() <= now ? 'ended' : startsAt.getTime() <= now ? 'live' : 'scheduled';
    const audience = demoAudience(mx);
    const sides = demoSides(mx, audience, now);
    const [row] = await db
      .insert(mixers)
      .values({
        title: mx.title,
        topic: mx.topic,
        description: mx.description,
        theme: mx.theme,
        tags: mx.tags,
        intent: mx.intent,
        status,
        startsAt,
        endsAt,
        maxParticipants: audience.seatPlan.length ? planSeats(audience.seatPlan) : mx.maxParticipants,
        icebreaker: mx.icebreaker,
        audienceRegion: audience.region,
        ageMin: audience.ageMin,
        ageMax: audience.ageMax,
        seatPlan: audience.seatPlan,
        createdAt: new Date(Math.min(now, startsAt.getTime()) - 3 * 86_400_000),
      })
      .returning({ id: mixers.id });
    mixerIds.set(mx.key, row.id);
    if (mx.memberKeys.length) {
      await db.insert(mixerMemberships).values(
        mx.memberKeys.map((k, i) => ({
          mixerId: row.id,
          userId: ids.get(k) as string,
          state: 'joined',
          side: sides[i],
          joinedAt: new Date(Math.min(now, startsAt.getTime()) - (mx.memberKeys.length - i) * 3_600_000),
        })),
      );
    }
    if (status !== 'scheduled') {
      await db
        .insert(mixerMessages)
        .values({ mixerId: row.id, senderId: null, kind: 'icebreaker', body: mx.icebreaker, createdAt: startsAt });
    }
    if (status === 'ended') {
      // What the lifecycle posts when a live mixer ends (modules/mixers/lifecycle.ts).
      await db
        .insert(mixerMessages)
        .values({ mixerId: row.id, senderId: null, kind: 'system', body: MIXER_MESSAGES.endedSystem, createdAt: endsAt });
    }
  }
  if (DEMO_CHAT.length) {
    await db.insert(mixerMessages).values(
      DEMO_CHAT.map((line) => ({
        mixerId: mixerIds.get(line.mixerKey) as string,
        senderId: ids.get(line.memberKey) as string,
        kind: 'member',
        body: line.body,
        createdAt: new Date(now - line.minutesAgo * 60_000),
      })),
    );
  }
  return mixerIds;
}

/**
 * A later start of an embedded demo: once every demo mixer is over (days later), a fresh
 * round of the same mixers is scheduled around now, so the app never looks abandoned.
 */
export async function refreshDemoMixers(database: Pick<Database, 'db'>, now = Date.now()): Promise<boolean> {
  const { db } = database;
  const [upcoming] = await db
    .select({ id: mixers.id })
    .from(mixers)
    .where(and(gt(mixers.endsAt, new Date(now)), inArray(mixers.status, ['scheduled', 'live'])))
    .limit(1);
  if (upcoming) return false;
  const members = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(like(user.email, `%${DEMO_EMAIL_DOMAIN}`));
  const byEmail = new Map(members.map((m) => [m.email, m.id]));
  const ids = new Map<string, string>();
  for (const m of DEMO_MEMBERS) {
    const id = byEmail.get(m.email);
    if (id) ids.set(m.key, id);
  }
  if (ids.size !== DEMO_MEMBERS.length) return false;
  await seedDemoMixers(database, ids, now);
  return true;
}
