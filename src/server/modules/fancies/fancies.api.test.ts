import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { AFTER_MIXER_PROMPT_MS } from '../../../shared/formation';
import { FANCY_MESSAGES } from '../../../shared/schemas/matches';
import {
  createMixer,
  fancyReq,
  joinMixer,
  matchedPair,
  matchRow,
  setPreferences,
  sharedPair,
  stats,
} from '../../../../tests/helpers/mixer-fixtures';

const t = setupTestApp({ restoreMocks: true });

async function matchCount(a: string, b: string) {
  const [p1, p2] = a < b ? [a, b] : [b, a];
  const r = (await t.database.db.execute(
    sql`select count(*)::int as n from matches where profile1_id = ${p1} and profile2_id = ${p2}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(r.rows[0].n);
}

describe('PUT /api/fancies/:userId — who may be fancied', () => {
  it('refuses yourself', async () => {
    const { a, mixerId } = await sharedPair(t);
    const res = await fancyReq(t, a, a, mixerId);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(FANCY_MESSAGES.self);
  });

  it('refuses a stranger you never shared a mixer with', async () => {
    const { a, mixerId } = await sharedPair(t);
    const stranger = await t.member('Stranger Danger');
    const res = await fancyReq(t, a, stranger, mixerId);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(FANCY_MESSAGES.notShared);
  });

  it('refuses when the other person was in a different mixer, or only waitlisted', async () => {
    const { a, mixerId } = await sharedPair(t);
    const other = await t.member('Other Mixer');
    const otherMixer = await createMixer(t);
    await joinMixer(t, otherMixer, [other.id]);
    expect((await fancyReq(t, a, other, mixerId)).statusCode).toBe(403);
    expect((await fancyReq(t, a, other, otherMixer)).statusCode).toBe(403);
    const waiting = await t.member('Wait Listed');
    await joinMixer(t, mixerId, [waiting.id], 'waitlisted');
    expect((await fancyReq(t, a, waiting, mixerId)).statusCode).toBe(403);
  });

  it('refuses someone who left the mixer, and lets the leaver fancy no one from it (decision 024)', async () => {
    const { a, mixerId } = await sharedPair(t);
    const leaver = await t.member('Left Early');
    await joinMixer(t, mixerId, [leaver.id], 'left');
    const res = await fancyReq(t, a, leaver, mixerId);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(FANCY_MESSAGES.notShared);
    expect((await fancyReq(t, leaver, a, mixerId)).statusCode).toBe(403);
  });

  it('refuses before the mixer has started and for a cancelled mixer', async () => {
    const a = await t.member('Early Bird');
    const b = await t.member('Also Early');
    const later = await createMixer(t, { status: 'scheduled', startsInMinutes: 60 });
    await joinMixer(t, later, [a.id, b.id]);
    const res = await fancyReq(t, a, b, later);
    expect(res.statusCode).toBe(403);
    // Issue 32: a mixer that has not started is not shared yet (safety/visibility `sharedMixer`).
    expect(res.json().error.message).toBe(FANCY_MESSAGES.notShared);
    const cancelled = await createMixer(t, { status: 'cancelled' });
    await joinMixer(t, cancelled, [a.id, b.id]);
    expect((await fancyReq(t, a, b, cancelled)).statusCode).toBe(403);
  });

  it('allows fancying after the mixer ended', async () => {
    const a = await t.member('After Party');
    const b = await t.member('Late Night');
    const ended = await createMixer(t, { status: 'ended', startsInMinutes: -600 });
    await joinMixer(t, ended, [a.id, b.id]);
    expect((await fancyReq(t, a, b, ended)).statusCode).toBe(200);
  });

  it('accepts fancies for 48 hours after the mixer ends, the window the prompt gives, and then refuses them (issue 32)', async () => {
    const a = await t.member('Window Open');
    const b = await t.member('Window Shut');
    // createMixer's mixers last 90 minutes: these ended 47 and 49 hours ago.
    const recent = await createMixer(t, { status: 'ended', startsInMinutes: -(47 * 60 + 90) });
    const old = await createMixer(t, { status: 'ended', startsInMinutes: -(49 * 60 + 90) });
    await joinMixer(t, recent, [a.id, b.id]);
    await joinMixer(t, old, [a.id, b.id]);
    const late = await fancyReq(t, a, b, old);
    expect(late.statusCode).toBe(403);
    expect(late.json().error.message).toBe(FANCY_MESSAGES.closed);
    expect(FANCY_MESSAGES.closed).toContain(`${AFTER_MIXER_PROMPT_MS / 3_600_000} hours`);
    expect((await fancyReq(t, b, a, old)).statusCode).toBe(403);
    expect(await matchCount(a.id, b.id)).toBe(0);
    expect((await fancyReq(t, a, b, recent)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown member and 400 for a malformed mixer id', async () => {
    const { a, mixerId } = await sharedPair(t);
    expect((await fancyReq(t, a, { id: 'nobody-at-all' }, mixerId)).statusCode).toBe(404);
    const bad = await t.request({ method: 'PUT', url: `/api/fancies/${a.id}`, cookie: a.cookie, payload: { mixerId: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation');
  });

  it('refuses across a block in either direction, without saying so', async () => {
    const { a, b, mixerId } = await sharedPair(t);
    await t.request({ method: 'POST', url: '/api/blocks', cookie: b.cookie, payload: { userId: a.id } });
    const res = await fancyReq(t, a, b, mixerId);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(FANCY_MESSAGES.notShared);
    expect((await fancyReq(t, b, a, mixerId)).statusCode).toBe(403);
  });
});

describe('fancies are private and idempotent', () => {
  it('GET lists only your own fancies among that mixer’s participants', async () => {
    const { a, b, mixerId } = await sharedPair(t);
    const c = await t.member('Third Person');
    await joinMixer(t, mixerId, [c.id]);
    await fancyReq(t, a, b, mixerId);
    await fancyReq(t, c, a, mixerId);
    const mine = await t.request({ method: 'GET', url: `/api/fancies?mixerId=${mixerId}`, cookie: a.cookie });
    expect(mine.json()).toEqual({ fancied: [b.id] });
    // b cannot see that a fancied them.
    const theirs = await t.request({ method: 'GET', url: `/api/fancies?mixerId=${mixerId}`, cookie: b.cookie });
    expect(theirs.json()).toEqual({ fancied: [] });
    // In another mixer without b, the list is empty.
    const elsewhere = await createMixer(t);
    const other = await t.request({ method: 'GET', url: `/api/fancies?mixerId=${elsewhere}`, cookie: a.cookie });
    expect(other.json()).toEqual({ fancied: [] });
  });

  it('PUT twice stores one fancy; DELETE takes it back and is idempotent', async () => {
    const { a, b, mixerId } = await sharedPair(t);
    expect((await fancyReq(t, a, b, mixerId)).json()).toEqual({ fancied: true, matchId: null, newMatch: false });
    expect((await fancyReq(t, a, b, mixerId)).json()).toEqual({ fancied: true, matchId: null, newMatch: false });
    const count = (await t.database.db.execute(
      sql`select count(*)::int as n from fancies where from_user_id = ${a.id} and to_user_id = ${b.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(count.rows[0].n)).toBe(1);
    for (let i = 0; i < 2; i++) {
      const del = await t.request({ method: 'DELETE', url: `/api/fancies/${b.id}`, cookie: a.cookie });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ fancied: false });
    }
    const after = await t.request({ method: 'GET', url: `/api/fancies?mixerId=${mixerId}`, cookie: a.cookie });
    expect(after.json().fancied).toEqual([]);
  });
});

