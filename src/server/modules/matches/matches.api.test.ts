import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { matchedPair, send, stats } from '../../../../tests/helpers/mixer-fixtures';

const t = setupTestApp({ restoreMocks: true });

const ids = (list: { id: string }[]) => list.map((c) => c.id);

describe('POST /api/matches/:id/unmatch', () => {
  it('ends the conversation: read-only for the one who unmatched, gone for the other, match.ended to both', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await send(t, a, matchId, 'Hello!');
    const third = await t.member('Bystander Bob');
    expect((await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: third.cookie })).statusCode).toBe(403);
    const publish = vi.spyOn(t.app.realtime, 'publish');
    const res = await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: b.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'unmatched' });
    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    expect(events).toContainEqual([`user:${a.id}`, { type: 'match.ended', matchId }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'match.ended', matchId }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'counter', key: 'unreadMessages', delta: -1 }]);
    expect((await stats(t, b)).unreadMessages).toBe(0);
    // Issue 30: gone for the other side (404); the one who unmatched keeps it read-only.
    expect((await send(t, a, matchId, 'Wait!')).statusCode).toBe(404);
    expect((await send(t, b, matchId, 'Wait!')).statusCode).toBe(409);
    for (const m of [a, b])
      expect(ids((await t.request({ method: 'GET', url: '/api/matches', cookie: m.cookie })).json().matches)).not.toContain(matchId);
    expect(ids((await t.request({ method: 'GET', url: '/api/conversations', cookie: a.cookie })).json().conversations)).not.toContain(
      matchId,
    );
    const conv = (await t.request({ method: 'GET', url: '/api/conversations', cookie: b.cookie })).json().conversations;
    expect(conv.find((c: { id: string }) => c.id === matchId)).toMatchObject({ status: 'unmatched', unreadCount: 0 });
    // Twice is fine and quiet; the other side finds nothing to unmatch.
    publish.mockClear();
    expect((await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: a.cookie })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: b.cookie })).json()).toEqual({
      status: 'unmatched',
    });
    expect(publish).not.toHaveBeenCalled();
  });

  it('lists your matches with the mixer where you met and the last message', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Priya Sharma', 'Callum MacLeod']);
    await t.database.db.execute(
      sql`update profiles set city_region = 'Leicester', share_city_region = true, avatar_url = ${`${a.id}/avatar.webp`} where id = ${a.id}`,
    );
    await t.database.db.execute(sql`update profiles set city_region = 'Glasgow', share_city_region = false where id = ${b.id}`);
    await send(t, a, matchId, 'Hiya');
    const mine = (await t.request({ method: 'GET', url: '/api/matches', cookie: b.cookie })).json();
    expect(mine.matches).toHaveLength(1);
    expect(mine.matches[0]).toMatchObject({
      id: matchId,
      mixer: { title: 'Indie Film Club: Aftersun Debrief' },
      other: { id: a.id, firstName: 'Priya', city: 'Leicester' },
      lastMessage: { body: 'Hiya', senderId: a.id, isRead: false },
      unreadCount: 1,
    });
    expect(mine.matches[0].other.avatarUrl).toMatch(new RegExp(`^/api/files/${a.id}/avatar.webp\\?exp=\\d+&sig=`));
    // Callum does not share his city: Priya never sees it.
    const theirs = (await t.request({ method: 'GET', url: '/api/matches', cookie: a.cookie })).json();
    expect(theirs.matches[0].other).toEqual({ id: b.id, firstName: 'Callum', avatarUrl: null, city: null, verified: false });
    expect(JSON.stringify(theirs)).not.toContain('Glasgow');
  });
});
