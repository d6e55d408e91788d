import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { DM_MESSAGES } from '../../../shared/schemas/messages';
import { REPORT_REASONS, SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { reports } from '../../db/schema';
import { fancyReq, matchedPair, matchRow, type Member, send, sharedPair, stats } from '../../../../tests/helpers/mixer-fixtures';
import { REPORT_LIMIT_PER_HOUR } from './routes';
import { blockedIdsFor, isBlockedBetween } from './service';

const t = setupTestApp({ restoreMocks: true });

const blockReq = (m: Member, userId: string) => t.request({ method: 'POST', url: '/api/blocks', cookie: m.cookie, payload: { userId } });
const reportReq = (m: Member | undefined, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/reports', cookie: m?.cookie, payload });
const ids = (list: { id: string }[]) => list.map((c) => c.id);

describe('POST /api/blocks', () => {
  it('ends the match as blocked: read-only for the blocker, gone for the blocked member', async () => {
    const { a, b, mixerId, matchId } = await matchedPair(t);
    await send(t, b, matchId, 'one');
    await send(t, b, matchId, 'two');
    expect((await stats(t, a)).unreadMessages).toBe(2);
    const publish = vi.spyOn(t.app.realtime, 'publish');

    const res = await blockReq(a, b.id);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ blocked: true });
    const row = await matchRow(t, matchId);
    expect(row.status).toBe('blocked');
    expect(row.ended_at).not.toBeNull();

    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    for (const m of [a, b]) {
      expect(events).toContainEqual([`user:${m.id}`, { type: 'match.ended', matchId }]);
      expect(events).toContainEqual([`user:${m.id}`, { type: 'counter', key: 'matches', delta: -1 }]);
    }
    expect(events).toContainEqual([`user:${a.id}`, { type: 'counter', key: 'unreadMessages', delta: -2 }]);
    expect(await stats(t, a)).toMatchObject({ unreadMessages: 0, matches: 0 });
    expect((await stats(t, b)).matches).toBe(0);

    // Issue 30: the blocker keeps it read-only (and finds it under messages); the blocked member finds nothing.
    const sent = await send(t, a, matchId, 'hello?');
    expect(sent.statusCode).toBe(409);
    expect(sent.json().error.message).toBe(DM_MESSAGES.ended);
    const detail = (await t.request({ method: 'GET', url: `/api/conversations/${matchId}`, cookie: a.cookie })).json();
    expect(detail).toMatchObject({ status: 'blocked', canSend: false, blockedByMe: true });
    expect((await t.request({ method: 'GET', url: `/api/conversations/${matchId}/messages`, cookie: a.cookie })).statusCode).toBe(200);
    expect(ids((await t.request({ method: 'GET', url: '/api/conversations', cookie: a.cookie })).json().conversations)).toContain(matchId);
    expect((await send(t, b, matchId, 'hello?')).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/conversations/${matchId}`, cookie: b.cookie })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/conversations/${matchId}/messages`, cookie: b.cookie })).statusCode).toBe(404);
    expect(ids((await t.request({ method: 'GET', url: '/api/conversations', cookie: b.cookie })).json().conversations)).not.toContain(
      matchId,
    );
    for (const m of [a, b]) {
      const matches = (await t.request({ method: 'GET', url: '/api/matches', cookie: m.cookie })).json();
      expect(ids(matches.matches)).not.toContain(matchId);
    }
    // Reading a blocked thread does not drive the counter below zero.
    publish.mockClear();
    await t.request({ method: 'POST', url: `/api/conversations/${matchId}/read`, cookie: a.cookie });
    expect(publish.mock.calls.map(([, e]) => e)).not.toContainEqual(expect.objectContaining({ type: 'counter' }));

    // Fancies are gone and cannot be made again while blocked.
    expect((await t.request({ method: 'GET', url: `/api/fancies?mixerId=${mixerId}`, cookie: b.cookie })).json().fancied).toEqual([]);
    expect((await fancyReq(t, b, a, mixerId)).statusCode).toBe(403);
  });

  it('hides each from the other for the mixers module, and unblock lifts it (the match stays ended)', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await blockReq(b, a.id);
    expect(await isBlockedBetween(t.database.db, a.id, b.id)).toBe(true);
    expect(await blockedIdsFor(t.database.db, a.id)).toEqual(new Set([b.id]));
    expect(await blockedIdsFor(t.database.db, b.id)).toEqual(new Set([a.id]));
    const listed = (await t.request({ method: 'GET', url: '/api/blocks', cookie: b.cookie })).json();
    expect(listed.blocked).toEqual([expect.objectContaining({ id: a.id, firstName: 'Maya' })]);

    const un = await t.request({ method: 'DELETE', url: `/api/blocks/${a.id}`, cookie: b.cookie });
    expect(un.json()).toEqual({ blocked: false });
    expect(await isBlockedBetween(t.database.db, a.id, b.id)).toBe(false);
    expect((await matchRow(t, matchId)).status).toBe('blocked');
    // Only the blocker can lift it.
    await blockReq(b, a.id);
    await t.request({ method: 'DELETE', url: `/api/blocks/${b.id}`, cookie: a.cookie });
    expect(await isBlockedBetween(t.database.db, a.id, b.id)).toBe(true);
  });

  it('is idempotent, refuses yourself and unknown members, and works without a match', async () => {
    const { a, b } = await sharedPair(t);
    expect((await blockReq(a, b.id)).statusCode).toBe(201);
    expect((await blockReq(a, b.id)).statusCode).toBe(201);
    const self = await blockReq(a, a.id);
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(SAFETY_MESSAGES.blockSelf);
    expect((await blockReq(a, 'no-such-member')).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: a.cookie, payload: {} })).statusCode).toBe(400);
  });
});

