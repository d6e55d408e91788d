import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app';
import { AUDIENCE_MESSAGES, type SeatPlan } from '../../../shared/audience';
import { parseServerEvent } from '../../../shared/realtime/events';
import type { MixerDetail, MixerPage } from '../../../shared/schemas/mixers';
import { mixerMemberships, mixers, profiles } from '../../db/schema';

/** Issue 13: who a mixer is for, enforced on list, detail, join, the realtime room and seats per side. */
let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;
type Member = { id: string; email: string; cookie: string };
const woman = { genderIdentities: ['Woman'], sexualOrientations: ['Straight'], lookingFor: ['Dating'] };
const man = { genderIdentities: ['Man'], sexualOrientations: ['Straight'], lookingFor: ['Dating'] };
const gayMan = { genderIdentities: ['Man'], sexualOrientations: ['Gay'], lookingFor: ['Dating'] };
const straight = (n: number): SeatPlan => [
  { side: 'women-into-men', seats: n },
  { side: 'men-into-women', seats: n },
];

let count = 0;
async function person(profile: Partial<typeof profiles.$inferInsert> = {}): Promise<Member> {
  const name = `Person${++count} Test`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', ...woman, ...profile })
    .where(eq(profiles.id, m.id));
  return m;
}

async function mixer(values: Partial<typeof mixers.$inferInsert> = {}): Promise<string> {
  const now = Date.now();
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: `Audience mixer ${++count}`,
      status: 'scheduled',
      intent: 'Dating',
      startsAt: new Date(now + 2 * HOUR),
      endsAt: new Date(now + 3 * HOUR),
      maxParticipants: 8,
      seatPlan: straight(4),
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const get = (url: string, cookie: string) => t.request({ method: 'GET', url, cookie });
const join = (id: string, m: Member, waitlist?: boolean) =>
  t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: waitlist ? { waitlist } : {} });
const leave = (id: string, m: Member) => t.request({ method: 'POST', url: `/api/mixers/${id}/leave`, cookie: m.cookie, payload: {} });
async function listed(m: Member, section = 'upcoming'): Promise<string[]> {
  const res = await get(`/api/mixers?section=${section}&limit=50`, m.cookie);
  expect(res.statusCode).toBe(200);
  return (res.json() as MixerPage).items.map((i) => i.id);
}
async function stateOf(mixerId: string, userId: string) {
  const [row] = await t.database.db
    .select({ state: mixerMemberships.state, side: mixerMemberships.side })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, mixerId), eq(mixerMemberships.userId, userId)));
  return row;
}

