import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { AfterMixerView } from '../../../shared/after-mixer';
import type { MixerDetail } from '../../../shared/schemas/mixers';
import { blocks, fancies, mixerMemberships, mixers, profiles, user } from '../../db/schema';

/**
 * Decision 024: "shared a mixer" is one rule (safety/visibility `sharedMixer`) — both hold a
 * joined seat now, and neither is hidden from the other. The same fixtures go through every
 * path that depends on it: the profile card, a fancy, the fancied list, the post-mixer prompt
 * and the participant list's `canOpen`.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Member = Awaited<ReturnType<TestApp['member']>>;
const MIN = 60_000;

async function onboarded(name: string, preferences: Record<string, unknown> = {}): Promise<Member> {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1993-05-01', cityRegion: 'York', preferences })
    .where(eq(profiles.id, m.id));
  return m;
}

/** A mixer that ended a few minutes ago (so card, fancy and prompt all apply), or a live one. */
async function mixer(status: 'ended' | 'live'): Promise<string> {
  const now = Date.now();
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Shared Rule Supper Club',
      topic: 'Food',
      status,
      startsAt: new Date(now - 100 * MIN),
      endsAt: new Date(status === 'ended' ? now - 5 * MIN : now + 60 * MIN),
    })
    .returning({ id: mixers.id });
  return row.id;
}

const seat = (mixerId: string, userId: string, state: string) => t.database.db.insert(mixerMemberships).values({ mixerId, userId, state });
const get = (m: Member, url: string) => t.request({ method: 'GET', url, cookie: m.cookie });
const card = (viewer: Member, target: Member) => get(viewer, `/api/members/${target.id}`);
const fancy = (from: Member, to: Member, mixerId: string) =>
  t.request({ method: 'PUT', url: `/api/fancies/${to.id}`, cookie: from.cookie, payload: { mixerId } });

interface Case {
  name: string;
  viewerState: string;
  targetState: string;
  arrange?: (viewer: Member, target: Member) => Promise<unknown>;
  shared: boolean;
}

const CASES: Case[] = [
  { name: 'both still in it', viewerState: 'joined', targetState: 'joined', shared: true },
  { name: 'the other left', viewerState: 'joined', targetState: 'left', shared: false },
  { name: 'I left', viewerState: 'left', targetState: 'joined', shared: false },
  { name: 'the other only waited', viewerState: 'joined', targetState: 'waitlisted', shared: false },
  {
    name: 'the other blocked me',
    viewerState: 'joined',
    targetState: 'joined',
    arrange: (v, o) => t.database.db.insert(blocks).values({ blockerId: o.id, blockedId: v.id }),
    shared: false,
  },
  {
    name: 'I blocked the other',
    viewerState: 'joined',
    targetState: 'joined',
    arrange: (v, o) => t.database.db.insert(blocks).values({ blockerId: v.id, blockedId: o.id }),
    shared: false,
  },
  {
    name: 'the other is suspended',
    viewerState: 'joined',
    targetState: 'joined',
    arrange: (_v, o) => t.database.db.update(user).set({ banned: true }).where(eq(user.id, o.id)),
    shared: false,
  },
];

