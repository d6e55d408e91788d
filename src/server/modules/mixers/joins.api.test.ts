import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app';
import { parseServerEvent, type ServerEvent } from '../../../shared/realtime/events';
import { MAX_UPCOMING_MIXERS, MIXER_MESSAGES, type MixerDetail } from '../../../shared/schemas/mixers';
import { MEMBER_MESSAGES } from '../../../shared/schemas/members';
import { mixerInvitations, mixerMemberships, mixers, profiles } from '../../db/schema';
import { MIXER_UPDATE_INTERVAL_MS } from '../../realtime/hub';
import { JOIN_RULES } from './routes';

/**
 * Issue 32, "Joins": a member holds at most MAX_UPCOMING_MIXERS upcoming mixers and never two at
 * once; join/leave cycles are limited; before the start co-participants see first name, photo
 * and shared interests only; seat changes reach the others at most about once a second.
 * Mixer times are relative to now, days ahead, with hours between them.
 */
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
const DAY = 24 * HOUR;
type Member = { id: string; email: string; cookie: string };

let count = 0;
async function onboarded(name: string, profile: Partial<typeof profiles.$inferInsert> = {}): Promise<Member> {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Friends'], ...profile })
    .where(eq(profiles.id, m.id));
  return m;
}

/** A Friends mixer (no seat plan) starting `startsIn` ms from now, lasting 90 minutes unless told. */
async function mixer(startsIn: number, values: Partial<typeof mixers.$inferInsert> = {}): Promise<string> {
  const startsAt = new Date(Date.now() + startsIn);
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: `Joins mixer ${++count}`,
      topic: 'Board games',
      intent: 'Friends',
      status: startsIn <= 0 ? 'live' : 'scheduled',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 90 * 60_000),
      maxParticipants: 8,
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const join = (m: Member, id: string) => t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: {} });
const leave = (m: Member, id: string) => t.request({ method: 'POST', url: `/api/mixers/${id}/leave`, cookie: m.cookie, payload: {} });
const get = (m: Member, url: string) => t.request({ method: 'GET', url, cookie: m.cookie });

async function stateOf(mixerId: string, userId: string) {
  const [row] = await t.database.db
    .select({ state: mixerMemberships.state })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, mixerId), eq(mixerMemberships.userId, userId)));
  return row?.state ?? null;
}

