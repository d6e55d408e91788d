import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { matchedPair, type Member, send } from '../../../../tests/helpers/mixer-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { DirectMessage, ServerEvent } from '../../../shared/realtime/events';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';
import { DM_MESSAGES } from '../../../shared/schemas/messages';
import { blocks } from '../../db/schema';
import { DM_RATE_RULES } from './routes';

/** Private messages (issue 29): replies, reactions, edit and unsend, sends that never double. */
const t = setupTestApp({ restoreMocks: true });

const post = (m: Member | undefined, matchId: string, payload: object) =>
  t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages`, cookie: m?.cookie, payload });
const page = async (m: Member, matchId: string) =>
  (await t.request({ method: 'GET', url: `/api/conversations/${matchId}/messages`, cookie: m.cookie })).json().messages as DirectMessage[];
const edit = (m: Member | undefined, matchId: string, id: string, body: unknown) =>
  t.request({ method: 'PATCH', url: `/api/conversations/${matchId}/messages/${id}`, cookie: m?.cookie, payload: { body } });
const unsend = (m: Member | undefined, matchId: string, id: string) =>
  t.request({ method: 'DELETE', url: `/api/conversations/${matchId}/messages/${id}`, cookie: m?.cookie });
const react = (m: Member | undefined, matchId: string, id: string, emoji: unknown) =>
  t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages/${id}/reactions`, cookie: m?.cookie, payload: { emoji } });

function captured() {
  const events: { room: string; event: ServerEvent }[] = [];
  vi.spyOn(t.app.realtime, 'publish').mockImplementation(async (r, e) => {
    events.push({ room: r, event: e });
  });
  return events;
}

describe('who may change a message', () => {
  it('anonymous 401; a third member and an admin 403; only the sender edits or unsends; the other reacts', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const third = await t.member('Nosy Neighbour');
    const admin = await t.member('Ada Admin', { admin: true });
    const m = (await send(t, a, matchId, 'Drinks Friday?')).json().message as DirectMessage;
    expect((await edit(undefined, matchId, m.id, 'x')).statusCode).toBe(401);
    expect((await unsend(undefined, matchId, m.id)).statusCode).toBe(401);
    expect((await react(undefined, matchId, m.id, '👍')).statusCode).toBe(401);
    for (const who of [third, admin]) {
      expect((await edit(who, matchId, m.id, 'x')).statusCode).toBe(403);
      expect((await unsend(who, matchId, m.id)).statusCode).toBe(403);
      expect((await react(who, matchId, m.id, '👍')).statusCode).toBe(403);
    }
    const notMine = await edit(b, matchId, m.id, 'changed');
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().error.message).toBe(LINE_MESSAGES.notYours);
    expect((await unsend(b, matchId, m.id)).statusCode).toBe(403);
    expect((await react(b, matchId, m.id, '👍')).statusCode).toBe(200);
    expect((await react(b, matchId, m.id, '🍆')).statusCode).toBe(400);
    expect((await edit(a, matchId, '00000000-0000-4000-8000-000000000000', 'x')).statusCode).toBe(404);
    expect((await page(a, matchId))[0].body).toBe('Drinks Friday?');
  });

  it('across a block nobody edits or reacts: the blocked member finds no conversation (404), the blocker has it read-only (409); the blocked member’s reactions are not shown', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const m = (await send(t, a, matchId, 'Hi there')).json().message as DirectMessage;
    await react(b, matchId, m.id, '❤️');
    await t.database.db.insert(blocks).values({ blockerId: a.id, blockedId: b.id });
    expect((await react(b, matchId, m.id, '😂')).statusCode).toBe(404);
    expect((await edit(a, matchId, m.id, 'Hello there')).statusCode).toBe(409);
    expect((await page(a, matchId))[0].reactions).toEqual([]);
  });
});

