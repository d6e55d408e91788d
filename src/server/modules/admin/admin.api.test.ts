import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cookieHeader, createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import {
  ADMIN_MESSAGES,
  type AdminMixer,
  type AdminReport,
  type CampaignsOverview,
  type Page,
  type SuggestionsOverview,
  type SuspendedMember,
} from '../../../shared/schemas/admin';
import { MODERATION_MESSAGES, RULES } from '../../../shared/schemas/moderation';
import {
  auditLog,
  interestSuggestions,
  mixerMemberships,
  moderationActions,
  mixerMessages,
  mixers,
  predefinedInterests,
  profiles,
  reports,
  session,
  user,
} from '../../db/schema';
import { REMINDER_ACTION } from '../../lib/mixer-reminders';

let t: TestApp;
const published: { room: string; event: ServerEvent }[] = [];
let wsUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  const original = t.app.realtime.publish.bind(t.app.realtime);
  t.app.realtime.publish = (room, event) => {
    published.push({ room, event });
    return original(room, event);
  };
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
});

type Member = { id: string; email: string; cookie: string };
const HOUR = 3_600_000;
const db = () => t.database.db;

const get = (url: string, cookie?: string) => t.request({ method: 'GET', url, cookie });
const post = (url: string, payload: unknown, cookie?: string) => t.request({ method: 'POST', url, payload: payload as object, cookie });
const put = (url: string, payload: unknown, cookie?: string) => t.request({ method: 'PUT', url, payload: payload as object, cookie });

async function suggest(m: Member, ...interests: string[]) {
  const res = await post('/api/interest-suggestions', { interests }, m.cookie);
  expect(res.statusCode).toBeLessThan(300);
}

/**
 * A suggestion made before its interest was listed (or before the refusal of listed ones existed):
 * a member can no longer send one now, but it can still wait in the admins' queue.
 */
async function suggestedEarlier(m: Member, ...interests: string[]) {
  await db()
    .insert(interestSuggestions)
    .values(interests.map((submittedInterest) => ({ userId: m.id, submittedInterest, fullName: m.email })));
}

async function onboarded(name: string): Promise<Member> {
  const m = await t.member(name);
  await db()
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1994-03-02', cityRegion: 'Leeds', lookingFor: ['Friends'] })
    .where(eq(profiles.id, m.id));
  return m;
}

