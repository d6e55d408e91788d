import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { DM_MESSAGES } from '../../../shared/schemas/messages';
import { buildApp } from '../../app';
import { directMessages } from '../../db/schema';
import { matchedPair, type Member, send, setPreferences, stats } from '../../../../tests/helpers/mixer-fixtures';

const t = setupTestApp({ restoreMocks: true });

const get = (m: Member | undefined, url: string) => t.request({ method: 'GET', url, cookie: m?.cookie });
const read = (m: Member, matchId: string) => t.request({ method: 'POST', url: `/api/conversations/${matchId}/read`, cookie: m.cookie });
const messageMails = async (m: Member) => (await t.mailsTo(m.email)).filter((x) => x.subject.startsWith('New message from'));

/** Inserts n messages directly, one second apart, alternating senders, all read. */
async function history(matchId: string, a: Member, b: Member, n: number) {
  const start = Date.now() - n * 1000 - 60_000;
  await t.database.db.insert(directMessages).values(
    Array.from({ length: n }, (_, i) => ({
      matchId,
      senderId: i % 2 ? b.id : a.id,
      recipientId: i % 2 ? a.id : b.id,
      body: `message ${i + 1}`,
      isRead: true,
      createdAt: new Date(start + i * 1000),
    })),
  );
}