describe('POST /api/reports', () => {
  it('stores an open report with reason, details and mixer', async () => {
    const { a, b, mixerId } = await sharedPair(t);
    const res = await reportReq(a, { userId: b.id, mixerId, reason: 'Spam or scam', details: '  Kept sending crypto links.  ' });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(reports).where(eq(reports.id, res.json().id));
    expect(row).toMatchObject({
      reporterId: a.id,
      reportedId: b.id,
      mixerId,
      reason: 'Spam or scam',
      details: 'Kept sending crypto links.',
      status: 'open',
    });
    const noMixer = await reportReq(a, { userId: b.id, reason: 'Fake profile' });
    expect(noMixer.statusCode).toBe(201);
    const [row2] = await t.database.db.select().from(reports).where(eq(reports.id, noMixer.json().id));
    expect(row2).toMatchObject({ mixerId: null, details: '' });
  });

  it('validates reason, details length, target and mixer', async () => {
    const { a, b } = await sharedPair(t);
    const before = (await t.database.db.select().from(reports)).length;
    const cases: [Record<string, unknown>, number][] = [
      [{ userId: b.id, reason: 'Being boring', details: '' }, 400],
      [{ userId: b.id, details: 'x' }, 400],
      [{ userId: b.id, reason: 'Something else', details: 'x'.repeat(1001) }, 400],
      [{ userId: a.id, reason: 'Something else', details: '' }, 400],
      [{ userId: 'no-such-member', reason: 'Something else', details: '' }, 404],
      [{ userId: b.id, mixerId: 'not-a-uuid', reason: 'Something else' }, 400],
      [{ userId: b.id, mixerId: '00000000-0000-4000-8000-000000000000', reason: 'Something else' }, 400],
    ];
    for (const [payload, status] of cases) expect((await reportReq(a, payload)).statusCode, JSON.stringify(payload)).toBe(status);
    expect((await reportReq(a, { userId: b.id, reason: 'Something else', details: 'x'.repeat(1000) })).statusCode).toBe(201);
    expect((await t.database.db.select().from(reports)).length).toBe(before + 1);
    for (const reason of REPORT_REASONS) expect(reason.length).toBeGreaterThan(3);
  });

  it('is rate limited per reporter', async () => {
    const { a, b } = await sharedPair(t);
    for (let i = 0; i < REPORT_LIMIT_PER_HOUR; i++) {
      expect((await reportReq(a, { userId: b.id, reason: 'Harassment or bullying' })).statusCode).toBe(201);
    }
    const limited = await reportReq(a, { userId: b.id, reason: 'Harassment or bullying' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(SAFETY_MESSAGES.reportRateLimited);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('authorization of every route', () => {
  it('anonymous 401 and unverified 403 everywhere', async () => {
    const { a, b, mixerId, matchId } = await matchedPair(t);
    const unverified = await t.member('Pending Person', { verified: false });
    const routes: { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; payload?: Record<string, unknown> }[] = [
      { method: 'GET', url: `/api/fancies?mixerId=${mixerId}` },
      { method: 'PUT', url: `/api/fancies/${b.id}`, payload: { mixerId } },
      { method: 'DELETE', url: `/api/fancies/${b.id}` },
      { method: 'GET', url: '/api/matches' },
      { method: 'POST', url: `/api/matches/${matchId}/unmatch` },
      { method: 'GET', url: '/api/conversations' },
      { method: 'GET', url: `/api/conversations/${matchId}` },
      { method: 'GET', url: `/api/conversations/${matchId}/messages` },
      { method: 'POST', url: `/api/conversations/${matchId}/messages`, payload: { body: 'hi' } },
      { method: 'POST', url: `/api/conversations/${matchId}/read` },
      { method: 'GET', url: '/api/blocks' },
      { method: 'POST', url: '/api/blocks', payload: { userId: b.id } },
      { method: 'DELETE', url: `/api/blocks/${b.id}` },
      { method: 'POST', url: '/api/reports', payload: { userId: b.id, reason: 'Spam or scam' } },
    ];
    for (const r of routes) {
      expect((await t.request(r)).statusCode, `${r.method} ${r.url} anonymous`).toBe(401);
      expect((await t.request({ ...r, cookie: unverified.cookie })).statusCode, `${r.method} ${r.url} unverified`).toBe(403);
    }
    expect((await matchRow(t, matchId)).status).toBe('matched');
    expect((await stats(t, a)).matches).toBe(1);
  });
});