async function insertMixer(values: Partial<typeof mixers.$inferInsert> = {}): Promise<string> {
  const now = Date.now();
  const [row] = await db()
    .insert(mixers)
    .values({
      title: 'Fixture mixer',
      topic: 'Testing',
      status: 'scheduled',
      startsAt: new Date(now + 24 * HOUR),
      endsAt: new Date(now + 25 * HOUR),
      maxParticipants: 8,
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const futureIso = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / 60_000) * 60_000).toISOString();

const mixerInput = (over: Record<string, unknown> = {}) => ({
  title: 'Sunday board game brunch',
  topic: 'Board games',
  description: 'Bring your favourite quick game and an appetite.',
  theme: 'citrus',
  tags: ['Board games'],
  intent: 'Friends',
  startsAt: futureIso(48),
  durationMinutes: 60,
  maxParticipants: 6,
  icebreaker: '',
  ...over,
});

async function auditActions(target?: string) {
  const rows = await db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, target: auditLog.target, createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(target ? eq(auditLog.target, target) : sql`true`);
  return rows;
}

describe('authorization: every admin route × anonymous / unverified / member / admin', () => {
  it('answers 401 signed out, 403 to members (verified or not), and succeeds for admins', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const member = await t.member('Mo Member');
    const unverified = await t.member('Una Unverified', { verified: false });

    // Fixtures for the admin's successful calls.
    await suggest(member, 'Authz approve', 'Authz reject');
    const editMixer = await insertMixer({ title: 'Authz edit' });
    const cancelMixerId = await insertMixer({ title: 'Authz cancel' });
    const reported = await t.member('Rex Reported');
    const [report] = await db()
      .insert(reports)
      .values({ reporterId: member.id, reportedId: reported.id, reason: 'Spam or scam', details: 'Links to a shop' })
      .returning({ id: reports.id });
    // A running suspension by another admin (the one who suspends may not lift).
    const banned = await t.member('Bea Banned');
    await db().update(user).set({ banned: true, banReason: 'Fixture' }).where(eq(user.id, banned.id));
    const [suspension] = await db()
      .insert(moderationActions)
      .values({ memberId: banned.id, action: 'suspend', rule: 'scams', days: 7, endsAt: new Date(Date.now() + 7 * 24 * HOUR) })
      .returning({ id: moderationActions.id });

    const reason = { reason: 'Checked the messages: nothing against the rules.' };
    const routes: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown; ok: number }[] = [
      { method: 'GET', url: '/api/admin/overview', ok: 200 },
      { method: 'GET', url: '/api/admin/audit', ok: 200 },
      { method: 'GET', url: '/api/admin/interest-suggestions', ok: 200 },
      {
        method: 'POST',
        url: '/api/admin/interest-suggestions/approve',
        payload: { text: 'Authz approve', category: 'Lifestyle' },
        ok: 200,
      },
      { method: 'POST', url: '/api/admin/interest-suggestions/reject', payload: { text: 'Authz reject' }, ok: 200 },
      { method: 'GET', url: '/api/admin/metrics', ok: 200 },
      { method: 'GET', url: '/api/admin/mixers', ok: 200 },
      {
        method: 'POST',
        url: '/api/admin/mixers/audience-preview',
        payload: { region: null, ageMin: 18, ageMax: 99, seatPlan: [] },
        ok: 200,
      },
      { method: 'POST', url: '/api/admin/mixers', payload: mixerInput({ title: 'Authz create' }), ok: 201 },
      {
        method: 'PUT',
        url: `/api/admin/mixers/${editMixer}`,
        payload: mixerInput({ title: 'Authz edited', startsAt: futureIso(30) }),
        ok: 200,
      },
      { method: 'POST', url: `/api/admin/mixers/${cancelMixerId}/cancel`, payload: { reason: 'The host is unwell today.' }, ok: 200 },
      { method: 'GET', url: '/api/admin/campaigns', ok: 200 },
      { method: 'POST', url: '/api/admin/campaigns', payload: { label: 'Authz flyers', code: 'AUTHZ1' }, ok: 201 },
      { method: 'GET', url: '/api/admin/reports', ok: 200 },
      { method: 'GET', url: '/api/admin/reports?status=resolved', ok: 200 },
      { method: 'POST', url: `/api/admin/reports/${report.id}/act`, payload: { action: 'dismiss' }, ok: 200 },
      { method: 'GET', url: '/api/admin/members/suspended', ok: 200 },
      { method: 'POST', url: `/api/admin/suspensions/${suspension.id}/lift`, payload: reason, ok: 200 },
    ];

    for (const r of routes) {
      const call = (cookie?: string) => t.request({ method: r.method, url: r.url, payload: r.payload as object, cookie });
      const anon = await call();
      expect(anon.statusCode, `${r.method} ${r.url} anonymous`).toBe(401);
      expect(anon.json().error.code).toBe('unauthenticated');
      // Even a bad body is refused on the role first.
      if (r.payload) expect((await t.request({ method: r.method, url: r.url, payload: {}, cookie: member.cookie })).statusCode).toBe(403);
      expect((await call(unverified.cookie)).statusCode, `${r.method} ${r.url} unverified`).toBe(403);
      const asMember = await call(member.cookie);
      expect(asMember.statusCode, `${r.method} ${r.url} member`).toBe(403);
      expect(asMember.json().error.code).toBe('forbidden');
    }
    // Nothing changed for the refused calls.
    expect(await auditActions()).toEqual([]);
    const [stillBanned] = await db().select({ banned: user.banned }).from(user).where(eq(user.id, banned.id));
    expect(stillBanned.banned).toBe(true);

    for (const r of routes) {
      const res = await t.request({ method: r.method, url: r.url, payload: r.payload as object, cookie: admin.cookie });
      expect(res.statusCode, `${r.method} ${r.url} admin: ${res.body}`).toBe(r.ok);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Every action is in the audit log with who did it.
    const actions = await auditActions();
    expect(actions.map((a) => a.action).sort()).toEqual(
      [
        'campaign.create',
        'moderation.lift',
        'mixer.cancel',
        'mixer.create',
        'mixer.update',
        'moderation.dismiss',
        'suggestion.approve',
        'suggestion.reject',
      ].sort(),
    );
    expect(actions.every((a) => a.actorId === admin.id && a.createdAt instanceof Date)).toBe(true);
  });
});