describe('how many mixers a member holds', () => {
  it(`holds at most ${MAX_UPCOMING_MIXERS} upcoming mixers; leaving one makes room`, async () => {
    const m = await onboarded('Hana Hoarder');
    // Six mixers on six different days, well apart.
    const ids: string[] = [];
    for (let i = 0; i < MAX_UPCOMING_MIXERS + 1; i++) ids.push(await mixer(2 * DAY + i * DAY));
    const limitShown = async (id: string) => ((await get(m, `/api/mixers/${id}`)).json() as MixerDetail).upcomingLimitReached;
    for (const id of ids.slice(0, MAX_UPCOMING_MIXERS)) {
      expect(await limitShown(ids[MAX_UPCOMING_MIXERS])).toBe(false);
      expect((await join(m, id)).statusCode).toBe(200);
    }
    // The mixer's page says so before the Join that is then refused.
    expect(await limitShown(ids[MAX_UPCOMING_MIXERS])).toBe(true);
    const refused = await join(m, ids[MAX_UPCOMING_MIXERS]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.tooManyUpcoming);
    expect(await stateOf(ids[MAX_UPCOMING_MIXERS], m.id)).toBeNull();
    // A live mixer is not upcoming: it does not count, and may be joined on top.
    const live = await mixer(-10 * 60_000);
    expect(await limitShown(live)).toBe(false);
    expect((await join(m, live)).statusCode).toBe(200);
    expect((await leave(m, ids[0])).statusCode).toBe(200);
    expect(await limitShown(ids[MAX_UPCOMING_MIXERS])).toBe(false);
    expect((await join(m, ids[MAX_UPCOMING_MIXERS])).statusCode).toBe(200);
  });

  it('counts a seat held for the member by a pending invitation', async () => {
    const m = await onboarded('Ines Invited');
    const ids: string[] = [];
    for (let i = 0; i < MAX_UPCOMING_MIXERS; i++) ids.push(await mixer(3 * DAY + i * DAY));
    for (const id of ids.slice(0, MAX_UPCOMING_MIXERS - 1)) expect((await join(m, id)).statusCode).toBe(200);
    const invitedTo = await mixer(10 * DAY);
    await t.database.db.insert(mixerInvitations).values({ mixerId: invitedTo, userId: m.id, expiresAt: new Date(Date.now() + DAY) });
    const refused = await join(m, ids[MAX_UPCOMING_MIXERS - 1]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.tooManyUpcoming);
    // Taking the held seat itself is fine: it is already counted.
    expect((await join(m, invitedTo)).statusCode).toBe(200);
  });

  it('never holds two mixers that overlap in time, live ones included', async () => {
    const m = await onboarded('Otto Overlap');
    const first = await mixer(2 * DAY);
    const overlapping = await mixer(2 * DAY + HOUR);
    const afterIt = await mixer(2 * DAY + 90 * 60_000);
    expect((await join(m, first)).statusCode).toBe(200);
    const refused = await join(m, overlapping);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.overlaps);
    // Back to back is not an overlap.
    expect((await join(m, afterIt)).statusCode).toBe(200);

    const live = await mixer(-20 * 60_000);
    const liveToo = await mixer(-10 * 60_000);
    expect((await join(m, live)).statusCode).toBe(200);
    const refusedLive = await join(m, liveToo);
    expect(refusedLive.statusCode).toBe(409);
    expect(refusedLive.json().error.message).toBe(MIXER_MESSAGES.overlaps);
  });

  it("says on the mixer's page, before any Join, which mixer it overlaps and how the member holds it", async () => {
    const m = await onboarded('Clara Clash');
    const clashOf = async (id: string) => ((await get(m, `/api/mixers/${id}`)).json() as MixerDetail).clash;
    const held = await mixer(7 * DAY);
    const invited = await mixer(8 * DAY);
    const overHeld = await mixer(7 * DAY + 30 * 60_000);
    const overInvited = await mixer(8 * DAY - 30 * 60_000);
    const backToBack = await mixer(7 * DAY + 90 * 60_000);
    expect(await clashOf(overHeld)).toBeNull();

    expect((await join(m, held)).statusCode).toBe(200);
    await t.database.db.insert(mixerInvitations).values({ mixerId: invited, userId: m.id, expiresAt: new Date(Date.now() + DAY) });
    const [heldTitle, invitedTitle] = await Promise.all(
      [held, invited].map(
        async (id) => (await t.database.db.select({ title: mixers.title }).from(mixers).where(eq(mixers.id, id)))[0].title,
      ),
    );
    expect(await clashOf(overHeld)).toMatchObject({ id: held, title: heldTitle, invited: false });
    expect(await clashOf(overInvited)).toMatchObject({ id: invited, title: invitedTitle, invited: true });
    // What the page says is what a Join meets.
    expect((await join(m, overHeld)).json().error.message).toBe(MIXER_MESSAGES.overlaps);
    expect((await join(m, overInvited)).json().error.message).toBe(MIXER_MESSAGES.overlapsHeld);
    // Back to back, and the held mixers' own pages, clash with nothing.
    expect(await clashOf(backToBack)).toBeNull();
    expect(await clashOf(held)).toBeNull();
    expect(await clashOf(invited)).toBeNull();

    // Leaving, or the invitation no longer pending, clears it.
    expect((await leave(m, held)).statusCode).toBe(200);
    await t.database.db.update(mixerInvitations).set({ status: 'declined' }).where(eq(mixerInvitations.mixerId, invited));
    expect(await clashOf(overHeld)).toBeNull();
    expect(await clashOf(overInvited)).toBeNull();
    expect((await join(m, overHeld)).statusCode).toBe(200);
  });

  it('keeps a waiting member waiting when the freed seat would overlap a mixer they hold', async () => {
    const [a, b] = [await onboarded('Aya Seated'), await onboarded('Ben Busy')];
    const full = await mixer(4 * DAY, { maxParticipants: 1 });
    const clash = await mixer(4 * DAY + 30 * 60_000);
    expect((await join(a, full)).statusCode).toBe(200);
    const waiting = await t.request({ method: 'POST', url: `/api/mixers/${full}/join`, cookie: b.cookie, payload: { waitlist: true } });
    expect(waiting.json().state).toBe('waitlisted');
    expect((await join(b, clash)).statusCode).toBe(200);
    expect((await leave(a, full)).statusCode).toBe(200);
    expect(await stateOf(full, b.id)).toBe('waitlisted');
  });
});