describe('who may read and write a conversation', () => {
  it('anonymous 401, unverified 403, a third member 403, admin 403, unknown match 404', async () => {
    const { a, matchId } = await matchedPair(t);
    const third = await t.member('Nosy Neighbour');
    const admin = await t.member('Ada Admin', { admin: true });
    const unverified = await t.member('Not Yet', { verified: false });
    const urls = [`/api/conversations/${matchId}`, `/api/conversations/${matchId}/messages`];
    for (const url of urls) {
      expect((await get(undefined, url)).statusCode).toBe(401);
      expect((await get(unverified, url)).statusCode).toBe(403);
      expect((await get(third, url)).statusCode).toBe(403);
      expect((await get(admin, url)).statusCode).toBe(403);
      expect((await get(a, url)).statusCode).toBe(200);
    }
    expect((await send(t, third, matchId, 'hello')).statusCode).toBe(403);
    expect((await send(t, admin, matchId, 'hello')).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages`, payload: { body: 'hi' } })).statusCode).toBe(
      401,
    );
    // Anonymous is refused before the body is looked at.
    expect((await t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages`, payload: {} })).statusCode).toBe(401);
    expect((await read(third, matchId)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/conversations/${matchId}/read` })).statusCode).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await get(a, `/api/conversations/${unknown}`)).statusCode).toBe(404);
    expect((await send(t, a, unknown, 'hello')).statusCode).toBe(404);
    expect((await get(a, '/api/conversations/not-a-uuid')).statusCode).toBe(400);
    const rows = await t.database.db.select().from(directMessages).where(sql`match_id = ${matchId}`);
    expect(rows).toHaveLength(0);
  });

  it('the conversation room admits only the two members', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const third = await t.member('Room Crasher');
    const hub = t.app.realtime as unknown as { authorizers: Map<string, (u: string, r: string) => Promise<boolean>> };
    const authorize = hub.authorizers.get('conversation');
    expect(authorize).toBeDefined();
    expect(await authorize?.(a.id, `conversation:${matchId}`)).toBe(true);
    expect(await authorize?.(b.id, `conversation:${matchId}`)).toBe(true);
    expect(await authorize?.(third.id, `conversation:${matchId}`)).toBe(false);
    expect(await authorize?.(a.id, 'conversation:nonsense')).toBe(false);
  });
});

describe('sending', () => {
  it('accepts 1–2000 characters (trimmed) and refuses empty, blank and 2001', async () => {
    const { a, matchId } = await matchedPair(t);
    expect((await send(t, a, matchId, 'x')).statusCode).toBe(201);
    const max = await send(t, a, matchId, 'y'.repeat(2000));
    expect(max.statusCode).toBe(201);
    expect(max.json().message.body).toHaveLength(2000);
    const padded = await send(t, a, matchId, '  hello there \n');
    expect(padded.json().message.body).toBe('hello there');
    for (const [body, message] of [
      ['', DM_MESSAGES.empty],
      ['   \n ', DM_MESSAGES.empty],
      ['z'.repeat(2001), DM_MESSAGES.tooLong],
      [undefined, DM_MESSAGES.empty],
    ] as const) {
      const res = await send(t, a, matchId, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation', message });
    }
    const rows = await t.database.db.select().from(directMessages).where(sql`match_id = ${matchId}`);
    expect(rows).toHaveLength(3);
  });

  it('delivers live to the conversation room and the recipient, and moves the counters', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const publish = vi.spyOn(t.app.realtime, 'publish');
    const res = await send(t, a, matchId, 'Coffee this weekend?');
    expect(res.statusCode).toBe(201);
    const { message } = res.json();
    expect(message).toMatchObject({ matchId, senderId: a.id, body: 'Coffee this weekend?', isRead: false });
    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    expect(events).toContainEqual([`conversation:${matchId}`, { type: 'dm.message', message }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'dm.message', message }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'counter', key: 'unreadMessages', delta: 1 }]);
    expect(events).toContainEqual([`user:${a.id}`, { type: 'counter', key: 'messagesSent', delta: 1 }]);
    // The first message of a match makes it no longer "new" for both.
    expect(events).toContainEqual([`user:${a.id}`, { type: 'counter', key: 'newMatches', delta: -1 }]);
    expect(events).not.toContainEqual([`user:${a.id}`, { type: 'counter', key: 'unreadMessages', delta: 1 }]);
    publish.mockClear();
    await send(t, b, matchId, 'Yes!');
    const second = publish.mock.calls.map(([, e]) => e);
    expect(second).not.toContainEqual({ type: 'counter', key: 'newMatches', delta: -1 });
  });
});

describe('read state and unread counts', () => {
  it('unread rises per message, clears when the recipient reads, and publishes dm.read', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await send(t, a, matchId, 'one');
    await send(t, a, matchId, 'two');
    await send(t, a, matchId, 'three');
    expect((await stats(t, b)).unreadMessages).toBe(3);
    expect((await stats(t, a)).unreadMessages).toBe(0);
    const list = (await get(b, '/api/conversations')).json();
    expect(list.conversations[0]).toMatchObject({ id: matchId, unreadCount: 3, lastMessage: { body: 'three', senderId: a.id } });

    // The sender "reading" changes nothing.
    expect((await read(a, matchId)).json()).toEqual({ read: 0 });
    expect((await stats(t, b)).unreadMessages).toBe(3);

    const publish = vi.spyOn(t.app.realtime, 'publish');
    expect((await read(b, matchId)).json()).toEqual({ read: 3 });
    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    expect(events).toContainEqual([`conversation:${matchId}`, { type: 'dm.read', matchId, readerId: b.id }]);
    expect(events).toContainEqual([`user:${b.id}`, { type: 'counter', key: 'unreadMessages', delta: -3 }]);
    expect((await stats(t, b)).unreadMessages).toBe(0);
    const page = (await get(a, `/api/conversations/${matchId}/messages`)).json();
    expect(page.messages.every((m: { isRead: boolean }) => m.isRead)).toBe(true);

    // Reading again: nothing more, no negative counter.
    publish.mockClear();
    expect((await read(b, matchId)).json()).toEqual({ read: 0 });
    expect(publish).not.toHaveBeenCalled();
  });
});

describe('pages', () => {
  it('thread pages of 50, oldest first, with a cursor back to the start', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await history(matchId, a, b, 120);
    const p1 = (await get(b, `/api/conversations/${matchId}/messages`)).json();
    expect(p1.messages).toHaveLength(50);
    expect(p1.messages[0].body).toBe('message 71');
    expect(p1.messages[49].body).toBe('message 120');
    const p2 = (await get(b, `/api/conversations/${matchId}/messages?before=${p1.nextCursor}`)).json();
    expect(p2.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 50 }, (_, i) => `message ${i + 21}`));
    const p3 = (await get(b, `/api/conversations/${matchId}/messages?before=${p2.nextCursor}`)).json();
    expect(p3.messages).toHaveLength(20);
    expect(p3.messages[0].body).toBe('message 1');
    expect(p3.nextCursor).toBeNull();
    expect((await get(b, `/api/conversations/${matchId}/messages?limit=51`)).statusCode).toBe(400);
  });

  it('the page the database writes is exactly JSON.stringify of the page (escapes, times, cursor)', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const bodies = [
      'plain',
      'it\'s "quoted" \\ back\\slash',
      'line one\nline two\ttab\r\u0001\u001f\u007f',
      'ünïcødé ✓ 💬 \u2028 \u2029 </script> <b>&amp;</b>',
    ];
    // Microseconds: toISOString keeps milliseconds, truncated.
    await t.database.db.execute(sql`
      insert into direct_messages (match_id, sender_id, recipient_id, body, is_read, created_at)
      select ${matchId}::uuid, case when i % 2 = 0 then ${a.id} else ${b.id} end, case when i % 2 = 0 then ${b.id} else ${a.id} end,
             (string_to_array(${bodies.join('\u241e')}, ${'\u241e'}))[i + 1], i = 0,
             '2026-11-22T10:00:00.123987Z'::timestamptz + make_interval(secs => i)
        from generate_series(0, ${bodies.length - 1}) i`);
    // Same instant for two messages: the id breaks the tie, in both directions.
    await t.database.db.execute(sql`
      insert into direct_messages (match_id, sender_id, recipient_id, body, created_at)
      values (${matchId}::uuid, ${a.id}, ${b.id}, 'tie one', '2026-11-22T10:00:09.999999Z'),
             (${matchId}::uuid, ${b.id}, ${a.id}, 'tie two', '2026-11-22T10:00:09.999999Z')`);
    const rows = (
      (await t.database.db.execute(
        sql`select id, sender_id, body, is_read, created_at from direct_messages where match_id = ${matchId} order by created_at, id`,
      )) as unknown as { rows: { id: string; sender_id: string; body: string; is_read: boolean; created_at: string }[] }
    ).rows;
    const view = (r: (typeof rows)[number]) => ({
      id: r.id,
      matchId,
      senderId: r.sender_id,
      body: r.body,
      flag: null,
      isRead: r.is_read,
      createdAt: new Date(r.created_at).toISOString(),
      replyTo: null,
      reactions: [],
      editedAt: null,
      unsentAt: null,
      clientKey: null,
    });
    expect(rows).toHaveLength(6);
    expect(view(rows[0]).createdAt).toBe('2026-11-22T10:00:00.123Z');

    const whole = await get(a, `/api/conversations/${matchId}/messages`);
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(whole.body).toBe(JSON.stringify({ messages: rows.map(view), nextCursor: null }));

    const newest = await get(b, `/api/conversations/${matchId}/messages?limit=4`);
    expect(newest.body).toBe(JSON.stringify({ messages: rows.slice(2).map(view), nextCursor: rows[2].id }));
    const older = await get(b, `/api/conversations/${matchId}/messages?limit=4&before=${rows[2].id}`);
    expect(older.body).toBe(JSON.stringify({ messages: rows.slice(0, 2).map(view), nextCursor: null }));
    const exact = await get(b, `/api/conversations/${matchId}/messages?limit=2&before=${rows[2].id}`);
    expect(exact.body).toBe(JSON.stringify({ messages: rows.slice(0, 2).map(view), nextCursor: null }));
  });

  it('conversations are ordered by latest message, paginated, with previews', async () => {
    const me = await t.member('Popular Person');
    const partners: { matchId: string; other: Member }[] = [];
    for (let i = 0; i < 5; i++) {
      const { a, b, matchId } = await matchedPairWith(me, `Partner${i} Smith`);
      partners.push({ matchId, other: a === me ? b : a });
    }
    // Activity order: 2, 0, 4 have messages (4 newest); 1 and 3 only the match.
    await send(t, partners[2].other, partners[2].matchId, 'first');
    await send(t, me, partners[0].matchId, 'second');
    await send(t, partners[4].other, partners[4].matchId, 'third');
    const page1 = (await get(me, '/api/conversations?limit=2')).json();
    expect(page1.conversations.map((c: { id: string }) => c.id)).toEqual([partners[4].matchId, partners[0].matchId]);
    expect(page1.conversations[0]).toMatchObject({ status: 'matched', unreadCount: 1, other: { firstName: 'Partner4', avatarUrl: null } });
    expect(page1.conversations[1].lastMessage).toMatchObject({ body: 'second', senderId: me.id });
    const page2 = (await get(me, `/api/conversations?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.conversations[0].id).toBe(partners[2].matchId);
    const page3 = (await get(me, `/api/conversations?limit=2&cursor=${page2.nextCursor}`)).json();
    expect(page3.nextCursor).toBeNull();
    const all = [...page1.conversations, ...page2.conversations, ...page3.conversations].map((c: { id: string }) => c.id);
    expect(new Set(all).size).toBe(5);
    expect((await get(me, '/api/conversations?cursor=garbage')).statusCode).toBe(400);
  });
});