describe('interest suggestions', () => {
  it('groups duplicates case-insensitively and approving adds the interest once, marking every duplicate approved', async () => {
    const admin = await t.member('Ivy Admin', { admin: true });
    const a = await t.member('Ann Suggester');
    const b = await t.member('Bob Suggester');
    const c = await t.member('Cat Suggester');
    await suggest(a, 'Kite surfing');
    await suggest(b, '  kite   SURFING ');
    await suggest(c, 'Kite surfing', 'Urban beekeeping');

    const list = (await get('/api/admin/interest-suggestions', admin.cookie)).json() as SuggestionsOverview;
    const kite = list.pending.find((g) => g.key === 'kite surfing');
    expect(kite).toMatchObject({ text: 'Kite surfing', count: 3, members: 3, inCatalogue: false });
    expect(kite?.suggesters.map((s) => s.name).sort()).toEqual(['Ann Suggester', 'Bob Suggester', 'Cat Suggester']);
    expect(list.pending.find((g) => g.key === 'urban beekeeping')?.count).toBe(1);

    // The public catalogue is cached: read it first so approval must invalidate it.
    const before = (await get('/api/catalog/interests')).json().interests as { name: string }[];
    expect(before.some((i) => i.name === 'Kite surfing')).toBe(false);

    const res = await post('/api/admin/interest-suggestions/approve', { text: 'KITE Surfing', category: 'Sports & Fitness' }, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Kite surfing', category: 'Sports & Fitness', added: true, approved: 3 });

    const inCatalogue = await db().select().from(predefinedInterests).where(sql`lower(${predefinedInterests.name}) = 'kite surfing'`);
    expect(inCatalogue).toHaveLength(1);
    expect(inCatalogue[0]).toMatchObject({ name: 'Kite surfing', category: 'Sports & Fitness', isActive: true });
    const rows = await db()
      .select({ status: interestSuggestions.status, decidedBy: interestSuggestions.decidedBy })
      .from(interestSuggestions)
      .where(sql`lower(btrim(${interestSuggestions.submittedInterest})) like 'kite%'`);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === 'approved' && r.decidedBy === admin.id)).toBe(true);

    const after = (await get('/api/catalog/interests')).json().interests as { name: string; category: string }[];
    expect(after.filter((i) => i.name.toLowerCase() === 'kite surfing')).toEqual([
      expect.objectContaining({ category: 'Sports & Fitness' }),
    ]);
    // The suggesters hear about it.
    expect(published.filter((p) => p.room === `user:${b.id}` && p.event.type === 'notice')).toHaveLength(1);

    // Nothing pending with that text any more; a later duplicate suggestion does not add it twice.
    expect(
      (await post('/api/admin/interest-suggestions/approve', { text: 'kite surfing', category: 'Lifestyle' }, admin.cookie)).statusCode,
    ).toBe(404);
    // A member is told it is listed now; one sent before it was waits in the queue.
    expect((await post('/api/interest-suggestions', { interests: ['kite surfing'] }, a.cookie)).statusCode).toBe(400);
    await suggestedEarlier(a, 'kite surfing');
    const again = await post('/api/admin/interest-suggestions/approve', { text: 'kite surfing', category: 'Lifestyle' }, admin.cookie);
    expect(again.json()).toMatchObject({ name: 'Kite surfing', category: 'Sports & Fitness', added: false, approved: 1 });
    expect(await db().select().from(predefinedInterests).where(sql`lower(${predefinedInterests.name}) = 'kite surfing'`)).toHaveLength(1);

    // History: decisions with who and when.
    const history = ((await get('/api/admin/interest-suggestions', admin.cookie)).json() as SuggestionsOverview).history;
    expect(history[0]).toMatchObject({ decision: 'approved', name: 'Kite surfing', count: 1, decidedBy: 'Ivy Admin' });
    expect(history[1]).toMatchObject({ decision: 'approved', name: 'Kite surfing', category: 'Sports & Fitness', count: 3 });
  });

  it('approves a suggestion that is already in the catalogue without a duplicate, and rejects with a note', async () => {
    const admin = await t.member('Ian Admin', { admin: true });
    const m = await t.member('Meg Member');
    await suggestedEarlier(m, 'board GAMES');
    await suggest(m, 'Competitive napping');
    const approved = await post('/api/admin/interest-suggestions/approve', { text: 'board games', category: 'Lifestyle' }, admin.cookie);
    expect(approved.json()).toMatchObject({ added: false, approved: 1 });
    expect(await db().select().from(predefinedInterests).where(sql`lower(${predefinedInterests.name}) = 'board games'`)).toHaveLength(1);

    const rejected = await post(
      '/api/admin/interest-suggestions/reject',
      { text: 'competitive napping', note: 'Not a real hobby' },
      admin.cookie,
    );
    expect(rejected.json()).toEqual({ rejected: 1 });
    const [row] = await db()
      .select({ status: interestSuggestions.status })
      .from(interestSuggestions)
      .where(eq(interestSuggestions.submittedInterest, 'Competitive napping'));
    expect(row.status).toBe('rejected');
    const history = ((await get('/api/admin/interest-suggestions', admin.cookie)).json() as SuggestionsOverview).history;
    expect(history[0]).toMatchObject({
      decision: 'rejected',
      text: 'Competitive napping',
      note: 'Not a real hobby',
      decidedBy: 'Ian Admin',
    });

    const bad = await post('/api/admin/interest-suggestions/approve', { text: 'x', category: 'Nope' }, admin.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.category).toBe(ADMIN_MESSAGES.categoryRequired);
  });
});