describe('join/leave cycles', () => {
  it('limits joins of one mixer by one member, and never refuses a leave', async () => {
    const m = await onboarded('Cyril Cycler');
    const id = await mixer(5 * DAY);
    for (let i = 0; i < JOIN_RULES.mixer[0].limit; i++) {
      expect((await join(m, id)).statusCode).toBe(200);
      expect((await leave(m, id)).statusCode).toBe(200);
    }
    const refused = await join(m, id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.joinRateLimited);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another mixer is still open to them.
    expect((await join(m, await mixer(6 * DAY))).statusCode).toBe(200);
  });

  it('limits joins per member across mixers', async () => {
    const m = await onboarded('Mia Many');
    const ids: string[] = [];
    for (let i = 0; i <= JOIN_RULES.member[0].limit; i++) ids.push(await mixer(20 * DAY + i * 4 * HOUR));
    for (const id of ids.slice(0, JOIN_RULES.member[0].limit)) {
      expect((await join(m, id)).statusCode).toBe(200);
      expect((await leave(m, id)).statusCode).toBe(200);
    }
    const refused = await join(m, ids[JOIN_RULES.member[0].limit]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.joinRateLimited);
  });

  it('counts a join before making it: joins fired in parallel never get past the limit', async () => {
    const m = await onboarded('Paula Parallel');
    const filler = await onboarded('Fred Filler');
    const limit = JOIN_RULES.member[0].limit;
    // Full mixers (one seat, taken): each join takes a waitlist place, which counts, and no
    // other rule (upcoming seats, overlaps) stands in the way.
    const ids: string[] = [];
    for (let i = 0; i < limit + 5; i++) ids.push(await mixer(60 * DAY + i * 4 * HOUR, { maxParticipants: 1 }));
    await t.database.db.insert(mixerMemberships).values(ids.map((mixerId) => ({ mixerId, userId: filler.id, state: 'joined' })));
    // A join refused for another reason (full, no waitlist asked) takes nothing from the allowance.
    expect((await join(m, ids[0])).statusCode).toBe(409);

    const results = await Promise.all(
      ids.map((id) => t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: { waitlist: true } })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const states = await Promise.all(ids.map((id) => stateOf(id, m.id)));
    expect(states.filter((s) => s === 'waitlisted')).toHaveLength(limit);
  });
});

