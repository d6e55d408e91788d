import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { SeatPlan } from '../../../shared/audience';
import { INVITATION_MESSAGES, type InvitationList } from '../../../shared/schemas/invitations';
import { MIXER_MESSAGES, type MixerDetail, type MixerPage } from '../../../shared/schemas/mixers';
import { auditLog, mixerAttendance, mixerInvitations, mixerMemberships, mixers, profiles } from '../../db/schema';
import { announceInvitations } from './announce';
import { expireInvitations } from './service';

/** Issue 14: invitations hold seats; accept takes one, decline and expiry release it to the side's waitlist. */
const t = setupTestApp();

const HOUR = 3_600_000;
type Member = { id: string; email: string; cookie: string };
const woman = { genderIdentities: ['Woman'], sexualOrientations: ['Straight'], lookingFor: ['Dating'] };
const man = { genderIdentities: ['Man'], sexualOrientations: ['Straight'], lookingFor: ['Dating'] };
const straight = (n: number): SeatPlan => [
  { side: 'women-into-men', seats: n },
  { side: 'men-into-women', seats: n },
];

let count = 0;
async function person(profile: Partial<typeof profiles.$inferInsert> = {}): Promise<Member> {
  const name = `Invitee${++count} Test`;
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
      title: `Formed mixer ${++count}`,
      topic: 'Bouldering',
      status: 'scheduled',
      intent: 'Friends',
      origin: 'auto',
      startsAt: new Date(now + 26 * HOUR),
      endsAt: new Date(now + 27 * HOUR),
      maxParticipants: 2,
      seatPlan: [],
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}

async function invite(mixerId: string, m: Member, values: Partial<typeof mixerInvitations.$inferInsert> = {}): Promise<string> {
  const [row] = await t.database.db
    .insert(mixerInvitations)
    .values({ mixerId, userId: m.id, side: 'all', expiresAt: new Date(Date.now() + 12 * HOUR), ...values })
    .returning({ id: mixerInvitations.id });
  return row.id;
}

const post = (url: string, m: Member) => t.request({ method: 'POST', url, cookie: m.cookie, payload: {} });
const accept = (id: string, m: Member) => post(`/api/invitations/${id}/accept`, m);
const decline = (id: string, m: Member) => post(`/api/invitations/${id}/decline`, m);
const join = (id: string, m: Member, waitlist?: boolean) =>
  t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: m.cookie, payload: waitlist ? { waitlist } : {} });
const detail = async (id: string, m: Member) =>
  (await t.request({ method: 'GET', url: `/api/mixers/${id}`, cookie: m.cookie })).json() as MixerDetail;

async function stateOf(mixerId: string, userId: string) {
  const [row] = await t.database.db
    .select({ state: mixerMemberships.state, side: mixerMemberships.side })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, mixerId), eq(mixerMemberships.userId, userId)));
  return row;
}
async function statusOf(invitationId: string) {
  const [row] = await t.database.db
    .select({ status: mixerInvitations.status })
    .from(mixerInvitations)
    .where(eq(mixerInvitations.id, invitationId));
  return row?.status;
}
const auditOf = (target: string) => t.database.db.select().from(auditLog).where(eq(auditLog.target, target));

describe('a held seat', () => {
  it('counts as taken for everyone else: join refused, list and detail show it held', async () => {
    const id = await mixer();
    const seated = await person();
    const invited = await person();
    const other = await person();
    expect((await join(id, seated)).statusCode).toBe(200);
    await invite(id, invited);

    const refused = await join(id, other);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MIXER_MESSAGES.full);
    expect(await stateOf(id, other.id)).toBeUndefined();

    const seen = await detail(id, other);
    expect(seen.seats).toEqual([{ key: 'all', seats: 2, joined: 1, held: 1, waiting: 0 }]);
    expect(seen.seatsForMe).toBe(0);
    expect(seen.myInvitation).toBeNull();
    const list = (
      await t.request({ method: 'GET', url: '/api/mixers?section=upcoming&limit=50', cookie: other.cookie })
    ).json() as MixerPage;
    const card = list.items.find((i) => i.id === id);
    expect(card?.seats[0]).toMatchObject({ joined: 1, held: 1 });
    expect(card?.seatsForMe).toBe(0);

    // The invited member sees the seat as theirs.
    const mine = await detail(id, invited);
    expect(mine.seats[0]).toMatchObject({ joined: 1, held: 0 });
    expect(mine.seatsForMe).toBe(1);
    expect(mine.myInvitation?.id).toBeTruthy();

    // Joining the waitlist is still possible, behind the held seat.
    expect((await join(id, other, true)).json().state).toBe('waitlisted');
  });

  it('lets the invited member take it by joining the mixer too (the invitation is then accepted)', async () => {
    const id = await mixer();
    const seated = await person();
    const invited = await person();
    await join(id, seated);
    const inv = await invite(id, invited);
    expect((await join(id, invited)).json()).toEqual({ state: 'joined', waitlistPosition: null });
    expect(await statusOf(inv)).toBe('accepted');
  });

  it('stops holding once expired, even before the job runs', async () => {
    const id = await mixer();
    await join(id, await person());
    await invite(id, await person(), { expiresAt: new Date(Date.now() - 60_000) });
    expect((await join(id, await person())).json().state).toBe('joined');
  });
});

