import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { SeatPlan } from '../../../shared/audience';
import type { ServerEvent } from '../../../shared/realtime/events';
import { IDENTITY_MESSAGES } from '../../../shared/schemas/profile';
import { mixerInvitations, mixerMemberships, mixers, profiles } from '../../db/schema';

/**
 * Issue 32, "Seat-plan sides": a profile change that no longer fits the side of a seat or an
 * invitation in an upcoming mixer gives it up, with a notice saying why; live and ended mixers
 * are history. Times are days ahead of now (live ones around now), well apart.
 */
let t: TestApp;
const published: { room: string; event: ServerEvent }[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const original = t.app.realtime.publish.bind(t.app.realtime);
  t.app.realtime.publish = (room, event) => {
    published.push({ room, event });
    return original(room, event);
  };
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
type Member = { id: string; email: string; cookie: string };
const straightWoman = { genderIdentities: ['Woman'], sexualOrientations: ['Straight'], lookingFor: ['Dating'] };
const gayMan = { genderIdentities: ['Man'], sexualOrientations: ['Gay'], lookingFor: ['Dating'] };
const STRAIGHT: SeatPlan = [
  { side: 'women-into-men', seats: 4 },
  { side: 'men-into-women', seats: 4 },
];
const GAY: SeatPlan = [{ side: 'men-into-men', seats: 8 }];

let count = 0;
async function member(profile: Partial<typeof profiles.$inferInsert> = straightWoman): Promise<Member> {
  const name = `Side${++count} Tester`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1994-03-03', cityRegion: 'Leeds', ...profile })
    .where(eq(profiles.id, m.id));
  return m;
}

async function mixer(startsIn: number, seatPlan: SeatPlan, title: string): Promise<string> {
  const startsAt = new Date(Date.now() + startsIn);
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title,
      intent: 'Dating',
      status: startsIn <= 0 ? 'live' : 'scheduled',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 90 * 60_000),
      maxParticipants: 8,
      seatPlan,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const join = (m: Member, id: string) => t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: {} });
const edit = (m: Member, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: '/api/me/profile', cookie: m.cookie, payload });

async function membership(mixerId: string, userId: string) {
  const [row] = await t.database.db
    .select({ state: mixerMemberships.state })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, mixerId), eq(mixerMemberships.userId, userId)));
  return row?.state ?? null;
}
async function invitationStatus(id: string) {
  const [row] = await t.database.db.select({ status: mixerInvitations.status }).from(mixerInvitations).where(eq(mixerInvitations.id, id));
  return row?.status;
}
const noticesTo = (userId: string) =>
  published
    .filter((p) => p.room === `user:${userId}` && p.event.type === 'notice')
    .map((p) => p.event as Extract<ServerEvent, { type: 'notice' }>);

