import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { MixerPage } from '../../../shared/schemas/mixers';
import { blocks, mixerInvitations, mixerMemberships, mixers, profiles, user } from '../../db/schema';
import { forgetForYou } from './foryou-cache';
import { whenLabel } from './ranking';

/** GET /api/mixers?section=foryou: eligible mixers, ranked, with reasons, cursor-paginated. */
const t = setupTestApp();

const HOUR = 3_600_000;
let n = 0;
async function person(profile: Partial<typeof profiles.$inferInsert> = {}) {
  const name = `Ranker${++n} Test`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({
      fullName: name,
      onboardingCompleted: true,
      dob: '1994-03-10',
      cityRegion: 'Leeds',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Straight'],
      lookingFor: ['Dating', 'Friends'],
      interests: ['Climbing', 'Board games', 'Jazz', 'Baking'],
      ...profile,
    })
    .where(eq(profiles.id, m.id));
  return m;
}
async function mixer(title: string, values: Partial<typeof mixers.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title,
      topic: 'General',
      intent: 'Friends',
      status: 'scheduled',
      startsAt: new Date(Date.now() + 5 * 24 * HOUR),
      endsAt: new Date(Date.now() + 5 * 24 * HOUR + HOUR),
      maxParticipants: 8,
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}
const forYou = async (cookie: string, extra = '') => {
  const res = await t.request({ method: 'GET', url: `/api/mixers?section=foryou${extra}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as MixerPage;
};

describe('For you', () => {
  it('ranks eligible mixers by shared interests, nearness, time and seats, and says why', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`true`);
    const me = await person();
    const climber = await person({ interests: ['Climbing', 'Jazz'] });
    const bestStarts = Date.now() + 26 * HOUR;
    const best = await mixer('Crag and chords', {
      topic: 'Climbing',
      tags: ['Jazz'],
      audienceRegion: 'Yorkshire and the Humber',
      startsAt: new Date(bestStarts),
      endsAt: new Date(bestStarts + HOUR),
    });
    await t.database.db.insert(mixerMemberships).values({ mixerId: best, userId: climber.id });
    const plain = await mixer('Anything goes');
    const full = await mixer('Full up', {
      intent: 'Dating',
      seatPlan: [
        { side: 'women-into-men', seats: 1 },
        { side: 'men-into-women', seats: 1 },
      ],
      maxParticipants: 2,
      topic: 'Baking',
    });
    await t.database.db.insert(mixerMemberships).values({ mixerId: full, userId: climber.id, side: 'women-into-men' });
    const notForMe = await mixer('Not for me', { audienceRegion: 'South East', topic: 'Climbing' });
    // Another day than the rest: a mixer I hold keeps those at the same time out (next test).
    const mine = await mixer('Already mine', {
      topic: 'Climbing',
      startsAt: new Date(Date.now() + 4 * 24 * HOUR),
      endsAt: new Date(Date.now() + 4 * 24 * HOUR + HOUR),
    });
    await t.database.db.insert(mixerMemberships).values({ mixerId: mine, userId: me.id });

    // The time reason depends on the hour ("Tomorrow evening", or "Sunday morning" late on a Friday):
    // expected from the same clock as the request, just before and just after it.
    const whenBefore = whenLabel(bestStarts, Date.now());
    const page = await forYou(me.cookie);
    const whenAfter = whenLabel(bestStarts, Date.now());
    // Full up shares more interests than Anything goes, though only its waitlist is left for me.
    expect(page.items.map((i) => i.title)).toEqual(['Crag and chords', 'Full up', 'Anything goes']);
    expect(page.items.map((i) => i.id)).not.toContain(notForMe);
    const [first, second, third] = page.items;
    expect(first.reasons).toEqual(['2 shared interests', 'near you', expect.any(String), '7 seats for you']);
    expect([whenBefore, whenAfter]).toContain(first.reasons?.[2]);
    expect(second.id).toBe(full);
    expect(second.reasons).toEqual(['3 shared interests', expect.any(String), 'waitlist open']);
    expect(third.id).toBe(plain);
    expect(third.reasons).toEqual(['what you’re looking for', expect.any(String), '8 seats for you']);
  });

  it('counts no interests of members I blocked, who blocked me, or who are suspended', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`true`);
    const seated = await person({ interests: ['Jazz', 'Pottery'] });
    const id = await mixer('Quiet room');
    await t.database.db.insert(mixerMemberships).values({ mixerId: id, userId: seated.id });
    const viewer = () => person({ interests: ['Jazz', 'Pottery', 'Chess'] });
    const firstReason = async (m: { cookie: string }) => (await forYou(m.cookie)).items[0].reasons?.[0];

    expect(await firstReason(await viewer())).toBe('2 shared interests');
    const blocker = await viewer();
    await t.database.db.insert(blocks).values({ blockerId: blocker.id, blockedId: seated.id });
    expect(await firstReason(blocker)).not.toMatch(/shared interest/);
    const blockedOne = await viewer();
    await t.database.db.insert(blocks).values({ blockerId: seated.id, blockedId: blockedOne.id });
    expect(await firstReason(blockedOne)).not.toMatch(/shared interest/);
    // Hidden from everyone once suspended, like a blocked member (docs/decisions/007).
    await t.database.db.update(user).set({ banned: true }).where(eq(user.id, seated.id));
    expect(await firstReason(await viewer())).not.toMatch(/shared interest/);
  });

  it('leaves out mixers a Join would refuse for overlapping one I hold, and keeps the one held for me', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`true`);
    const me = await person();
    const at = (hours: number) => ({ startsAt: new Date(Date.now() + hours * HOUR), endsAt: new Date(Date.now() + (hours + 1) * HOUR) });
    const joined = await mixer('Joined one', at(48));
    const invited = await mixer('Held for me', at(72));
    const overJoined = await mixer('Same evening as the joined one', at(48.5));
    const overInvited = await mixer('Same evening as the held one', at(71.5));
    const free = await mixer('Another evening', at(49));
    const ids = async () => (await forYou(me.cookie)).items.map((i) => i.id);
    expect(await ids()).toEqual(expect.arrayContaining([joined, invited, overJoined, overInvited, free]));

    await t.database.db.insert(mixerMemberships).values({ mixerId: joined, userId: me.id });
    await t.database.db.insert(mixerInvitations).values({ mixerId: invited, userId: me.id, expiresAt: new Date(Date.now() + 24 * HOUR) });
    // The ranking is kept a few seconds; a join through the API forgets it, these rows did not.
    forgetForYou(me.id);
    const after = await ids();
    expect(after).toContain(invited);
    expect(after).toContain(free);
    expect(after).not.toContain(overJoined);
    expect(after).not.toContain(overInvited);
  });

  it('pages through the ranking with a cursor, each mixer once, and keeps filters', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`true`);
    const me = await person();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await mixer(`Paged ${i}`, { topic: i % 2 ? 'Jazz' : 'Chess' }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: MixerPage = await forYou(me.cookie, `&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    expect((await forYou(me.cookie, '&topic=Jazz')).items.map((i) => i.title).sort()).toEqual(['Paged 1', 'Paged 3']);
    const bad = await t.request({ method: 'GET', url: '/api/mixers?section=foryou&cursor=nonsense', cookie: me.cookie });
    expect(bad.statusCode).toBe(400);

    // Joining takes a mixer off For you at once (the member's ranking is forgotten), leaving puts it back.
    expect((await t.request({ method: 'POST', url: `/api/mixers/${ids[0]}/join`, cookie: me.cookie, payload: {} })).statusCode).toBe(200);
    expect((await forYou(me.cookie, '&limit=50')).items.map((i) => i.id)).not.toContain(ids[0]);
    expect((await t.request({ method: 'POST', url: `/api/mixers/${ids[0]}/leave`, cookie: me.cookie, payload: {} })).statusCode).toBe(200);
    expect((await forYou(me.cookie, '&limit=50')).items.map((i) => i.id)).toContain(ids[0]);
  });

  it('is empty for members who fit nothing yet, and tells members without a city why', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`true`);
    await mixer('Local only', { audienceRegion: 'Yorkshire and the Humber' });
    const page = await forYou((await person({ cityRegion: null })).cookie);
    expect(page.items).toEqual([]);
    expect(page.notice).toMatch(/Add your city/);
  });
});