describe('GET /api/invitations', () => {
  it('lists my pending invitations with their mixer card and why, and only mine', async () => {
    const id = await mixer({ title: 'Bouldering in Leeds' });
    const me = await person();
    const other = await person();
    await invite(id, other);
    const inv = await invite(id, me);
    const res = await t.request({ method: 'GET', url: '/api/invitations', cookie: me.cookie });
    expect(res.statusCode).toBe(200);
    const body = res.json() as InvitationList;
    expect(body.pending.map((p) => p.id)).toEqual([inv]);
    expect(body.pending[0].mixer).toMatchObject({ id, title: 'Bouldering in Leeds', topic: 'Bouldering' });
    expect(body.pending[0].why).toMatch(/^1 other person who loves Bouldering is free \w+day (morning|afternoon|evening)$/);
    expect(body.pending[0].expiresAt).toBeTruthy();

    // Soonest first: a later mixer whose hold ends sooner still comes after.
    const later = await mixer({ startsAt: new Date(Date.now() + 96 * HOUR), endsAt: new Date(Date.now() + 97 * HOUR) });
    const laterInv = await invite(later, me, { expiresAt: new Date(Date.now() + HOUR) });
    const both = (await t.request({ method: 'GET', url: '/api/invitations', cookie: me.cookie })).json() as InvitationList;
    expect(both.pending.map((p) => p.id)).toEqual([inv, laterInv]);
  });

  it('needs a signed-in, verified member', async () => {
    expect((await t.request({ method: 'GET', url: '/api/invitations' })).statusCode).toBe(401);
    const unverified = await t.member('Unverified Person', { verified: false });
    expect((await t.request({ method: 'GET', url: '/api/invitations', cookie: unverified.cookie })).statusCode).toBe(403);
  });
});

