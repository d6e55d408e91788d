import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { AUDIENCE_MESSAGES, type AudiencePreview } from '../../../shared/audience';
import type { AdminMixer, Page } from '../../../shared/schemas/admin';
import { dailyActivity, mixerMemberships, profiles } from '../../db/schema';

/** Admin side of issue 13: audience fields on the mixer form, the live preview, plan and fill per side in lists. */
let t: TestApp;
let admin: { id: string; cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.member('Ada Admin', { admin: true });
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;
const futureIso = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / 60_000) * 60_000).toISOString();
const straight = [
  { side: 'women-into-men', seats: 4 },
  { side: 'men-into-women', seats: 4 },
];
const input = (over: Record<string, unknown> = {}) => ({
  title: 'Speed-friending for climbers',
  topic: 'Climbing',
  description: '',
  theme: 'forest',
  tags: [],
  intent: 'Dating',
  startsAt: futureIso(48),
  durationMinutes: 60,
  maxParticipants: 6,
  icebreaker: '',
  audience: { region: 'Yorkshire and the Humber', ageMin: 25, ageMax: 34, seatPlan: straight },
  ...over,
});
const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown, cookie = admin.cookie) =>
  t.request({ method, url, payload: payload as object, cookie });

let n = 0;
async function person(profile: Partial<typeof profiles.$inferInsert>, active = false) {
  const m = await t.member(`Previewed${++n} Person`);
  await t.database.db
    .update(profiles)
    .set({ onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Dating'], ...profile })
    .where(eq(profiles.id, m.id));
  if (active) await t.database.db.insert(dailyActivity).values({ userId: m.id, day: new Date().toISOString().slice(0, 10) });
  return m;
}

describe('admin audiences', () => {
  it('previews how many members each side reaches and how many were active lately', async () => {
    const woman = { genderIdentities: ['Woman'], sexualOrientations: ['Straight'] };
    const man = { genderIdentities: ['Man'], sexualOrientations: ['Straight'] };
    await person(woman, true);
    await person(woman);
    await person({ ...woman, cityRegion: 'Brighton' }, true);
    await person(man, true);
    await person({ ...man, dob: '1970-01-01' }, true);
    await person({ ...man, lookingFor: ['Friends'] }, true);

    const res = await call('POST', '/api/admin/mixers/audience-preview', input().audience);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      pools: [
        { key: 'women-into-men', eligible: 2, activeLately: 1 },
        { key: 'men-into-women', eligible: 1, activeLately: 1 },
      ],
      activeDays: 14,
    } satisfies AudiencePreview);

    const member = await person(woman);
    expect((await call('POST', '/api/admin/mixers/audience-preview', input().audience, member.cookie)).statusCode).toBe(403);
    const bad = await call('POST', '/api/admin/mixers/audience-preview', { ...input().audience, ageMin: 40 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(AUDIENCE_MESSAGES.ageBand);
  });

  it('saves the audience, sizes the mixer by its plan and lists plan and fill per side', async () => {
    const created = await call('POST', '/api/admin/mixers', input());
    expect(created.statusCode).toBe(201);
    const mixer = created.json() as AdminMixer;
    expect(mixer.maxParticipants).toBe(8);
    expect(mixer.audience).toEqual(input().audience);

    const w = await person({ genderIdentities: ['Woman'], sexualOrientations: ['Straight'] });
    expect((await call('POST', `/api/mixers/${mixer.id}/join`, {}, w.cookie)).statusCode).toBe(200);
    const list = (await call('GET', '/api/admin/mixers?view=active')).json() as Page<AdminMixer>;
    expect(list.items.find((i) => i.id === mixer.id)?.seats).toEqual([
      { key: 'women-into-men', seats: 4, joined: 1, held: 0, waiting: 0 },
      { key: 'men-into-women', seats: 4, joined: 0, held: 0, waiting: 0 },
    ]);
  });

  it('refuses a seat plan on a Friends mixer and opens a Dating mixer without one to everyone', async () => {
    const friends = await call('POST', '/api/admin/mixers', input({ intent: 'Friends' }));
    expect(friends.statusCode).toBe(400);
    expect(friends.json().error.message).toBe(AUDIENCE_MESSAGES.planOnlyDating);
    const open = await call('POST', '/api/admin/mixers', input({ audience: { region: null, ageMin: 18, ageMax: 99, seatPlan: [] } }));
    expect((open.json() as AdminMixer).audience.seatPlan).toEqual([{ side: 'everyone', seats: 6 }]);
    const duplicate = await call(
      'POST',
      '/api/admin/mixers',
      input({ audience: { ...input().audience, seatPlan: [straight[0], straight[0]] } }),
    );
    expect(duplicate.statusCode).toBe(400);
  });

  it('never shrinks a side below its seated members, and seats that side’s waitlist when it grows', async () => {
    const small = {
      ...input().audience,
      seatPlan: [
        { side: 'women-into-men', seats: 2 },
        { side: 'men-into-women', seats: 2 },
      ],
    };
    const mixer = (await call('POST', '/api/admin/mixers', input({ audience: small }))).json() as AdminMixer;
    const women = [];
    for (let i = 0; i < 3; i++) women.push(await person({ genderIdentities: ['Woman'], sexualOrientations: ['Straight'] }));
    for (const [i, w] of women.entries()) {
      const res = await call('POST', `/api/mixers/${mixer.id}/join`, { waitlist: true }, w.cookie);
      expect(res.json().state).toBe(i < 2 ? 'joined' : 'waitlisted');
    }
    const shrink = await call(
      'PUT',
      `/api/admin/mixers/${mixer.id}`,
      input({
        audience: { ...small, seatPlan: [{ side: 'women-into-men', seats: 1 }, small.seatPlan[1], { side: 'everyone', seats: 2 }] },
      }),
    );
    expect(shrink.statusCode).toBe(409);

    const grow = await call(
      'PUT',
      `/api/admin/mixers/${mixer.id}`,
      input({ audience: { ...small, seatPlan: [{ side: 'women-into-men', seats: 3 }, small.seatPlan[1]] } }),
    );
    expect(grow.statusCode).toBe(200);
    expect((grow.json() as AdminMixer).maxParticipants).toBe(5);
    const [row] = await t.database.db.select().from(mixerMemberships).where(eq(mixerMemberships.userId, women[2].id));
    expect(row.state).toBe('joined');
  });
});