describe('eligibility on list, detail and join', () => {
  it('shows and accepts a mixer only within its age band, place and seat plan', async () => {
    const leedsDating = await mixer({ audienceRegion: 'Yorkshire and the Humber', ageMin: 25, ageMax: 34 });
    const brighton = await mixer({ audienceRegion: 'South East' });
    const gay = await mixer({ seatPlan: [{ side: 'men-into-men', seats: 8 }] });
    const friendsOnline = await mixer({ intent: 'Friends', seatPlan: [] });
    const ok = await person();
    const tooOld = await person({ dob: '1980-01-01' });
    const straightMan = await person(man);

    const okSees = await listed(ok);
    expect(okSees).toEqual(expect.arrayContaining([leedsDating, friendsOnline]));
    expect(okSees).not.toContain(brighton);
    expect(okSees).not.toContain(gay);
    expect(await listed(tooOld)).not.toContain(leedsDating);
    expect(await listed(straightMan)).not.toContain(gay);

    for (const [m, id] of [
      [tooOld, leedsDating],
      [ok, brighton],
      [straightMan, gay],
    ] as const) {
      const detail = await get(`/api/mixers/${id}`, m.cookie);
      expect(detail.statusCode).toBe(403);
      expect(detail.json()).toEqual({ error: { code: 'not_for_you', message: AUDIENCE_MESSAGES.notForYou } });
      const joined = await join(id, m);
      expect(joined.statusCode).toBe(403);
      expect(joined.json().error.code).toBe('not_for_you');
      expect(await stateOf(id, m.id)).toBeUndefined();
    }
    expect((await get(`/api/mixers/${leedsDating}`, ok.cookie)).statusCode).toBe(200);
    expect((await join(leedsDating, ok)).json()).toEqual({ state: 'joined', waitlistPosition: null });
    expect(await stateOf(leedsDating, ok.id)).toEqual({ state: 'joined', side: 'women-into-men' });
  });

  it('shows members without a city online mixers only, and says why', async () => {
    const local = await mixer({ audienceRegion: 'Yorkshire and the Humber' });
    const online = await mixer();
    const noCity = await person({ cityRegion: null });
    const res = await get('/api/mixers?section=upcoming&limit=50', noCity.cookie);
    const page = res.json() as MixerPage;
    expect(page.items.map((i) => i.id)).toContain(online);
    expect(page.items.map((i) => i.id)).not.toContain(local);
    expect(page.notice).toBe(AUDIENCE_MESSAGES.noCity);
    expect(((await get('/api/mixers?section=upcoming', (await person()).cookie)).json() as MixerPage).notice).toBeNull();
  });

  it('keeps members not looking for Dating out of Dating mixers but in Friends ones', async () => {
    const dating = await mixer({ seatPlan: [{ side: 'everyone', seats: 8 }] });
    const friends = await mixer({ intent: 'Friends', seatPlan: [] });
    const friendly = await person({ lookingFor: ['Friends'] });
    const sees = await listed(friendly);
    expect(sees).toContain(friends);
    expect(sees).not.toContain(dating);
  });

  it('offers topics to filter by only from mixers the member is eligible for', async () => {
    await mixer({ topic: 'Velvet Cartography', seatPlan: [{ side: 'men-into-men', seats: 8 }] });
    const topics = async (m: Member) => ((await get('/api/mixers/topics', m.cookie)).json() as { topics: string[] }).topics;
    expect(await topics(await person())).not.toContain('Velvet Cartography');
    expect(await topics(await person(gayMan))).toContain('Velvet Cartography');
  });

  it('lets only eligible, joined members into the realtime room', async () => {
    const id = await mixer({ status: 'live', startsAt: new Date(Date.now() - HOUR), endsAt: new Date(Date.now() + HOUR) });
    const [inside, outsider] = [await person(), await person(gayMan)];
    expect((await join(id, inside)).statusCode).toBe(200);
    expect((await join(id, outsider)).statusCode).toBe(403);
    const answers = await Promise.all(
      [inside, outsider].map(
        (m) =>
          new Promise<string>((resolve, reject) => {
            const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie: m.cookie } });
            socket.on('message', (raw) => {
              const e = parseServerEvent(raw.toString());
              if (e?.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', room: `mixer:${id}` }));
              if (e?.type === 'subscribed' || e?.type === 'error') {
                socket.close();
                resolve(e.type);
              }
            });
            socket.on('error', reject);
          }),
      ),
    );
    expect(answers).toEqual(['subscribed', 'error']);
  });
});