describe('profile cards before the start', () => {
  it('shows co-participants first name, photo and shared interests only until the mixer starts; the full card after', async () => {
    const interests = ['Hiking', 'Board games', 'Jazz'];
    const viewer = await onboarded('Vic Viewer', { interests: ['Jazz', 'Hiking', 'Cooking'] });
    const other = await onboarded('Petra Private', {
      interests,
      bio: 'Secret bio line',
      sexualOrientations: ['Bisexual'],
      avatarUrl: 'x/photos/petra.webp',
    });
    const id = await mixer(2 * DAY + 12 * HOUR);
    for (const m of [viewer, other]) expect((await join(m, id)).statusCode).toBe(200);

    const card = await get(viewer, `/api/members/${other.id}`);
    expect(card.statusCode).toBe(404);
    expect(card.json().error.message).toBe(MEMBER_MESSAGES.notAvailable);
    const before = (await get(viewer, `/api/mixers/${id}`)).json() as MixerDetail;
    const row = before.participants.find((p) => p.id === other.id);
    expect(row).toMatchObject({ firstName: 'Petra', age: null, city: null, canOpen: false, sharedInterests: ['Hiking', 'Jazz'] });
    expect(row?.avatarUrl).toBeTruthy();
    expect(JSON.stringify(before)).not.toContain('Secret bio line');
    expect(JSON.stringify(before)).not.toContain('Bisexual');
    expect(before.preview.map((p) => p.firstName)).toContain('Petra');

    // The mixer starts: the card opens, and the list shows age and city.
    await t.database.db
      .update(mixers)
      .set({ status: 'live', startsAt: new Date(Date.now() - 60_000), endsAt: new Date(Date.now() + HOUR) })
      .where(eq(mixers.id, id));
    const live = await get(viewer, `/api/members/${other.id}`);
    expect(live.statusCode).toBe(200);
    expect(live.json().member).toMatchObject({ bio: 'Secret bio line', sexualOrientations: ['Bisexual'] });
    const during = (await get(viewer, `/api/mixers/${id}`)).json() as MixerDetail;
    expect(during.participants.find((p) => p.id === other.id)).toMatchObject({ canOpen: true, city: 'Leeds' });
    expect(during.participants.find((p) => p.id === other.id)?.age).toBeGreaterThanOrEqual(18);

    // After it ends the card stays open (the "Who did you click with?" prompt).
    await t.database.db
      .update(mixers)
      .set({ status: 'ended', startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(mixers.id, id));
    expect((await get(viewer, `/api/members/${other.id}`)).statusCode).toBe(200);
  });

  it('lets no upcoming seat open the cards of a mixer a member joined in bulk', async () => {
    const sweeper = await onboarded('Sweeney Sweep');
    const ids = [await mixer(30 * DAY), await mixer(31 * DAY)];
    const others = [await onboarded('Olive One', { bio: 'Olive bio' }), await onboarded('Tara Two', { bio: 'Tara bio' })];
    for (const [i, id] of ids.entries()) {
      expect((await join(others[i], id)).statusCode).toBe(200);
      expect((await join(sweeper, id)).statusCode).toBe(200);
    }
    for (const o of others) expect((await get(sweeper, `/api/members/${o.id}`)).statusCode).toBe(404);
    // A fancy needs a mixer that has started, too.
    const fancy = await t.request({
      method: 'PUT',
      url: `/api/fancies/${others[0].id}`,
      cookie: sweeper.cookie,
      payload: { mixerId: ids[0] },
    });
    expect(fancy.statusCode).toBeGreaterThanOrEqual(400);
  });
});

function connect(cookie: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie } });
  socket.on('error', () => {});
  const events: ServerEvent[] = [];
  socket.on('message', (raw) => {
    const e = parseServerEvent(raw.toString());
    if (e) events.push(e);
  });
  const until = async (pred: () => boolean) => {
    for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 25));
    if (!pred()) throw new Error('timed out waiting for an event');
  };
  return { socket, events, until, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

describe('realtime fan-out of seat changes', () => {
  it("folds many join/leave cycles into about one mixer.updated a second on another participant's socket", async () => {
    const watcher = await onboarded('Wendy Watcher');
    const cyclers = [await onboarded('Cal Cycle'), await onboarded('Cora Cycle'), await onboarded('Cas Cycle')];
    const id = await mixer(12 * DAY);
    expect((await join(watcher, id)).statusCode).toBe(200);
    const c = connect(watcher.cookie);
    await c.until(() => c.events.some((e) => e.type === 'ready'));
    c.send({ type: 'subscribe', room: `mixer:${id}` });
    await c.until(() => c.events.some((e) => e.type === 'subscribed'));

    const started = Date.now();
    let changes = 0;
    for (const m of cyclers) {
      for (const step of [join, leave, join]) {
        expect((await step(m, id)).statusCode).toBe(200);
        changes++;
      }
    }
    // Wait for the trailing delivery, then count.
    await new Promise((r) => setTimeout(r, MIXER_UPDATE_INTERVAL_MS + 300));
    const elapsed = Date.now() - started;
    const updates = c.events.filter((e) => e.type === 'mixer.updated').length;
    expect(updates).toBeGreaterThanOrEqual(1);
    // One at once, then at most one per interval that passed: never one per change.
    expect(updates).toBeLessThanOrEqual(1 + Math.ceil(elapsed / MIXER_UPDATE_INTERVAL_MS));
    expect(updates).toBeLessThan(changes);
    c.socket.close();
  });
});
