import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { mixerInvitations, mixerMemberships, mixers, profiles } from '../../db/schema';

/**
 * Issue 30: a suspended member cannot join, be invited to or be formed into a mixer. At the
 * moment of suspension every invitation they held is withdrawn (its seat released) and every
 * seat or waitlist place in a mixer that has not ended is left, so the next member waiting gets it.
 */
const t = setupTestApp();
const HOUR = 3_600_000;

type Member = { id: string; email: string; cookie: string };
let count = 0;
async function person(): Promise<Member> {
  const name = `Seated${++count} Person`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1994-03-02', cityRegion: 'Leeds', lookingFor: ['Friends'] })
    .where(eq(profiles.id, m.id));
  return m;
}
async function mixer(maxParticipants = 2, status = 'scheduled'): Promise<string> {
  const now = Date.now();
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: `Mixer ${++count}`,
      topic: 'Board games',
      status,
      intent: 'Friends',
      startsAt: new Date(now + (status === 'live' ? -HOUR / 4 : 26 * HOUR)),
      endsAt: new Date(now + 27 * HOUR),
      maxParticipants,
      seatPlan: [],
    })
    .returning({ id: mixers.id });
  return row.id;
}
const stateOf = async (mixerId: string, userId: string) =>
  (
    await t.database.db
      .select({ state: mixerMemberships.state })
      .from(mixerMemberships)
      .where(and(eq(mixerMemberships.mixerId, mixerId), eq(mixerMemberships.userId, userId)))
  )[0]?.state;
const join = (id: string, m: Member, waitlist?: boolean) =>
  t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: waitlist ? { waitlist } : {} });

async function suspend(admin: Member, reporter: Member, member: Member) {
  const report = await t.request({
    method: 'POST',
    url: '/api/reports',
    cookie: reporter.cookie,
    payload: { userId: member.id, reason: 'Spam or scam', details: 'Crypto links' },
  });
  expect(report.statusCode).toBe(201);
  const res = await t.request({
    method: 'POST',
    url: `/api/admin/reports/${report.json().id}/act`,
    cookie: admin.cookie,
    payload: { action: 'suspend', rule: 'scams', days: 7 },
  });
  expect(res.json()).toMatchObject({ status: 'suspended' });
}

describe('a member suspended', () => {
  it('leaves every seat, waitlist place and invitation they held; the next member waiting gets the seat', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const reporter = await person();
    const bad = await person();
    const waiting = await person();
    const seated = await person();

    // Upcoming mixer: bad and seated hold both seats, waiting is on the waitlist.
    const upcoming = await mixer(2);
    expect((await join(upcoming, bad)).statusCode).toBeLessThan(300);
    expect((await join(upcoming, seated)).statusCode).toBeLessThan(300);
    expect((await join(upcoming, waiting, true)).statusCode).toBeLessThan(300);
    expect(await stateOf(upcoming, waiting.id)).toBe('waitlisted');
    // Another: bad waits on its waitlist.
    const full = await mixer(1);
    await t.database.db.insert(mixerMemberships).values([
      { mixerId: full, userId: seated.id, state: 'joined' },
      { mixerId: full, userId: bad.id, state: 'waitlisted' },
    ]);
    // A formed mixer: bad holds a seat through a pending invitation.
    const formed = await mixer(2);
    const [inv] = await t.database.db
      .insert(mixerInvitations)
      .values({ mixerId: formed, userId: bad.id, side: 'all', expiresAt: new Date(Date.now() + 12 * HOUR) })
      .returning({ id: mixerInvitations.id });
    // A live one: bad is in the room.
    const live = await mixer(4, 'live');
    await t.database.db.insert(mixerMemberships).values([
      { mixerId: live, userId: bad.id, state: 'joined' },
      { mixerId: live, userId: seated.id, state: 'joined' },
    ]);

    await suspend(admin, reporter, bad);

    expect(await stateOf(upcoming, bad.id)).toBe('left');
    expect(await stateOf(upcoming, waiting.id)).toBe('joined');
    expect(await stateOf(full, bad.id)).toBe('left');
    expect(await stateOf(live, bad.id)).toBe('left');
    const [closed] = await t.database.db
      .select({ status: mixerInvitations.status })
      .from(mixerInvitations)
      .where(eq(mixerInvitations.id, inv.id));
    expect(closed.status).toBe('withdrawn');
    // Gone from the room at once for the others.
    const detail = (await t.request({ method: 'GET', url: `/api/mixers/${live}`, cookie: seated.cookie })).json();
    expect(JSON.stringify(detail)).not.toContain(bad.id);
    // Cannot join again: the session is gone.
    expect((await join(await mixer(4), bad)).statusCode).toBe(401);
  });
});
