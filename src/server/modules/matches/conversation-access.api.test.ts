import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { type Member, matchedPair, send, stats } from '../../../../tests/helpers/mixer-fixtures';
import { MATCH_MESSAGES } from '../../../shared/schemas/matches';
import { DM_MESSAGES } from '../../../shared/schemas/messages';

/**
 * Issue 30: block and unmatch take the conversation away from the other side. For each way it
 * can end, the member it was taken from gets 404 (the not-found wording) everywhere — header,
 * messages, send, read, unmatch, lists, counters, the socket room, the export keeps only their
 * own words — and the member who ended it keeps it read-only.
 */
const t = setupTestApp();

const ids = (list: { id: string }[]) => list.map((c) => c.id);
const get = (m: Member, url: string) => t.request({ method: 'GET', url, cookie: m.cookie });
const post = (m: Member, url: string, payload?: object) => t.request({ method: 'POST', url, cookie: m.cookie, payload });

async function canSubscribe(m: Member, matchId: string): Promise<boolean> {
  const socket = { readyState: 1, OPEN: 1, send() {}, close() {} } as never;
  const client = t.app.realtime.add(socket, m.id, `s-${m.id}-${matchId}`);
  try {
    return await t.app.realtime.subscribe(client, `conversation:${matchId}`);
  } finally {
    t.app.realtime.remove(client);
  }
}

type Ending = 'blocks' | 'unmatches';
const endings: [string, 'a' | 'b', Ending][] = [
  ['A blocks B', 'a', 'blocks'],
  ['B blocks A', 'b', 'blocks'],
  ['A unmatches', 'a', 'unmatches'],
  ['B unmatches', 'b', 'unmatches'],
];

async function end(ender: Member, other: Member, matchId: string, how: Ending) {
  const res =
    how === 'blocks' ? await post(ender, '/api/blocks', { userId: other.id }) : await post(ender, `/api/matches/${matchId}/unmatch`);
  expect(res.statusCode).toBeLessThan(300);
}

describe.each(endings)('%s', (_, enderKey, how) => {
  it('the other side finds nothing: 404 everywhere, no list, no count, no room, only their own words in the export', async () => {
    const pair = await matchedPair(t);
    const ender = pair[enderKey];
    const other = enderKey === 'a' ? pair.b : pair.a;
    const { matchId } = pair;
    expect((await send(t, ender, matchId, 'words of the ender')).statusCode).toBe(201);
    expect((await send(t, other, matchId, 'words of the other')).statusCode).toBe(201);
    expect((await stats(t, other)).unreadMessages).toBe(1);
    expect(await canSubscribe(other, matchId)).toBe(true);

    await end(ender, other, matchId, how);

    for (const res of [
      await get(other, `/api/conversations/${matchId}`),
      await get(other, `/api/conversations/${matchId}/messages`),
      await send(t, other, matchId, 'still there?'),
      await post(other, `/api/conversations/${matchId}/read`),
      await post(other, `/api/matches/${matchId}/unmatch`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(MATCH_MESSAGES.notFound);
      expect(res.body).not.toContain('words of the ender');
    }
    expect(ids((await get(other, '/api/conversations')).json().conversations)).not.toContain(matchId);
    expect(ids((await get(other, '/api/matches')).json().matches)).not.toContain(matchId);
    expect(await stats(t, other)).toMatchObject({ unreadMessages: 0, matches: 0, newMatches: 0 });
    expect(await canSubscribe(other, matchId)).toBe(false);

    const exported = (await get(other, '/api/me/export')).json();
    const bodies = exported.direct_messages.map((d: { body: string }) => d.body);
    expect(bodies).toContain('words of the other');
    expect(bodies).not.toContain('words of the ender');
  });

  it('the member who ended it keeps it read-only: header, history and list, but no sending', async () => {
    const pair = await matchedPair(t);
    const ender = pair[enderKey];
    const other = enderKey === 'a' ? pair.b : pair.a;
    const { matchId } = pair;
    expect((await send(t, other, matchId, 'something to report')).statusCode).toBe(201);
    await end(ender, other, matchId, how);

    const header = await get(ender, `/api/conversations/${matchId}`);
    expect(header.statusCode).toBe(200);
    expect(header.json()).toMatchObject({
      status: how === 'blocks' ? 'blocked' : 'unmatched',
      canSend: false,
      blockedByMe: how === 'blocks',
    });
    const history = await get(ender, `/api/conversations/${matchId}/messages`);
    expect(history.statusCode).toBe(200);
    expect(history.json().messages.map((m: { body: string }) => m.body)).toEqual(['something to report']);
    const sent = await send(t, ender, matchId, 'one more thing');
    expect(sent.statusCode).toBe(409);
    expect(sent.json().error.message).toBe(DM_MESSAGES.ended);
    const listed = (await get(ender, '/api/conversations')).json().conversations;
    expect(listed.find((c: { id: string }) => c.id === matchId)).toMatchObject({ status: header.json().status, unreadCount: 0 });
    expect(ids((await get(ender, '/api/matches')).json().matches)).not.toContain(matchId);
    expect(await stats(t, ender)).toMatchObject({ unreadMessages: 0, matches: 0 });
    // Nothing live passes across a block, not even to the blocker; an unmatch leaves the room to the one who ended it.
    expect(await canSubscribe(ender, matchId)).toBe(how === 'unmatches');
  });
});

describe('later changes', () => {
  it('lifting a block does not give the conversation back to the blocked member', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await end(a, b, matchId, 'blocks');
    expect((await t.request({ method: 'DELETE', url: `/api/blocks/${b.id}`, cookie: a.cookie })).statusCode).toBe(200);
    expect((await get(b, `/api/conversations/${matchId}`)).statusCode).toBe(404);
    expect((await get(a, `/api/conversations/${matchId}`)).statusCode).toBe(200);
  });

  it('a block after an unmatch takes it from the one who unmatched when they are the one blocked', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await send(t, a, matchId, 'hi');
    await end(a, b, matchId, 'unmatches');
    expect((await get(a, `/api/conversations/${matchId}`)).statusCode).toBe(200);
    expect((await post(b, '/api/blocks', { userId: a.id })).statusCode).toBe(201);
    expect((await get(a, `/api/conversations/${matchId}`)).statusCode).toBe(404);
    expect((await get(a, `/api/conversations/${matchId}/messages`)).statusCode).toBe(404);
    expect(ids((await get(a, '/api/conversations')).json().conversations)).not.toContain(matchId);
  });

  it('matching again opens it for both, with its history', async () => {
    const { a, b, mixerId, matchId } = await matchedPair(t);
    await send(t, a, matchId, 'before');
    await end(b, a, matchId, 'unmatches');
    expect((await get(a, `/api/conversations/${matchId}`)).statusCode).toBe(404);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ])
      await t.request({ method: 'PUT', url: `/api/fancies/${to.id}`, cookie: from.cookie, payload: { mixerId } });
    for (const m of [a, b]) {
      expect((await get(m, `/api/conversations/${matchId}`)).json()).toMatchObject({ status: 'matched', canSend: true });
      expect((await get(m, `/api/conversations/${matchId}/messages`)).json().messages).toHaveLength(1);
    }
  });

  it('a stranger still gets 403, an unknown conversation 404', async () => {
    const { matchId } = await matchedPair(t);
    const stranger = await t.member('Stranger Sam');
    expect((await get(stranger, `/api/conversations/${matchId}`)).statusCode).toBe(403);
    expect((await get(stranger, '/api/conversations/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
