import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { type MemberCard, MEMBER_MESSAGES } from '../../../shared/schemas/members';
import { utcDay } from '../../auth/session';
import { blocks, mixerMemberships, profileViews, profiles, user } from '../../db/schema';
import { createMixer, joinMixer, matchedPair, type Member, stats } from '../../../../tests/helpers/mixer-fixtures';
import { completeProfile } from '../../../../tests/helpers/profile-fixtures';

const t = setupTestApp({ restoreMocks: true });

const card = (viewer: { cookie: string }, id: string) => t.request({ method: 'GET', url: `/api/members/${id}`, cookie: viewer.cookie });
const patchSettings = (m: Member, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: '/api/settings', cookie: m.cookie, payload });

/** A verified member with a completed profile. */
async function onboarded(name: string, extra: Parameters<typeof completeProfile>[2] = {}): Promise<Member> {
  const m = await t.member(name);
  await completeProfile(t.database.db, m.id, extra);
  return m;
}

/** Two onboarded members who are both joined in one live mixer. */
async function sharedMixerPair(names: [string, string], title = 'Sunday Crossword Club') {
  const a = await onboarded(names[0]);
  const b = await onboarded(names[1]);
  const mixerId = await createMixer(t, { title });
  await joinMixer(t, mixerId, [a.id, b.id]);
  return { a, b, mixerId };
}

const expectUnavailable = (res: Awaited<ReturnType<typeof card>>, why: string) => {
  expect(res.statusCode, why).toBe(404);
  expect(res.json().error, why).toEqual({ code: 'not_found', message: MEMBER_MESSAGES.notAvailable });
};

async function viewRows(viewerId: string, viewedId: string) {
  return t.database.db
    .select()
    .from(profileViews)
    .where(and(eq(profileViews.viewerId, viewerId), eq(profileViews.viewedId, viewedId)));
}

describe('who may call GET /api/members/:id', () => {
  it('anonymous 401, unverified 403, not yet onboarded 403; admins like any member', async () => {
    const target = await onboarded('Tara Target');
    expect((await t.request({ method: 'GET', url: `/api/members/${target.id}` })).statusCode).toBe(401);
    const unverified = await t.member('Una Verified', { verified: false });
    expect((await card(unverified, target.id)).statusCode).toBe(403);
    const fresh = await t.member('Nora Newcomer');
    const res = await card(fresh, target.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(MEMBER_MESSAGES.profileIncomplete);
    // Even an unknown id: the newcomer learns nothing about who exists.
    expect((await card(fresh, 'no-such-member')).statusCode).toBe(403);

    const admin = await t.member('Ada Admin', { admin: true });
    await completeProfile(t.database.db, admin.id);
    expectUnavailable(await card(admin, target.id), 'admin without a shared mixer');
  });

  it('a malformed or unknown id is a 4xx, never a 500', async () => {
    const viewer = await onboarded('Vic Viewer');
    for (const id of ['bad%20id!', 'x'.repeat(65), '%E2%9C%93', "1'%20or%201=1"]) {
      const res = await card(viewer, id);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().error.code, id).toBe('validation');
    }
    expectUnavailable(await card(viewer, 'no-such-member'), 'unknown');
  });
});