describe('one rule for "shared a mixer" (decision 024)', () => {
  for (const c of CASES) {
    it(`${c.name}: card, fancy, fancied list and prompt all say ${c.shared ? 'shared' : 'not shared'}`, async () => {
      const viewer = await onboarded(`Vi ${c.name}`);
      const other = await onboarded(`Oz ${c.name}`);
      // Someone both still share it with, so the prompt itself stays open for the viewer when they are in it.
      const third = await onboarded(`Tam ${c.name}`);
      const id = await mixer('ended');
      await seat(id, viewer.id, c.viewerState);
      await seat(id, other.id, c.targetState);
      await seat(id, third.id, 'joined');
      await c.arrange?.(viewer, other);

      // The profile card, both ways.
      expect((await card(viewer, other)).statusCode, 'card').toBe(c.shared ? 200 : 404);
      if (c.name !== 'the other is suspended') expect((await card(other, viewer)).statusCode, 'card back').toBe(c.shared ? 200 : 404);
      if (c.shared) expect((await card(viewer, other)).json().member.sharedMixers).toEqual([{ id, title: 'Shared Rule Supper Club' }]);

      // A fancy, both ways, and the fancied list.
      const res = await fancy(viewer, other, id);
      expect(res.statusCode, 'fancy').toBe(c.shared ? 200 : 403);
      if (c.name !== 'the other is suspended') expect((await fancy(other, viewer, id)).statusCode, 'fancy back').toBe(c.shared ? 200 : 403);
      // A fancy sent before things changed (say, before they left) no longer lists them.
      if (!c.shared) await t.database.db.insert(fancies).values({ fromUserId: viewer.id, toUserId: other.id, mixerId: id });
      const fancied = await get(viewer, `/api/fancies?mixerId=${id}`);
      if (fancied.statusCode === 200) expect(fancied.json().fancied.includes(other.id), 'fancied list').toBe(c.shared);

      // "Who did you click with?": only for a member still in it, listing whom they shared it with.
      const prompt = await get(viewer, `/api/mixers/${id}/after`);
      if (c.viewerState !== 'joined') {
        expect(prompt.statusCode, 'prompt').toBe(404);
      } else {
        expect(prompt.statusCode).toBe(200);
        const people = (prompt.json() as AfterMixerView).people.map((p) => p.id);
        expect(people.includes(other.id), 'prompt lists them').toBe(c.shared);
        expect(people).toContain(third.id);
      }
    });
  }

  it('a leaver is out of reach even when they left only after the mixer had started', async () => {
    const viewer = await onboarded('Cal Stayed');
    const leaver = await onboarded('Lou Walked Out');
    const id = await mixer('live');
    await seat(id, viewer.id, 'joined');
    await t.database.db
      .insert(mixerMemberships)
      .values({ mixerId: id, userId: leaver.id, state: 'left', leftAt: new Date(Date.now() - 30 * MIN) });
    expect((await card(viewer, leaver)).statusCode).toBe(404);
    expect((await fancy(viewer, leaver, id)).statusCode).toBe(403);
  });
});

describe('participant rows say whether their card opens (canOpen, from the same rule)', () => {
  it('for every viewer — joined, not joined, waitlisted, left — canOpen is exactly whether GET /api/members/:id answers', async () => {
    const id = await mixer('live');
    const everyone = await onboarded('Eve Everyone', { profileVisibility: 'all' });
    const sharer = await onboarded('Sam Shared-only');
    const stale = await onboarded('Stu Stale', { profileVisibility: 'all' });
    for (const m of [everyone, sharer, stale]) await seat(id, m.id, 'joined');
    // Listed (shows their profile to all) but their card does not open: the profile is no longer complete.
    await t.database.db.update(profiles).set({ onboardingCompleted: false }).where(eq(profiles.id, stale.id));

    const joined = await onboarded('Jo Joined');
    const outsider = await onboarded('Ona Outside');
    const waiting = await onboarded('Wes Waiting');
    const leaver = await onboarded('Lia Left');
    await seat(id, joined.id, 'joined');
    await seat(id, waiting.id, 'waitlisted');
    await seat(id, leaver.id, 'left');

    const seen: Record<string, Record<string, boolean>> = {};
    for (const viewer of [joined, outsider, waiting, leaver]) {
      const detail = (await get(viewer, `/api/mixers/${id}`)).json() as MixerDetail;
      seen[viewer.email] = {};
      for (const p of detail.participants) {
        const opens = (await t.request({ method: 'GET', url: `/api/members/${p.id}`, cookie: viewer.cookie })).statusCode === 200;
        expect(p.canOpen, `${viewer.email} → ${p.firstName}`).toBe(opens);
        seen[viewer.email][p.firstName] = p.canOpen;
      }
    }
    // What each of them sees: the joined member opens everyone who is complete; outsiders see the
    // members who show their profile to all, and only the complete one opens.
    expect(seen[joined.email]).toEqual({ Jo: true, Eve: true, Sam: true, Stu: false });
    for (const viewer of [outsider, waiting, leaver]) expect(seen[viewer.email]).toEqual({ Eve: true, Stu: false });
  });
});