describe('mixers', () => {
  it('creates a mixer members then see, validates it, edits it and cancels it telling joined members', async () => {
    const admin = await t.member('Mia Admin', { admin: true });
    const joiner = await onboarded('Jo Joiner');

    for (const [over, field, message] of [
      [{ maxParticipants: 3 }, 'maxParticipants', ADMIN_MESSAGES.capacity],
      [{ maxParticipants: 11 }, 'maxParticipants', ADMIN_MESSAGES.capacity],
      [{ tags: ['Not an interest'] }, 'tags', ADMIN_MESSAGES.tagUnknown],
      [{ startsAt: new Date(Date.now() - HOUR).toISOString() }, 'startsAt', ADMIN_MESSAGES.startInPast],
      [{ durationMinutes: 5 }, 'durationMinutes', ADMIN_MESSAGES.duration],
      [{ theme: 'neon' }, 'theme', 'Please choose a theme'],
      [{ title: '' }, 'title', ADMIN_MESSAGES.titleRequired],
    ] as const) {
      const res = await post('/api/admin/mixers', mixerInput(over), admin.cookie);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.fields[field]).toBe(message);
    }

    const created = await post('/api/admin/mixers', mixerInput({ tags: ['board games', 'Pub quizzes'] }), admin.cookie);
    expect(created.statusCode).toBe(201);
    const mixer = created.json() as AdminMixer;
    expect(mixer).toMatchObject({ status: 'scheduled', maxParticipants: 6, durationMinutes: 60, tags: ['Board games', 'Pub quizzes'] });

    // Members see it in the upcoming list and can join.
    const upcoming = (await get('/api/mixers?section=upcoming&limit=50', joiner.cookie)).json() as { items: { id: string }[] };
    expect(upcoming.items.some((i) => i.id === mixer.id)).toBe(true);
    expect((await post(`/api/mixers/${mixer.id}/join`, {}, joiner.cookie)).statusCode).toBe(200);

    // Capacity cannot drop below who joined; an edit of the time tells members.
    const edited = await put(
      `/api/admin/mixers/${mixer.id}`,
      mixerInput({ title: 'Board game brunch', startsAt: futureIso(72) }),
      admin.cookie,
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Board game brunch', participantCount: 1 });
    expect((await t.mailsTo(joiner.email))[0].subject).toBe('New time: Board game brunch');

    const list = (await get('/api/admin/mixers?view=active', admin.cookie)).json() as Page<AdminMixer>;
    expect(list.items.find((i) => i.id === mixer.id)).toMatchObject({ title: 'Board game brunch', participantCount: 1 });

    const noReason = await post(`/api/admin/mixers/${mixer.id}/cancel`, { reason: '' }, admin.cookie);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.message).toBe(ADMIN_MESSAGES.reasonRequired);

    const cancelled = await post(`/api/admin/mixers/${mixer.id}/cancel`, { reason: 'Our host has flu, sorry!' }, admin.cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const [mail] = await t.mailsTo(joiner.email);
    expect(mail.subject).toBe('Cancelled: Board game brunch');
    expect(mail.text).toContain('Our host has flu, sorry!');
    expect(published.some((p) => p.room === `user:${joiner.id}` && p.event.type === 'notice' && p.event.title === 'Mixer cancelled')).toBe(
      true,
    );
    const detail = await get(`/api/mixers/${mixer.id}`, joiner.cookie);
    expect(detail.json().status).toBe('cancelled');

    expect((await post(`/api/admin/mixers/${mixer.id}/cancel`, { reason: 'Again, sorry.' }, admin.cookie)).statusCode).toBe(409);
    expect((await put(`/api/admin/mixers/${mixer.id}`, mixerInput(), admin.cookie)).statusCode).toBe(409);
    expect((await get('/api/admin/mixers?view=cancelled', admin.cookie)).json().items.some((i: AdminMixer) => i.id === mixer.id)).toBe(
      true,
    );
    expect((await post('/api/admin/mixers/not-a-uuid/cancel', { reason: 'Whatever it is.' }, admin.cookie)).statusCode).toBe(400);
  });

  it('keeps a live mixer start time, refuses a capacity below the joined count and seats the waitlist when raised', async () => {
    const admin = await t.member('Max Admin', { admin: true });
    const now = Date.now();
    const id = await insertMixer({
      status: 'live',
      startsAt: new Date(now - HOUR / 2),
      endsAt: new Date(now + HOUR / 2),
      maxParticipants: 4,
    });
    const members = await Promise.all(['Ali', 'Bo', 'Cy', 'Di', 'Ed'].map((n) => t.member(n)));
    for (const [i, m] of members.entries()) {
      await db()
        .insert(mixerMemberships)
        .values({ mixerId: id, userId: m.id, state: i < 4 ? 'joined' : 'waitlisted', joinedAt: new Date(now - HOUR + i * 1000) });
    }
    const [row] = await db().select().from(mixers).where(eq(mixers.id, id));
    const base = mixerInput({ startsAt: row.startsAt.toISOString(), durationMinutes: 90, tags: [] });

    const moved = await put(`/api/admin/mixers/${id}`, { ...base, startsAt: futureIso(5) }, admin.cookie);
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error.message).toBe(ADMIN_MESSAGES.mixerStarted);

    const same = await put(`/api/admin/mixers/${id}`, { ...base, maxParticipants: 4 }, admin.cookie);
    expect(same.json()).toMatchObject({ participantCount: 4, waitlistCount: 1, durationMinutes: 90 });

    const raised = await put(`/api/admin/mixers/${id}`, { ...base, maxParticipants: 5 }, admin.cookie);
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({ participantCount: 5, waitlistCount: 0, durationMinutes: 90 });
    const [ed] = await db()
      .select({ state: mixerMemberships.state })
      .from(mixerMemberships)
      .where(and(eq(mixerMemberships.mixerId, id), eq(mixerMemberships.userId, members[4].id)));
    expect(ed.state).toBe('joined');

    const below = await put(`/api/admin/mixers/${id}`, { ...base, maxParticipants: 4 }, admin.cookie);
    expect(below.statusCode).toBe(409);
    expect(below.json().error.fields.maxParticipants).toBe(ADMIN_MESSAGES.capacityBelowJoined(5));
  });
});