describe('the card', () => {
  it('a member who shared a mixer sees first name, age (never the date of birth), city, interests, prompts and photos', async () => {
    const { a, b, mixerId } = await sharedMixerPair(['Vera Viewer', 'Priya Shah']);
    await t.database.db
      .update(profiles)
      .set({
        pronouns: 'she/her',
        bio: 'Crossword setter and sea swimmer.',
        interests: ['Hiking', 'Crosswords'],
        sexualOrientations: ['Bisexual'],
        cityRegion: 'Llandudno',
        avatarUrl: `${b.id}/avatar.webp`,
        photos: [`${b.id}/photos/abc.webp`, `${b.id}/photos/def.webp`],
      })
      .where(eq(profiles.id, b.id));

    const res = await card(a, b.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const member = res.json().member as MemberCard;
    expect(member).toMatchObject({
      id: b.id,
      firstName: 'Priya',
      pronouns: 'she/her',
      cityRegion: 'Llandudno',
      bio: 'Crossword setter and sea swimmer.',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Bisexual'],
      lookingFor: ['Dating'],
      interests: ['Hiking', 'Crosswords'],
      isYou: false,
      matchId: null,
      sharedMixers: [{ id: mixerId, title: 'Sunday Crossword Club' }],
    });
    expect(member.age).toBeGreaterThanOrEqual(31);
    for (const f of ['smallJoy', 'loveToTalkAbout', 'valueInRelationships', 'sharedExperience'] as const) expect(member[f]).toBeTruthy();
    // Photos only through signed URLs; nothing of the account beyond the card.
    expect(member.avatarUrl).toMatch(new RegExp(`^/api/files/${b.id}/avatar\\.webp\\?exp=\\d+&sig=`));
    expect(member.photos).toHaveLength(2);
    expect(member.photos[0].url).toMatch(new RegExp(`^/api/files/${b.id}/photos/abc\\.webp\\?exp=`));
    expect(member.photos[0].thumbUrl).toMatch(new RegExp(`^/api/files/${b.id}/photos/abc\\.thumb\\.webp\\?exp=`));
    expect(res.body).not.toContain('1994');
    expect(res.body).not.toMatch(/dob|email|Shah|preferences|profileVisibility/);
  });

  it('shared mixers: only both joined counts — not the waitlist, not someone who left', async () => {
    const a = await onboarded('Wes Waiting');
    const b = await onboarded('Lena Left');
    const c = await onboarded('Joan Joined');
    const mixerId = await createMixer(t);
    await joinMixer(t, mixerId, [c.id]);
    await joinMixer(t, mixerId, [a.id], 'waitlisted');
    await joinMixer(t, mixerId, [b.id], 'left');
    expectUnavailable(await card(a, c.id), 'waitlisted viewer');
    expectUnavailable(await card(c, a.id), 'viewing someone on the waitlist');
    expectUnavailable(await card(b, c.id), 'viewer who left');
    expectUnavailable(await card(c, b.id), 'viewing someone who left');
    await t.database.db.update(mixerMemberships).set({ state: 'joined' }).where(eq(mixerMemberships.userId, a.id));
    expect((await card(a, c.id)).statusCode).toBe(200);
    expect((await card(c, a.id)).statusCode).toBe(200);
  });

  it("'shared_mixer' keeps strangers out (404, same message) until the member chooses 'all'", async () => {
    const target = await onboarded('Sasha Selective');
    const stranger = await onboarded('Stan Stranger');
    expectUnavailable(await card(stranger, target.id), 'default visibility');
    expect((await patchSettings(target, { profileVisibility: 'all' })).statusCode).toBe(200);
    const res = await card(stranger, target.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().member).toMatchObject({ firstName: 'Sasha', sharedMixers: [], matchId: null });
    expect((await patchSettings(target, { profileVisibility: 'shared_mixer' })).statusCode).toBe(200);
    expectUnavailable(await card(stranger, target.id), 'back to shared_mixer');
  });

  it('a matched member sees the card with the conversation, even without a shared mixer any more', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Maya Matched', 'Rhys Matched']);
    for (const m of [a, b]) await completeProfile(t.database.db, m.id);
    await t.database.db.update(mixerMemberships).set({ state: 'left' }).where(eq(mixerMemberships.userId, b.id));
    const res = await card(a, b.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().member).toMatchObject({ firstName: 'Rhys', matchId, sharedMixers: [] });
    // Unmatched: the conversation is gone, and so is the way in.
    expect((await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: a.cookie })).statusCode).toBe(200);
    expectUnavailable(await card(a, b.id), 'after unmatch');
  });

  it('a block either way hides the card, whatever the visibility', async () => {
    const { a, b } = await sharedMixerPair(['Bea Blocker', 'Bo Blocked']);
    await patchSettings(a, { profileVisibility: 'all' });
    await patchSettings(b, { profileVisibility: 'all' });
    expect((await card(a, b.id)).statusCode).toBe(200);
    await t.database.db.insert(blocks).values({ blockerId: a.id, blockedId: b.id });
    expectUnavailable(await card(a, b.id), 'blocker views blocked');
    expectUnavailable(await card(b, a.id), 'blocked views blocker');
  });

  it('suspended members and members still onboarding are not shown', async () => {
    const { a, b } = await sharedMixerPair(['Olu Observer', 'Sam Suspended']);
    const c = await t.member('Ira Incomplete');
    const mixerId = await createMixer(t);
    await joinMixer(t, mixerId, [a.id, c.id]);
    expectUnavailable(await card(a, c.id), 'not onboarded');
    await t.database.db.update(user).set({ banned: true }).where(eq(user.id, b.id));
    expectUnavailable(await card(a, b.id), 'suspended');
  });

  it('"Show my city to others" off hides the city from the card (the member still sees their own)', async () => {
    const { a, b } = await sharedMixerPair(['Cleo Curious', 'Dai Discreet']);
    await completeProfile(t.database.db, b.id, { cityRegion: 'Aberystwyth' });
    expect((await card(a, b.id)).json().member.cityRegion).toBe('Aberystwyth');
    expect((await patchSettings(b, { shareCityRegion: false })).statusCode).toBe(200);
    const res = await card(a, b.id);
    expect(res.json().member.cityRegion).toBeNull();
    expect(res.body).not.toContain('Aberystwyth');
    expect((await card(b, b.id)).json().member.cityRegion).toBe('Aberystwyth');
  });
});