describe('replies, reactions, edit and unsend in a conversation', () => {
  it('a reply quotes the original; another conversation’s message is a 400; unsent, the quote and text are gone everywhere', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const other = await matchedPair(t, ['Sam Other', 'Jo Else']);
    const foreign = (await send(t, other.a, other.matchId, 'Elsewhere')).json().message as DirectMessage;
    const original = (await send(t, a, matchId, 'My number is 07700 900123, text me')).json().message as DirectMessage;

    const wrong = await post(b, matchId, { body: 'ok', replyToId: foreign.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(LINE_MESSAGES.replyElsewhere);

    const reply = await post(b, matchId, { body: 'Will do', replyToId: original.id });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().message.replyTo).toEqual({
      id: original.id,
      senderName: 'Maya',
      body: 'My number is 07700 900123, text me',
      senderId: a.id,
      flag: original.flag,
    });
    // The page (JSON written by the database) carries the same quote.
    expect((await page(a, matchId)).find((m) => m.id === reply.json().message.id)?.replyTo).toEqual(reply.json().message.replyTo);

    const events = captured();
    const gone = await unsend(a, matchId, original.id);
    expect(gone.statusCode).toBe(200);
    expect(events.map((e) => e.room).sort()).toEqual([`conversation:${matchId}`, `user:${b.id}`].sort());
    expect(JSON.stringify(events)).not.toContain('07700');
    vi.restoreAllMocks();

    const seen = await page(b, matchId);
    expect(seen.find((m) => m.id === original.id)).toMatchObject({ body: '', unsentAt: expect.any(String) });
    expect(seen.find((m) => m.id === reply.json().message.id)?.replyTo).toEqual({ id: original.id, senderName: null, body: null });
    const list = (await t.request({ method: 'GET', url: '/api/conversations', cookie: b.cookie })).json();
    expect(JSON.stringify(list)).not.toContain('07700');
    // The preview shows the latest message that still has its text.
    expect(list.conversations[0].lastMessage.body).toBe('Will do');
    // The other member's data export carries none of it.
    const exported = await t.request({ method: 'GET', url: '/api/me/export', cookie: b.cookie });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('07700');
    expect(exported.body).toContain('Will do');
    // With every message unsent, the preview has nothing to show (not an empty line).
    await unsend(b, matchId, reply.json().message.id);
    const emptied = (await t.request({ method: 'GET', url: '/api/conversations', cookie: b.cookie })).json();
    expect(emptied.conversations[0].lastMessage).toBeNull();
  });

  it('reactions: one per member, replaced or removed, live in the conversation room, never an unread count', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const m = (await send(t, a, matchId, 'Fancy a walk?')).json().message as DirectMessage;
    const events = captured();
    expect((await react(b, matchId, m.id, '❤️')).json().emoji).toBe('❤️');
    expect((await react(b, matchId, m.id, '🔥')).json().emoji).toBe('🔥');
    expect(events.every((e) => e.event.type === 'dm.reaction' && e.room === `conversation:${matchId}`)).toBe(true);
    vi.restoreAllMocks();
    expect((await page(a, matchId))[0].reactions).toEqual([{ emoji: '🔥', by: [{ id: b.id, firstName: 'Rhys' }] }]);
    expect((await react(b, matchId, m.id, '🔥')).json().emoji).toBeNull();
    expect((await page(a, matchId))[0].reactions).toEqual([]);
  });

  it('edit within 15 minutes; after, a 409 and the text kept', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const m = (await send(t, a, matchId, 'Saturday at 7?')).json().message as DirectMessage;
    const ok = await edit(a, matchId, m.id, 'Saturday at 8?');
    expect(ok.statusCode).toBe(200);
    expect((await page(b, matchId))[0]).toMatchObject({ body: 'Saturday at 8?', editedAt: expect.any(String) });
    const emptied = await edit(a, matchId, m.id, ' ');
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().error.message).toBe(LINE_MESSAGES.editEmpty);
    await t.database.db.execute(sql`update direct_messages set created_at = now() - interval '15 minutes 1 second' where id = ${m.id}`);
    const late = await edit(a, matchId, m.id, 'Sunday?');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(LINE_MESSAGES.editWindow);
    expect((await page(b, matchId))[0].body).toBe('Saturday at 8?');
  });
});

describe('the reaction limit', () => {
  it('refuses reacting faster than sending is allowed, with a Retry-After, and leaves the last reaction and sending alone', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Maya Quick', 'Rhys Rapid']);
    const m = (await send(t, a, matchId, 'Picnic Sunday?')).json().message as DirectMessage;
    const perMinute = DM_RATE_RULES[0].limit;
    const emojis = ['❤️', '😂'];
    for (let i = 0; i < perMinute; i++) {
      const ok = await react(b, matchId, m.id, emojis[i % 2]);
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const refused = await react(b, matchId, m.id, '🔥');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'rate_limited', message: LINE_MESSAGES.reactionRateLimited });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await page(a, matchId))[0].reactions).toEqual([{ emoji: emojis[(perMinute - 1) % 2], by: [{ id: b.id, firstName: 'Rhys' }] }]);
    // Reacting has an allowance of its own: sending is not touched.
    expect((await send(t, b, matchId, 'Yes please')).statusCode).toBe(201);
  });
});

describe('sends that never double', () => {
  it('a retried send with the same key returns the first message, with no second delivery, count or mail', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const events = captured();
    const first = await post(a, matchId, { body: 'Are you free?', clientKey: 'dm-key-0001' });
    expect(first.statusCode).toBe(201);
    const again = await post(a, matchId, { body: 'Are you free?', clientKey: 'dm-key-0001' });
    expect(again.statusCode).toBe(200);
    expect(again.json().message.id).toBe(first.json().message.id);
    expect(events.filter((e) => e.event.type === 'dm.message')).toHaveLength(2); // room + recipient, once
    expect(events.filter((e) => e.event.type === 'counter' && e.event.key === 'unreadMessages')).toHaveLength(1);
    vi.restoreAllMocks();
    expect(await page(b, matchId)).toHaveLength(1);
    // Once A has ended it (read-only for A), a retry still gets its first message back; a new line is refused.
    expect((await post(b, matchId, { body: 'Yes!', clientKey: 'dm-key-0001' })).statusCode).toBe(201);
    await t.database.db.execute(sql`update matches set status = 'unmatched', ended_by = ${a.id} where id = ${matchId}`);
    expect((await post(a, matchId, { body: 'Are you free?', clientKey: 'dm-key-0001' })).statusCode).toBe(200);
    const refused = await post(a, matchId, { body: 'Hello?', clientKey: 'dm-key-0002' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(DM_MESSAGES.ended);
  });
});