describe('campaigns', () => {
  it('creates campaigns with unique codes and counts their sign-ups and completed onboardings', async () => {
    const admin = await t.member('Cal Admin', { admin: true });
    const res = await post(
      '/api/admin/campaigns',
      { label: 'Freshers fair Leeds', code: 'LEEDS-FRESH', source: 'poster', medium: 'print', campaign: 'freshers' },
      admin.cookie,
    );
    expect(res.statusCode).toBe(201);
    const dup = await post('/api/admin/campaigns', { label: 'Other', code: 'leeds-fresh' }, admin.cookie);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields.code).toBe(ADMIN_MESSAGES.codeTaken);
    const bad = await post('/api/admin/campaigns', { label: '', code: 'no spaces' }, admin.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toMatchObject({ label: ADMIN_MESSAGES.labelRequired, code: ADMIN_MESSAGES.codeInvalid });

    const register = (email: string, code: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '10.9.9.9',
        payload: {
          fullName: 'Campaign Person',
          email,
          password: TEST_PASSWORD,
          campaign: { utm_source: 'poster', utm_medium: 'print', utm_campaign: 'freshers', campaign_code: code, campaign_label: '' },
        },
      });
    expect((await register('fresh1@example.com', 'LEEDS-FRESH')).statusCode).toBe(200);
    expect((await register('fresh2@example.com', 'leeds-fresh')).statusCode).toBe(200);
    expect((await register('fresh3@example.com', 'UNKNOWN-CODE')).statusCode).toBe(200);
    const [done] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'fresh1@example.com'));
    await db().update(profiles).set({ onboardingCompleted: true }).where(eq(profiles.id, done.id));

    const list = (await get('/api/admin/campaigns', admin.cookie)).json() as CampaignsOverview;
    expect(list.campaigns.find((c) => c.code === 'LEEDS-FRESH')).toMatchObject({
      label: 'Freshers fair Leeds',
      source: 'poster',
      signups: 2,
      verified: 0,
      completed: 1,
      createdBy: 'Cal Admin',
    });
    expect(list.untracked).toContainEqual({ source: 'poster', campaign: 'freshers', code: 'UNKNOWN-CODE', signups: 1, completed: 0 });
  });
});