describe('profile views', () => {
  it('count once per viewer per day, move the Home counter and publish it once', async () => {
    const { a, b } = await sharedMixerPair(['Gwen Glance', 'Hal Viewed']);
    const c = await onboarded('Ivy Second');
    await patchSettings(b, { profileVisibility: 'all' });
    expect((await stats(t, b)).profileViews).toBe(0);
    const publish = vi.spyOn(t.app.realtime, 'publish');

    expect((await card(a, b.id)).statusCode).toBe(200);
    expect((await card(a, b.id)).statusCode).toBe(200);
    const rows = await viewRows(a.id, b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].day).toBe(utcDay());
    expect((await stats(t, b)).profileViews).toBe(1);
    const counterEvents = () =>
      publish.mock.calls
        .map(([room, e]) => [room, e] as [string, ServerEvent])
        .filter(([, e]) => e.type === 'counter' && e.key === 'profileViews');
    expect(counterEvents()).toEqual([[`user:${b.id}`, { type: 'counter', key: 'profileViews', delta: 1 }]]);

    // Another viewer is another view.
    expect((await card(c, b.id)).statusCode).toBe(200);
    expect((await stats(t, b)).profileViews).toBe(2);
    expect(counterEvents()).toHaveLength(2);

    // A new day counts again (yesterday's row is kept).
    await t.database.db
      .update(profileViews)
      .set({ day: sql`${profileViews.day} - 1` })
      .where(and(eq(profileViews.viewerId, a.id), eq(profileViews.viewedId, b.id)));
    expect((await card(a, b.id)).statusCode).toBe(200);
    expect(await viewRows(a.id, b.id)).toHaveLength(2);
    expect((await stats(t, b)).profileViews).toBe(3);
    expect(counterEvents()).toHaveLength(3);
  });

  it('your own card is shown (isYou) but never counted; a refused card is not counted either', async () => {
    const me = await onboarded('Narcissa Mirror');
    const stranger = await onboarded('Peeping Tom');
    const publish = vi.spyOn(t.app.realtime, 'publish');
    const res = await card(me, me.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().member).toMatchObject({ id: me.id, firstName: 'Narcissa', isYou: true });
    expect((await card(me, me.id)).statusCode).toBe(200);
    expectUnavailable(await card(stranger, me.id), 'private');
    expect(await viewRows(me.id, me.id)).toHaveLength(0);
    expect(await viewRows(stranger.id, me.id)).toHaveLength(0);
    expect((await stats(t, me)).profileViews).toBe(0);
    expect(publish).not.toHaveBeenCalled();
  });
});