describe('POST /api/invitations/:id/accept', () => {
  it('takes the held seat on its side; a second accept answers the same; audited', async () => {
    const id = await mixer({ intent: 'Dating', seatPlan: straight(1) });
    const invited = await person(man);
    const inv = await invite(id, invited, { side: 'men-into-women' });
    const first = await accept(inv, invited);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'accepted', mixerId: id });
    expect(await stateOf(id, invited.id)).toEqual({ state: 'joined', side: 'men-into-women' });
    expect(await statusOf(inv)).toBe('accepted');
    const again = await accept(inv, invited);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'accepted', mixerId: id });
    const rows = await auditOf(inv);
    expect(rows.map((r) => [r.action, r.actorId])).toEqual([['invitation.accepted', invited.id]]);
    // The seat is now joined, not held twice.
    expect((await detail(id, invited)).seats.find((s) => s.key === 'men-into-women')).toMatchObject({ joined: 1, held: 0 });
  });

  it('refuses expired, declined, withdrawn and other members’ invitations with clear messages', async () => {
    const id = await mixer({ maxParticipants: 6 });
    const me = await person();
    const someone = await person();
    const expired = await invite(id, me, { expiresAt: new Date(Date.now() - 1000) });
    const expiredRes = await accept(expired, me);
    expect(expiredRes.statusCode).toBe(409);
    expect(expiredRes.json().error.message).toBe(INVITATION_MESSAGES.expired);

    const id2 = await mixer({ maxParticipants: 6 });
    const declined = await invite(id2, me, { status: 'declined' });
    expect((await accept(declined, me)).json().error).toEqual({ code: 'conflict', message: INVITATION_MESSAGES.declined });

    const id3 = await mixer({ maxParticipants: 6 });
    const withdrawn = await invite(id3, me, { status: 'withdrawn' });
    expect((await accept(withdrawn, me)).json().error).toEqual({ code: 'conflict', message: INVITATION_MESSAGES.withdrawn });

    const theirs = await invite(id3, someone);
    const notMine = await accept(theirs, me);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().error.message).toBe(INVITATION_MESSAGES.notFound);
    expect(await statusOf(theirs)).toBe('pending');

    const bad = await accept('not-a-uuid', me);
    expect(bad.statusCode).toBe(400);
    for (const mixerId of [id, id2, id3]) expect(await stateOf(mixerId, me.id)).toBeUndefined();
  });

  it('refuses when the mixer has started or the member no longer fits its audience', async () => {
    const me = await person();
    const started = await mixer({ status: 'live', startsAt: new Date(Date.now() - 60_000) });
    const inv = await invite(started, me);
    const res = await accept(inv, me);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(INVITATION_MESSAGES.started);

    const far = await mixer({ audienceRegion: 'South East' });
    const inv2 = await invite(far, me);
    const res2 = await accept(inv2, me);
    expect(res2.statusCode).toBe(403);
    expect(res2.json().error.code).toBe('not_for_you');
    expect(res2.json().error.message).toBe(INVITATION_MESSAGES.noLongerFits);
    expect(await stateOf(far, me.id)).toBeUndefined();
    // It closed at once: no longer pending, its seat no longer held, and a second try says so.
    const [closed] = await t.database.db
      .select({ status: mixerInvitations.status })
      .from(mixerInvitations)
      .where(eq(mixerInvitations.id, inv2));
    expect(closed.status).toBe('withdrawn');
    expect((await accept(inv2, me)).json().error.message).toBe(INVITATION_MESSAGES.withdrawn);
  });

  it('tells a member who accepted and then left how to come back', async () => {
    const me = await person();
    const id = await mixer();
    const inv = await invite(id, me);
    expect((await accept(inv, me)).statusCode).toBe(200);
    const left = await t.request({ method: 'POST', url: `/api/mixers/${id}/leave`, cookie: me.cookie, payload: {} });
    expect(left.statusCode).toBe(200);
    const again = await accept(inv, me);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(INVITATION_MESSAGES.acceptedThenLeft);
  });

  it('withdraws pending invitations when an admin cancels the mixer', async () => {
    const admin = await t.member('Admin Person', { admin: true });
    const me = await person();
    const id = await mixer();
    const inv = await invite(id, me);
    const cancel = await t.request({
      method: 'POST',
      url: `/api/admin/mixers/${id}/cancel`,
      cookie: admin.cookie,
      payload: { reason: 'The venue closed for the day.' },
    });
    expect(cancel.statusCode).toBe(200);
    expect(await statusOf(inv)).toBe('withdrawn');
    expect((await accept(inv, me)).json().error.message).toBe(INVITATION_MESSAGES.withdrawn);
  });
});

describe('POST /api/invitations/:id/decline', () => {
  it('releases the seat to the first member waiting on that side, who is told', async () => {
    const id = await mixer({ intent: 'Dating', seatPlan: straight(1), maxParticipants: 2 });
    const invited = await person();
    const waitingMan = await person(man);
    const waitingWoman = await person();
    const inv = await invite(id, invited, { side: 'women-into-men' });
    // The men's seat is taken by a man; the women's seat is held.
    await join(id, await person(man));
    expect((await join(id, waitingMan, true)).json().state).toBe('waitlisted');
    expect((await join(id, waitingWoman, true)).json().state).toBe('waitlisted');

    const res = await decline(inv, invited);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'declined', mixerId: id });
    expect(await statusOf(inv)).toBe('declined');
    expect(await stateOf(id, waitingWoman.id)).toEqual({ state: 'joined', side: 'women-into-men' });
    expect(await stateOf(id, waitingMan.id)).toEqual({ state: 'waitlisted', side: 'men-into-women' });
    expect((await t.mailsTo(waitingWoman.email))[0].subject).toMatch(/^You're in: /);
    expect((await auditOf(inv)).map((r) => [r.action, r.actorId])).toEqual([['invitation.declined', invited.id]]);

    // Declining again answers the same; accepting now is refused.
    expect((await decline(inv, invited)).statusCode).toBe(200);
    expect((await accept(inv, invited)).json().error.message).toBe(INVITATION_MESSAGES.declined);
  });
});