describe('seat-plan sides after a profile change', () => {
  it('gives up upcoming seats and invitations that no longer fit, with a notice; live mixers are history', async () => {
    const m = await member();
    const straightUpcoming = await mixer(3 * DAY, STRAIGHT, '4 women into men + 4 men into women');
    const straightLive = await mixer(-10 * 60_000, STRAIGHT, 'Straight and live');
    const invitedTo = await mixer(5 * DAY, STRAIGHT, 'Invited straight mixer');
    const gay = await mixer(7 * DAY, GAY, '8 men into men');
    expect((await join(m, straightUpcoming)).statusCode).toBe(200);
    expect((await join(m, straightLive)).statusCode).toBe(200);
    const [inv] = await t.database.db
      .insert(mixerInvitations)
      .values({ mixerId: invitedTo, userId: m.id, side: 'women-into-men', expiresAt: new Date(Date.now() + DAY) })
      .returning({ id: mixerInvitations.id });

    const changed = await edit(m, { genderIdentities: ['Man'], sexualOrientations: ['Gay'] });
    expect(changed.statusCode).toBe(200);
    expect(await membership(straightUpcoming, m.id)).toBe('left');
    expect(await membership(straightLive, m.id)).toBe('joined');
    expect(await invitationStatus(inv.id)).toBe('declined');
    const notices = noticesTo(m.id);
    expect(notices).toContainEqual(
      expect.objectContaining({
        title: IDENTITY_MESSAGES.seatLeftTitle,
        description: IDENTITY_MESSAGES.seatLeft('4 women into men + 4 men into women', 'women into men'),
      }),
    );
    expect(notices).toContainEqual(
      expect.objectContaining({
        title: IDENTITY_MESSAGES.invitationDeclinedTitle,
        description: IDENTITY_MESSAGES.invitationDeclined('Invited straight mixer', 'women into men'),
      }),
    );

    // Now a gay man: the men-into-men room takes them; changing back gives that seat up too.
    expect((await join(m, gay)).statusCode).toBe(200);
    expect((await edit(m, straightWoman)).statusCode).toBe(200);
    expect(await membership(gay, m.id)).toBe('left');
    expect(noticesTo(m.id).filter((n) => n.title === IDENTITY_MESSAGES.seatLeftTitle)).toHaveLength(2);
    // Nothing of it goes to anyone else.
    expect(published.filter((p) => p.event.type === 'notice' && p.room !== `user:${m.id}`)).toEqual([]);
  });

  it('gives the freed seat to the first member waiting on that side', async () => {
    const [sitter, waiter] = [await member(), await member()];
    const small = await mixer(
      9 * DAY,
      [
        { side: 'women-into-men', seats: 1 },
        { side: 'men-into-women', seats: 3 },
      ],
      'One seat for women',
    );
    expect((await join(sitter, small)).statusCode).toBe(200);
    const waiting = await t.request({
      method: 'POST',
      url: `/api/mixers/${small}/join`,
      cookie: waiter.cookie,
      payload: { waitlist: true },
    });
    expect(waiting.json().state).toBe('waitlisted');
    expect((await edit(sitter, { sexualOrientations: ['Lesbian'] })).statusCode).toBe(200);
    expect(await membership(small, sitter.id)).toBe('left');
    expect(await membership(small, waiter.id)).toBe('joined');
  });

  it('keeps seats that still fit, and seats in mixers without a seat plan', async () => {
    const m = await member({ ...straightWoman, sexualOrientations: ['Bisexual'] });
    const straight = await mixer(11 * DAY, STRAIGHT, 'Still fits');
    const [friends] = await t.database.db
      .insert(mixers)
      .values({
        title: 'Friends night',
        intent: 'Friends',
        status: 'scheduled',
        startsAt: new Date(Date.now() + 13 * DAY),
        endsAt: new Date(Date.now() + 13 * DAY + HOUR),
        maxParticipants: 8,
      })
      .returning({ id: mixers.id });
    await t.database.db
      .update(profiles)
      .set({ lookingFor: ['Dating', 'Friends'] })
      .where(eq(profiles.id, m.id));
    expect((await join(m, straight)).statusCode).toBe(200);
    expect((await join(m, friends.id)).statusCode).toBe(200);
    // Bisexual → straight: still a woman into men, so both seats stay.
    const before = noticesTo(m.id).length;
    expect((await edit(m, { sexualOrientations: ['Straight'] })).statusCode).toBe(200);
    expect(await membership(straight, m.id)).toBe('joined');
    expect(await membership(friends.id, m.id)).toBe('joined');
    expect(noticesTo(m.id)).toHaveLength(before);
  });

  it('also re-checks after the onboarding draft route (every route that writes the profile)', async () => {
    const m = await member(gayMan);
    const gay = await mixer(15 * DAY, GAY, 'Draft route room');
    expect((await join(m, gay)).statusCode).toBe(200);
    const res = await t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload: { genderIdentities: ['Woman'] } });
    expect(res.statusCode).toBe(200);
    expect(await membership(gay, m.id)).toBe('left');
  });
});