/** A new member who matches with `me` in a fresh mixer. */
async function matchedPairWith(me: Member, name: string) {
  const other = await t.member(name);
  const { createMixer, joinMixer, fancyReq } = await import('../../../../tests/helpers/mixer-fixtures');
  const mixerId = await createMixer(t);
  await joinMixer(t, mixerId, [me.id, other.id]);
  await fancyReq(t, me, other, mixerId);
  const res = await fancyReq(t, other, me, mixerId);
  return { a: me, b: other, matchId: res.json().matchId as string };
}

describe('new-message mail', () => {
  it('at most one per conversation per hour, and none when notifyMessage is false', async () => {
    const { a, b, matchId } = await matchedPair(t);
    await send(t, a, matchId, 'Private words about sourdough');
    await send(t, a, matchId, 'two');
    await send(t, a, matchId, 'three');
    const mails = await messageMails(b);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('New message from Maya');
    expect(mails[0].text).toContain(`/messages/${matchId}`);
    expect(mails[0].text).not.toContain('sourdough');

    // The reply is a different recipient: a gets their own mail.
    await send(t, b, matchId, 'reply');
    expect(await messageMails(a)).toHaveLength(1);

    // A second app instance on the same database has no memory of it but sees the outbox: held back.
    const second = await buildApp({ ...t.deps });
    await second.ready();
    const viaSecond = await second.inject({
      method: 'POST',
      url: `/api/conversations/${matchId}/messages`,
      headers: { cookie: a.cookie },
      payload: { body: 'four' },
    });
    await second.close();
    expect(viaSecond.statusCode).toBe(201);
    expect(await messageMails(b)).toHaveLength(1);

    // An hour later (PGlite's clock follows Date.now too) the next message mails again.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 61 * 60_000);
    await send(t, a, matchId, 'five');
    vi.restoreAllMocks();
    expect(await messageMails(b)).toHaveLength(2);

    const other = await matchedPair(t);
    await setPreferences(t, other.b.id, { notifyMessage: false });
    await send(t, other.a, other.matchId, 'hi');
    expect(await messageMails(other.b)).toHaveLength(0);
  });
});