describe('expiry', () => {
  it('expires past holds and releases each seat once, even with two runs at the same time', async () => {
    const id = await mixer();
    await join(id, await person());
    const invited = await person();
    const inv = await invite(id, invited, { expiresAt: new Date(Date.now() + 5 * 60_000) });
    const waiting = await person();
    expect((await join(id, waiting, true)).json().state).toBe('waitlisted');

    const publish = async () => {};
    const later = new Date(Date.now() + 10 * 60_000);
    const [a, b] = await Promise.all([expireInvitations(t.deps, publish, later), expireInvitations(t.deps, publish, later)]);
    expect(await statusOf(inv)).toBe('expired');
    expect((await auditOf(inv)).map((r) => [r.action, r.actorId])).toEqual([['invitation.expired', null]]);
    expect(await stateOf(id, waiting.id)).toEqual({ state: 'joined', side: 'all' });
    const promotedMails = (await t.mailsTo(waiting.email)).filter((m) => m.subject.startsWith("You're in"));
    expect(promotedMails).toHaveLength(1);
    // Every invitation past its hold (this one and other tests') expired exactly once across both runs.
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'invitation.expired'))).toHaveLength(a + b);
    expect(await expireInvitations(t.deps, publish, later)).toBe(0);
    expect((await accept(inv, invited)).json().error.message).toBe(INVITATION_MESSAGES.expired);
  });
});

describe('waitlist priority', () => {
  it('gives a freed seat to a reliable member before one who waited longer', async () => {
    const seated = await person();
    const newcomer = await person();
    const reliable = await person();
    const id = await mixer({ maxParticipants: 1 });
    await join(id, seated);
    expect((await join(id, newcomer, true)).json().state).toBe('waitlisted');
    expect((await join(id, reliable, true)).json().state).toBe('waitlisted');
    for (let i = 0; i < 3; i++) {
      const past = await mixer({
        status: 'ended',
        startsAt: new Date(Date.now() - (50 + i) * HOUR),
        endsAt: new Date(Date.now() - (49 + i) * HOUR),
      });
      await t.database.db.insert(mixerAttendance).values({ mixerId: past, userId: reliable.id, outcome: 'attended' });
    }
    // The waitlist position shown follows the same order.
    expect((await detail(id, reliable)).waitlistPosition).toBe(1);
    expect((await detail(id, newcomer)).waitlistPosition).toBe(2);
    expect((await t.request({ method: 'POST', url: `/api/mixers/${id}/leave`, cookie: seated.cookie, payload: {} })).statusCode).toBe(200);
    expect(await stateOf(id, reliable.id)).toEqual({ state: 'joined', side: 'all' });
    expect(await stateOf(id, newcomer.id)).toEqual({ state: 'waitlisted', side: 'all' });
  });
});

describe('announceInvitations', () => {
  it('mails each invited member with the time and how long the seat is held, unless they turned it off', async () => {
    const id = await mixer({ title: 'Bouldering at the wall' });
    const keen = await person();
    const quiet = await person({ preferences: { notifyInvitations: false } });
    const a = await invite(id, keen);
    const b = await invite(id, quiet);
    await announceInvitations(t.app, [a, b]);
    const [mail] = await t.mailsTo(keen.email);
    expect(mail.subject).toBe("You're invited: Bouldering at the wall");
    expect(mail.text).toContain('Your seat is held until');
    expect(mail.text).toContain(`/mixers/${id}`);
    expect((await t.mailsTo(quiet.email)).filter((m) => m.subject.startsWith("You're invited"))).toHaveLength(0);
    // Announcing an invitation that is no longer pending does nothing.
    await t.database.db.update(mixerInvitations).set({ status: 'declined' }).where(eq(mixerInvitations.id, a));
    await announceInvitations(t.app, [a]);
    expect((await t.mailsTo(keen.email)).filter((m) => m.subject.startsWith("You're invited"))).toHaveLength(1);
  });
});