describe('seats per side', () => {
  it('waitlists a full side only, and only when asked', async () => {
    const id = await mixer({ seatPlan: straight(2), maxParticipants: 4 });
    const [w1, w2, w3, m1] = [await person(), await person(), await person(), await person(man)];
    expect((await join(id, w1)).json().state).toBe('joined');
    expect((await join(id, w2)).json().state).toBe('joined');
    const full = await join(id, w3);
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe(AUDIENCE_MESSAGES.sideFull);
    expect((await join(id, w3, true)).json()).toEqual({ state: 'waitlisted', waitlistPosition: 1 });
    expect((await join(id, m1)).json()).toEqual({ state: 'joined', waitlistPosition: null });

    const detail = (await get(`/api/mixers/${id}`, w3.cookie)).json() as MixerDetail;
    expect(detail.seats).toEqual([
      { key: 'women-into-men', seats: 2, joined: 2, held: 0, waiting: 1 },
      { key: 'men-into-women', seats: 2, joined: 1, held: 0, waiting: 0 },
    ]);
    expect(detail.mySide).toBe('women-into-men');
    expect(detail.waitlistPosition).toBe(1);
  });

  it('gives the last seat on a side to exactly one of many racing members', async () => {
    const id = await mixer({ seatPlan: straight(3), maxParticipants: 6 });
    await join(id, await person());
    await join(id, await person());
    const racers = await Promise.all(Array.from({ length: 8 }, () => person()));
    const men = await Promise.all(Array.from({ length: 2 }, () => person(man)));
    const results = await Promise.all([...racers, ...men].map((r) => join(id, r)));
    const womenCodes = results.slice(0, 8).map((r) => r.statusCode);
    expect(womenCodes.filter((c) => c === 200)).toHaveLength(1);
    expect(womenCodes.filter((c) => c === 409)).toHaveLength(7);
    expect(results.slice(8).map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await t.database.db.select().from(mixerMemberships).where(eq(mixerMemberships.mixerId, id));
    expect(rows.filter((r) => r.side === 'women-into-men' && r.state === 'joined')).toHaveLength(3);
    expect(rows.filter((r) => r.side === 'men-into-women' && r.state === 'joined')).toHaveLength(2);
  });

  it('promotes from the waitlist of the side that freed a seat, keeping the plan balanced', async () => {
    const id = await mixer({ seatPlan: straight(1), maxParticipants: 2 });
    const [w1, m1] = [await person(), await person(man)];
    await join(id, w1);
    await join(id, m1);
    const manWaiting = await person(man);
    expect((await join(id, manWaiting, true)).json().state).toBe('waitlisted');
    const womanWaiting = await person();
    expect((await join(id, womanWaiting, true)).json().state).toBe('waitlisted');

    // The man waited longer, but the free seat is a woman's.
    expect((await leave(id, w1)).statusCode).toBe(200);
    expect(await stateOf(id, womanWaiting.id)).toEqual({ state: 'joined', side: 'women-into-men' });
    expect(await stateOf(id, manWaiting.id)).toEqual({ state: 'waitlisted', side: 'men-into-women' });
    expect((await t.mailsTo(womanWaiting.email))[0]?.subject).toMatch(/^You're in/);

    expect((await leave(id, m1)).statusCode).toBe(200);
    expect(await stateOf(id, manWaiting.id)).toEqual({ state: 'joined', side: 'men-into-women' });
  });
});

describe('profile edits', () => {
  it('keeps mixers a member joined; new joins follow the new profile', async () => {
    const joined = await mixer({ audienceRegion: 'Yorkshire and the Humber' });
    const other = await mixer({ audienceRegion: 'Yorkshire and the Humber' });
    const mover = await person();
    expect((await join(joined, mover)).statusCode).toBe(200);
    await t.database.db.update(profiles).set({ cityRegion: 'Brighton', dob: '1960-01-01' }).where(eq(profiles.id, mover.id));

    expect(await listed(mover, 'mine')).toContain(joined);
    expect(await listed(mover)).toContain(joined);
    expect(await listed(mover)).not.toContain(other);
    expect((await get(`/api/mixers/${joined}`, mover.cookie)).statusCode).toBe(200);
    expect((await get(`/api/mixers/${other}`, mover.cookie)).statusCode).toBe(403);
    expect((await join(other, mover)).statusCode).toBe(403);
  });
});

describe('privacy of seat plans and orientation', () => {
  it('never sends a seat plan to ineligible members, nor who sits on which side to anyone', async () => {
    const id = await mixer({ seatPlan: [{ side: 'women-into-women', seats: 4 }] });
    const lesbian = await person({ sexualOrientations: ['Lesbian'] });
    const bi = await person({ sexualOrientations: ['Bisexual'] });
    await join(id, lesbian);
    await join(id, bi);
    const outsider = await person(man);

    const bodies = [
      (await get(`/api/mixers/${id}`, outsider.cookie)).body,
      (await join(id, outsider)).body,
      (await get('/api/mixers?section=upcoming&limit=50', outsider.cookie)).body,
    ];
    for (const body of bodies) expect(body).not.toMatch(/women-into-women|into women|Lesbian|Bisexual/i);
    for (const body of bodies.slice(0, 2)) expect(body).not.toMatch(/seatPlan|seats/);
    // The list carries the plans of mixers the outsider is eligible for, never this one.
    expect(bodies[2]).not.toContain(id);

    // Eligible members see the plan and the fill, but no participant carries a side or orientation.
    const detail = (await get(`/api/mixers/${id}`, lesbian.cookie)).json() as MixerDetail;
    expect(detail.audience.seatPlan).toEqual([{ side: 'women-into-women', seats: 4 }]);
    expect(detail.participants).toHaveLength(2);
    for (const p of detail.participants)
      expect(Object.keys(p).sort()).toEqual([
        'age',
        'avatarUrl',
        'canOpen',
        'city',
        'firstName',
        'id',
        'isYou',
        'sharedInterests',
        'verified',
      ]);
    expect(JSON.stringify(detail)).not.toMatch(/Lesbian|Bisexual|Straight/);
  });
});