describe('mutual fancies → one match', () => {
  it('the second fancy creates the match, tells both in realtime and by mail, and moves the counters', async () => {
    const { a, b, mixerId } = await sharedPair(t, ['Maya Okafor', 'Rhys Llewellyn']);
    const publish = vi.spyOn(t.app.realtime, 'publish');
    const first = await fancyReq(t, a, b, mixerId);
    expect(first.json()).toEqual({ fancied: true, matchId: null, newMatch: false });
    expect(publish).not.toHaveBeenCalled();
    expect(await t.mailsTo(b.email)).toHaveLength(1); // only the verification mail

    const second = await fancyReq(t, b, a, mixerId);
    expect(second.statusCode).toBe(200);
    const { matchId, newMatch } = second.json();
    expect(matchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(newMatch).toBe(true);
    const row = await matchRow(t, matchId);
    expect(row.status).toBe('matched');
    expect(row.profile1_id < row.profile2_id).toBe(true);

    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    expect(events).toContainEqual([`user:${a.id}`, { type: 'match.created', matchId, otherName: 'Rhys' }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'match.created', matchId, otherName: 'Maya' }]);
    expect(events).toContainEqual([`user:${a.id}`, { type: 'counter', key: 'matches', delta: 1 }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'counter', key: 'matches', delta: 1 }]);

    const [mailA] = await t.mailsTo(a.email);
    expect(mailA.subject).toBe("It's a match! You and Rhys fancy each other");
    expect(mailA.text).toContain(`/messages/${matchId}`);
    expect(mailA.text).toContain('Indie Film Club');
    const [mailB] = await t.mailsTo(b.email);
    expect(mailB.subject).toContain('You and Maya');

    expect((await stats(t, a)).matches).toBe(1);
    expect((await stats(t, b)).matches).toBe(1);

    // Fancying again (also after taking it back) returns the existing match without new notices.
    publish.mockClear();
    expect((await fancyReq(t, a, b, mixerId)).json()).toEqual({ fancied: true, matchId, newMatch: false });
    await t.request({ method: 'DELETE', url: `/api/fancies/${b.id}`, cookie: a.cookie });
    expect((await fancyReq(t, a, b, mixerId)).json()).toEqual({ fancied: true, matchId, newMatch: false });
    expect(publish).not.toHaveBeenCalled();
  });

  it('both fancies at the same moment create exactly one match', async () => {
    for (let round = 0; round < 3; round++) {
      const { a, b, mixerId } = await sharedPair(t, [`Quick Draw${round}`, `Fast Hand${round}`]);
      const [r1, r2] = await Promise.all([fancyReq(t, a, b, mixerId), fancyReq(t, b, a, mixerId)]);
      expect(r1.statusCode).toBe(200);
      expect(r2.statusCode).toBe(200);
      expect(await matchCount(a.id, b.id)).toBe(1);
      const ids = [r1.json().matchId, r2.json().matchId].filter(Boolean);
      expect(ids.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ids).size).toBe(1);
      // Each side got exactly one match mail.
      expect((await t.mailsTo(a.email)).filter((m) => m.subject.startsWith("It's a match!"))).toHaveLength(1);
      expect((await t.mailsTo(b.email)).filter((m) => m.subject.startsWith("It's a match!"))).toHaveLength(1);
    }
  });

  it('honours notifyMatch: false (no mail, realtime still)', async () => {
    const { a, b, mixerId } = await sharedPair(t);
    await setPreferences(t, a.id, { notifyMatch: false });
    await fancyReq(t, a, b, mixerId);
    await fancyReq(t, b, a, mixerId);
    expect((await t.mailsTo(a.email)).some((m) => m.subject.startsWith("It's a match!"))).toBe(false);
    expect((await t.mailsTo(b.email)).some((m) => m.subject.startsWith("It's a match!"))).toBe(true);
  });

  it('removing a fancy does not end the match', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await t.request({ method: 'DELETE', url: `/api/fancies/${b.id}`, cookie: a.cookie });
    expect((await matchRow(t, matchId)).status).toBe('matched');
  });

  it('after an unmatch, fancies are cleared; fancying each other again revives the same match', async () => {
    const { a, b, mixerId, matchId } = await matchedPair(t);
    await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: a.cookie });
    expect((await t.request({ method: 'GET', url: `/api/fancies?mixerId=${mixerId}`, cookie: b.cookie })).json().fancied).toEqual([]);
    // One side alone does not re-match.
    expect((await fancyReq(t, b, a, mixerId)).json()).toEqual({ fancied: true, matchId: null, newMatch: false });
    expect((await matchRow(t, matchId)).status).toBe('unmatched');
    const again = await fancyReq(t, a, b, mixerId);
    expect(again.json()).toEqual({ fancied: true, matchId, newMatch: true });
    expect((await matchRow(t, matchId)).status).toBe('matched');
    expect(await matchCount(a.id, b.id)).toBe(1);
  });
});