function connect(cookie: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie } });
  const events: ServerEvent[] = [];
  socket.on('message', (raw) => {
    try {
      events.push(JSON.parse(raw.toString()));
    } catch {
      // ignore
    }
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket not ready')), 5000);
    socket.on('message', (raw) => {
      if (String(raw).includes('"ready"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { socket, events, ready, closed };
}

describe('reports and suspension', () => {
  it('a member report reaches the queue with its context; dismiss and warn tell the right people', async () => {
    const admin = await t.member('Rhea Admin', { admin: true });
    const reporter = await t.member('Polly Reporter');
    const reported = await t.member('Vic Reported');
    const mixerId = await insertMixer({
      title: 'Pub quiz night',
      status: 'live',
      startsAt: new Date(Date.now() - HOUR),
      endsAt: new Date(Date.now() + HOUR),
    });
    await db()
      .insert(mixerMessages)
      .values([
        { mixerId, senderId: reported.id, body: 'Everyone here is boring', createdAt: new Date(Date.now() - 20 * 60_000) },
        { mixerId, senderId: reporter.id, body: 'That is not nice', createdAt: new Date(Date.now() - 15 * 60_000) },
        { mixerId, senderId: reported.id, body: 'Give me your number now', createdAt: new Date(Date.now() - 10 * 60_000) },
      ]);
    const sent = await post(
      '/api/reports',
      { userId: reported.id, mixerId, reason: 'Harassment or bullying', details: 'Kept asking for my number' },
      reporter.cookie,
    );
    expect(sent.statusCode).toBe(201);

    const queue = (await get('/api/admin/reports', admin.cookie)).json() as Page<AdminReport>;
    const item = queue.items.find((r) => r.id === sent.json().id);
    expect(item).toMatchObject({
      status: 'open',
      reason: 'Harassment or bullying',
      details: 'Kept asking for my number',
      reporter: { id: reporter.id, name: 'Polly Reporter' },
      reported: { id: reported.id, name: 'Vic Reported', suspended: false, reportsTotal: 1, warnings: 0 },
      mixer: { id: mixerId, title: 'Pub quiz night' },
    });
    expect(item?.mixerMessages.map((m) => m.body)).toEqual(['Everyone here is boring', 'Give me your number now']);

    const act = (id: string | undefined, body: object) => post(`/api/admin/reports/${id}/act`, body, admin.cookie);
    const warn = await act(item?.id, { action: 'warn', rule: 'hate', note: 'Asking for numbers in a group chat.' });
    expect(warn.json()).toMatchObject({ status: 'warned' });
    const [warning] = await t.mailsTo(reported.email);
    expect(warning.subject).toBe('Warning: a decision about your Fancy account');
    expect(warning.text).toContain(RULES.hate);
    expect((await t.mailsTo(reporter.email))[0].subject).toBe('About your report');
    expect((await act(item?.id, { action: 'dismiss' })).statusCode).toBe(409);

    const resolved = (await get('/api/admin/reports?status=resolved', admin.cookie)).json() as Page<AdminReport>;
    expect(resolved.items.find((r) => r.id === item?.id)).toMatchObject({
      status: 'warned',
      resolution: RULES.hate,
      resolvedBy: 'Rhea Admin',
      reported: { warnings: 1 },
    });

    const second = await post('/api/reports', { userId: reported.id, reason: 'Spam or scam', details: '' }, reporter.cookie);
    const dismissed = await act(second.json().id, { action: 'dismiss', note: 'We found no spam in the messages.' });
    expect(dismissed.json()).toMatchObject({ status: 'dismissed' });
    const [thanks] = await t.mailsTo(reporter.email);
    expect(thanks.text).toContain('did not find a breach of our rules');
    const handled = (await get('/api/admin/reports?status=resolved', admin.cookie)).json() as Page<AdminReport>;
    expect(handled.items.find((r) => r.id === second.json().id)?.resolution).toBe('We found no spam in the messages.');
    // Every action but a dismissal names a rule.
    const third = await post('/api/reports', { userId: reported.id, reason: 'Spam or scam', details: '' }, reporter.cookie);
    const missing = await act(third.json().id, { action: 'warn' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.rule).toBe(MODERATION_MESSAGES.ruleRequired);
  });

  it('suspension ends the member’s sessions and open sockets at once, locks them out, and another admin can lift it', async () => {
    const admin = await t.member('Sam Admin', { admin: true });
    const other = await t.member('Ola Admin', { admin: true });
    const reporter = await t.member('Ria Reporter');
    const bad = await t.member('Zed Suspended');
    const otherReporter = await t.member('Oli Reporter');
    // Two sessions: a laptop with the app open (socket) and a phone.
    const laptop = bad.cookie;
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: bad.email, password: TEST_PASSWORD } });
    const phone = cookieHeader(login.headers['set-cookie']);
    expect((await get('/api/stats', phone)).statusCode).toBe(200);
    expect((await db().select().from(session).where(eq(session.userId, bad.id))).length).toBeGreaterThanOrEqual(2);

    const socket = connect(laptop);
    await socket.ready;
    const r1 = (await post('/api/reports', { userId: bad.id, reason: 'Fake profile', details: 'Stock photos' }, reporter.cookie)).json().id;
    const r2 = (
      await post('/api/reports', { userId: bad.id, reason: 'Spam or scam', details: 'Crypto links' }, otherReporter.cookie)
    ).json().id;

    const res = await post(`/api/admin/reports/${r1}/act`, { action: 'suspend', rule: 'scams', days: 7 }, admin.cookie);
    expect(res.json()).toMatchObject({ status: 'suspended' });

    // The open socket ends at once, with the reason.
    expect(await socket.closed).toEqual({ code: 4001, reason: 'suspended' });
    // Every session is gone; the cookie no longer works.
    expect(await db().select().from(session).where(eq(session.userId, bad.id))).toEqual([]);
    expect((await get('/api/stats', phone)).statusCode).toBe(401);
    const [row] = await db().select({ banned: user.banned, banReason: user.banReason }).from(user).where(eq(user.id, bad.id));
    expect(row).toEqual({ banned: true, banReason: RULES.scams });
    // Signing in is refused with better-auth's suspension message.
    const relogin = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: bad.email, password: TEST_PASSWORD } });
    expect(relogin.statusCode).toBe(403);
    expect(relogin.json().error.message).toMatch(/suspended/);
    // Both open reports are resolved; the member and both reporters are told.
    const statuses = await db().select({ status: reports.status }).from(reports).where(eq(reports.reportedId, bad.id));
    expect(statuses.map((s) => s.status)).toEqual(['suspended', 'suspended']);
    expect(r2).toBeTruthy();
    const [suspendedMail] = await t.mailsTo(bad.email);
    expect(suspendedMail.subject).toBe('Suspended for 7 days: a decision about your Fancy account');
    expect(suspendedMail.text).toContain(RULES.scams);
    expect((await t.mailsTo(otherReporter.email))[0].subject).toBe('About your report');

    // The list comes from the action: since when, by whom, until when; only another admin may lift it.
    const listed = async (cookie: string) =>
      ((await get('/api/admin/members/suspended', cookie)).json().members as SuspendedMember[]).filter((m) => m.id === bad.id);
    const [mine] = await listed(admin.cookie);
    expect(mine).toMatchObject({ rule: RULES.scams, days: 7, suspendedBy: 'Sam Admin', liftable: false });
    expect(Date.now() - Date.parse(mine.suspendedAt)).toBeLessThan(60_000);
    expect(Date.parse(mine.endsAt ?? '') - Date.parse(mine.suspendedAt)).toBe(7 * 24 * HOUR);
    expect((await listed(other.cookie))[0].liftable).toBe(true);

    // Admins cannot be suspended through a report.
    const r3 = (await post('/api/reports', { userId: other.id, reason: 'Something else', details: '' }, reporter.cookie)).json().id;
    const refused = await post(`/api/admin/reports/${r3}/act`, { action: 'suspend', rule: 'scams', days: 1 }, admin.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MODERATION_MESSAGES.cannotActOnAdmin);

    // Lifting: a reason is required; not by the admin who suspended; then it is reversed, the member may sign in and is told why.
    const lift = (cookie: string, body: object = { reason: 'Appeal accepted: the photos were theirs.' }) =>
      post(`/api/admin/suspensions/${mine.actionId}/lift`, body, cookie);
    expect((await lift(other.cookie, { reason: ' ' })).json().error.fields.reason).toBe(ADMIN_MESSAGES.reasonRequired);
    const same = await lift(admin.cookie);
    expect([same.statusCode, same.json().error.message]).toEqual([403, MODERATION_MESSAGES.liftSameAdmin]);
    const lifted = await lift(other.cookie);
    expect(lifted.json()).toEqual({ status: 'lifted', suspendedUntil: null });
    const [action] = await db().select().from(moderationActions).where(eq(moderationActions.id, mine.actionId));
    expect(action.reversedAt).toBeInstanceOf(Date);
    const [again] = await t.mailsTo(bad.email);
    expect(again.subject).toBe('Your Fancy account is active again');
    expect(again.text).toContain('Appeal accepted: the photos were theirs.');
    const back = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: bad.email, password: TEST_PASSWORD } });
    expect(back.statusCode).toBe(200);
    expect(await listed(other.cookie)).toEqual([]);
    const twice = await lift(other.cookie);
    expect([twice.statusCode, twice.json().error.message]).toEqual([409, MODERATION_MESSAGES.suspensionEnded]);
    expect(
      (await post('/api/admin/suspensions/00000000-0000-4000-8000-000000000000/lift', { reason: 'Not there.' }, other.cookie)).statusCode,
    ).toBe(404);
    expect((await post('/api/admin/suspensions/nope/lift', { reason: 'Not there.' }, other.cookie)).statusCode).toBe(400);
    const audit = await auditActions(bad.id);
    expect(audit.map((a) => a.action)).toEqual(['moderation.suspend', 'moderation.lift']);
    expect(audit[1].actorId).toBe(other.id);
    // The member sees the decision reversed.
    const decisions = (await get('/api/moderation/mine', cookieHeader(back.headers['set-cookie']))).json().actions;
    expect(decisions[0]).toMatchObject({ id: mine.actionId, reversed: true, appealable: false });
  });

  it('lifting one of two running suspensions keeps the member out until the other ends; one’s own is lifted by another admin', async () => {
    const admin = await t.member('Tia Admin', { admin: true });
    const other = await t.member('Uma Admin', { admin: true });
    const bad = await t.member('Yan Twice');
    const later = new Date(Math.ceil((Date.now() + 30 * 24 * HOUR) / 1000) * 1000);
    await db().update(user).set({ banned: true, banExpires: later }).where(eq(user.id, bad.id));
    const [first, second] = await db()
      .insert(moderationActions)
      .values([
        { memberId: bad.id, action: 'suspend', rule: 'hate', days: 7, endsAt: new Date(Date.now() + 7 * 24 * HOUR), actorId: admin.id },
        { memberId: bad.id, action: 'suspend', rule: 'scams', days: 30, endsAt: later, actorId: admin.id },
      ])
      .returning({ id: moderationActions.id });

    const res = await post(`/api/admin/suspensions/${first.id}/lift`, { reason: 'The hate report was mistaken.' }, other.cookie);
    expect(res.json()).toEqual({ status: 'lifted', suspendedUntil: later.toISOString() });
    const [row] = await db().select({ banned: user.banned, banExpires: user.banExpires }).from(user).where(eq(user.id, bad.id));
    expect(row).toEqual({ banned: true, banExpires: later });
    expect((await t.mailsTo(bad.email))[0].subject).toBe('A suspension of your Fancy account has been lifted');
    const left = ((await get('/api/admin/members/suspended', other.cookie)).json().members as SuspendedMember[]).filter(
      (m) => m.id === bad.id,
    );
    expect(left.map((m) => m.actionId)).toEqual([second.id]);

    // An admin's own suspension (from before they were made admin) is never theirs to lift.
    await db().insert(moderationActions).values({ memberId: other.id, action: 'suspend', rule: 'hate', days: 1, endsAt: later });
    const own = ((await get('/api/admin/members/suspended', other.cookie)).json().members as SuspendedMember[]).find(
      (m) => m.id === other.id,
    );
    expect(own?.liftable).toBe(false);
    const refused = await post(`/api/admin/suspensions/${own?.actionId}/lift`, { reason: 'I promise to be good.' }, other.cookie);
    expect([refused.statusCode, refused.json().error.message]).toEqual([403, MODERATION_MESSAGES.ownCase]);
  });
});

describe('admin activity', () => {
  it('lists admin actions only, not the reminder mails the audit log also records', async () => {
    const admin = await t.member('Audit Reader', { admin: true });
    await db()
      .insert(auditLog)
      .values([
        { action: REMINDER_ACTION, target: 'some-mixer:some-member', details: 'Pub Quiz Warm-Up Round' },
        { actorId: admin.id, action: 'campaign.create', target: 'audit-check', details: null },
      ]);
    const res = await get('/api/admin/audit?limit=100', admin.cookie);
    expect(res.statusCode).toBe(200);
    const actions = (res.json() as { items: { action: string }[] }).items.map((i) => i.action);
    expect(actions).toContain('campaign.create');
    expect(actions).not.toContain(REMINDER_ACTION);
  });
});
