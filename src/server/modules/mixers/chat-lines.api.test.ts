import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createMixer, joinMixer, type Member } from '../../../../tests/helpers/mixer-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { ChatMessage, ServerEvent } from '../../../shared/realtime/events';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';
import { CHAT_RATE_LIMIT, MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { blocks } from '../../db/schema';

/** Mixer chat lines (issue 29): replies, reactions, edit and unsend, sends that never double. */
const t = setupTestApp({ restoreMocks: true });

const post = (m: Member | undefined, mixerId: string, payload: unknown) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages`, cookie: m?.cookie, payload: payload as object });
const history = async (m: Member, mixerId: string) =>
  (await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie })).json().items as ChatMessage[];
const edit = (m: Member | undefined, mixerId: string, id: string, body: unknown) =>
  t.request({ method: 'PATCH', url: `/api/mixers/${mixerId}/messages/${id}`, cookie: m?.cookie, payload: { body } });
const unsend = (m: Member | undefined, mixerId: string, id: string) =>
  t.request({ method: 'DELETE', url: `/api/mixers/${mixerId}/messages/${id}`, cookie: m?.cookie });
const react = (m: Member | undefined, mixerId: string, id: string, emoji: unknown) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages/${id}/reactions`, cookie: m?.cookie, payload: { emoji } });

async function room(names = ['Maya Okafor', 'Rhys Llewellyn', 'Priya Shah']) {
  const people: Member[] = [];
  for (const n of names) people.push(await t.member(n));
  const mixerId = await createMixer(t);
  await joinMixer(
    t,
    mixerId,
    people.map((p) => p.id),
  );
  return { people, mixerId };
}

function captured() {
  const events: { room: string; event: ServerEvent }[] = [];
  vi.spyOn(t.app.realtime, 'publish').mockImplementation(async (r, e) => {
    events.push({ room: r, event: e });
  });
  return events;
}

describe('who may change a line', () => {
  it('anonymous 401; a non-participant and an admin 403; only the sender edits or unsends; a participant reacts', async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room();
    const outsider = await t.member('Olly Outsider');
    const admin = await t.member('Ada Admin', { admin: true });
    const line = (await post(maya, mixerId, { body: 'Anyone seen Aftersun?' })).json() as ChatMessage;

    for (const who of [undefined]) {
      expect((await edit(who, mixerId, line.id, 'x')).statusCode).toBe(401);
      expect((await unsend(who, mixerId, line.id)).statusCode).toBe(401);
      expect((await react(who, mixerId, line.id, '🔥')).statusCode).toBe(401);
    }
    for (const who of [outsider, admin]) {
      const e = await edit(who, mixerId, line.id, 'x');
      expect(e.statusCode).toBe(403);
      expect(e.json().error.message).toBe(MIXER_MESSAGES.chatMembersOnly);
      expect((await unsend(who, mixerId, line.id)).statusCode).toBe(403);
      expect((await react(who, mixerId, line.id, '🔥')).statusCode).toBe(403);
      expect((await post(who, mixerId, { body: 'hi', replyToId: line.id })).statusCode).toBe(403);
    }
    const notMine = await edit(rhys, mixerId, line.id, 'hijacked');
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().error.message).toBe(LINE_MESSAGES.notYours);
    expect((await unsend(rhys, mixerId, line.id)).statusCode).toBe(403);
    expect((await react(rhys, mixerId, line.id, '🔥')).statusCode).toBe(200);
    expect((await history(maya, mixerId)).find((m) => m.id === line.id)?.body).toBe('Anyone seen Aftersun?');
    // Malformed ids are a 400, unknown ones a 404.
    expect((await edit(maya, mixerId, 'nope', 'x')).statusCode).toBe(400);
    expect((await react(maya, mixerId, '00000000-0000-4000-8000-000000000000', '🔥')).statusCode).toBe(404);
  });
});

describe('replies', () => {
  it('quote the original (author and snippet); a line of another room is a 400; an unsent original shows none of its text', async () => {
    const {
      people: [maya, rhys, priya],
      mixerId,
    } = await room();
    const other = await createMixer(t, { title: 'Another room' });
    await joinMixer(t, other, [maya.id]);
    const elsewhere = (await post(maya, other, { body: 'In the other room' })).json() as ChatMessage;
    const original = (await post(maya, mixerId, { body: `Best film of the year? ${'really '.repeat(40)}` })).json() as ChatMessage;

    const wrong = await post(rhys, mixerId, { body: 'Agreed', replyToId: elsewhere.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(LINE_MESSAGES.replyElsewhere);
    expect((await post(rhys, mixerId, { body: 'Agreed', replyToId: 'not-a-uuid' })).statusCode).toBe(400);

    const events = captured();
    const reply = await post(rhys, mixerId, { body: 'Aftersun, easily', replyToId: original.id });
    expect(reply.statusCode).toBe(201);
    const quote = reply.json().replyTo;
    expect(quote.id).toBe(original.id);
    expect(quote.senderName).toBe('Maya');
    expect(quote.body.startsWith('Best film of the year? really')).toBe(true);
    expect(quote.body.length).toBeLessThanOrEqual(140);
    expect(events.find((e) => e.event.type === 'mixer.message')?.event).toMatchObject({ message: { replyTo: { id: original.id } } });
    vi.restoreAllMocks();

    expect((await unsend(maya, mixerId, original.id)).statusCode).toBe(200);
    const seen = await history(priya, mixerId);
    const replyLine = seen.find((m) => m.id === reply.json().id);
    expect(replyLine?.replyTo).toEqual({ id: original.id, senderName: null, body: null });
    expect(JSON.stringify(seen)).not.toContain('Best film');
  });

  it("a quote says who wrote the original and its flag, so the reader's app folds it where it folds the line", async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room();
    const rude = await post(maya, mixerId, { body: 'you are such an idiot', confirmed: true });
    expect(rude.json().flag).toBe('abuse');
    const reply = (await post(rhys, mixerId, { body: '^ read this', replyToId: rude.json().id })).json() as ChatMessage;
    expect(reply.flag).toBeNull();
    expect(reply.replyTo).toMatchObject({ id: rude.json().id, senderId: maya.id, flag: 'abuse' });
    expect((await history(rhys, mixerId)).find((m) => m.id === reply.id)?.replyTo).toMatchObject({ senderId: maya.id, flag: 'abuse' });
  });

  it('a quote of a member hidden from the viewer is unavailable to them, and the live line reaches them that way', async () => {
    const {
      people: [maya, rhys, priya],
      mixerId,
    } = await room();
    const original = (await post(maya, mixerId, { body: 'Secret opinion' })).json() as ChatMessage;
    await t.database.db.insert(blocks).values({ blockerId: priya.id, blockedId: maya.id });
    const events = captured();
    const reply = (await post(rhys, mixerId, { body: 'Same here', replyToId: original.id })).json() as ChatMessage;
    const toPriya = events.find((e) => e.room === `user:${priya.id}` && e.event.type === 'mixer.message');
    expect(toPriya?.event).toMatchObject({ message: { id: reply.id, replyTo: { id: original.id, senderName: null, body: null } } });
    expect(JSON.stringify(toPriya)).not.toContain('Secret');
    expect(events.some((e) => e.room === `mixer:${mixerId}`)).toBe(false);
    vi.restoreAllMocks();
    const priyaView = (await history(priya, mixerId)).find((m) => m.id === reply.id);
    expect(priyaView?.replyTo).toEqual({ id: original.id, senderName: null, body: null });
    const mayaView = (await history(maya, mixerId)).find((m) => m.id === reply.id);
    expect(mayaView?.replyTo?.body).toBe('Secret opinion');
    // Priya cannot answer a line she cannot see.
    expect((await post(priya, mixerId, { body: 'hm', replyToId: original.id })).statusCode).toBe(400);
  });
});

describe('reactions', () => {
  it('one per member per line: another replaces it, the same removes it; unknown ones are a 400; live and never a counter', async () => {
    const {
      people: [maya, rhys, priya],
      mixerId,
    } = await room();
    const line = (await post(maya, mixerId, { body: 'Karaoke later?' })).json() as ChatMessage;
    const unknown = await react(rhys, mixerId, line.id, '💩');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(LINE_MESSAGES.unknownReaction);
    expect((await react(rhys, mixerId, line.id, '')).statusCode).toBe(400);

    const events = captured();
    expect((await react(rhys, mixerId, line.id, '😂')).json()).toEqual({ messageId: line.id, emoji: '😂' });
    expect((await react(priya, mixerId, line.id, '😂')).json().emoji).toBe('😂');
    expect((await react(rhys, mixerId, line.id, '🔥')).json().emoji).toBe('🔥');
    expect(events.filter((e) => e.event.type === 'mixer.reaction').map((e) => e.room)).toEqual([
      `mixer:${mixerId}`,
      `mixer:${mixerId}`,
      `mixer:${mixerId}`,
    ]);
    expect(events.some((e) => e.event.type === 'counter' || e.event.type === 'notice')).toBe(false);
    vi.restoreAllMocks();

    let view = (await history(maya, mixerId)).find((m) => m.id === line.id);
    expect(view?.reactions).toEqual([
      { emoji: '😂', by: [{ id: priya.id, firstName: 'Priya' }] },
      { emoji: '🔥', by: [{ id: rhys.id, firstName: 'Rhys' }] },
    ]);
    expect((await react(rhys, mixerId, line.id, '🔥')).json().emoji).toBeNull();
    view = (await history(maya, mixerId)).find((m) => m.id === line.id);
    expect(view?.reactions).toEqual([{ emoji: '😂', by: [{ id: priya.id, firstName: 'Priya' }] }]);
    const rows = await t.database.db.execute(sql`select count(*)::int as n from mixer_message_reactions where message_id = ${line.id}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });

  it('a blocked member’s reactions are invisible to the blocker and the other way round; reacting to a hidden line is a 404', async () => {
    const {
      people: [maya, rhys, priya],
      mixerId,
    } = await room();
    const line = (await post(maya, mixerId, { body: 'Pub quiz team name?' })).json() as ChatMessage;
    await t.database.db.insert(blocks).values({ blockerId: maya.id, blockedId: rhys.id });
    expect((await react(rhys, mixerId, line.id, '❤️')).statusCode).toBe(404);
    const priyaLine = (await post(priya, mixerId, { body: 'The Quizzly Bears' })).json() as ChatMessage;
    const events = captured();
    await react(rhys, mixerId, priyaLine.id, '😂');
    const delivered = events.filter((e) => e.event.type === 'mixer.reaction').map((e) => e.room);
    expect(delivered).toContain(`user:${priya.id}`);
    expect(delivered).not.toContain(`user:${maya.id}`);
    expect(delivered).not.toContain(`mixer:${mixerId}`);
    vi.restoreAllMocks();
    await react(maya, mixerId, priyaLine.id, '😂');
    const mayaView = (await history(maya, mixerId)).find((m) => m.id === priyaLine.id);
    expect(mayaView?.reactions).toEqual([{ emoji: '😂', by: [{ id: maya.id, firstName: 'Maya' }] }]);
    const rhysView = (await history(rhys, mixerId)).find((m) => m.id === priyaLine.id);
    expect(rhysView?.reactions).toEqual([{ emoji: '😂', by: [{ id: rhys.id, firstName: 'Rhys' }] }]);
    const priyaView = (await history(priya, mixerId)).find((m) => m.id === priyaLine.id);
    expect(priyaView?.reactions?.[0].by).toHaveLength(2);
  });
});

describe('the reaction limit', () => {
  it('refuses reacting faster than sending is allowed, with a Retry-After, and leaves the last reaction and sending alone', async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room(['Maya Quick', 'Rhys Rapid']);
    const line = (await post(maya, mixerId, { body: 'Best board game?' })).json() as ChatMessage;
    // The burst is the chat's (CHAT_RATE_LIMIT): each one taken, each one counted.
    const emojis = ['❤️', '😂'];
    for (let i = 0; i < CHAT_RATE_LIMIT.limit; i++) {
      const ok = await react(rhys, mixerId, line.id, emojis[i % 2]);
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const refused = await react(rhys, mixerId, line.id, '🔥');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'rate_limited', message: LINE_MESSAGES.reactionRateLimited });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const view = (await history(maya, mixerId)).find((m) => m.id === line.id);
    expect(view?.reactions).toEqual([{ emoji: emojis[(CHAT_RATE_LIMIT.limit - 1) % 2], by: [{ id: rhys.id, firstName: 'Rhys' }] }]);
    // Reacting has an allowance of its own: sending is not touched.
    expect((await post(rhys, mixerId, { body: 'Wingspan, easily' })).statusCode).toBe(201);
  });
});

describe('edit and unsend', () => {
  it('edits within 15 minutes (marked edited for everyone); after that, a 409 and the text kept', async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room();
    const line = (await post(maya, mixerId, { body: 'Teh best' })).json() as ChatMessage;
    const events = captured();
    const ok = await edit(maya, mixerId, line.id, 'The best');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ type: 'mixer.line.changed', body: 'The best', unsentAt: null });
    expect(events.find((e) => e.event.type === 'mixer.line.changed')?.room).toBe(`mixer:${mixerId}`);
    vi.restoreAllMocks();
    const seen = (await history(rhys, mixerId)).find((m) => m.id === line.id);
    expect(seen?.body).toBe('The best');
    expect(seen?.editedAt).toBeTruthy();
    // Emptied, an edit is refused with the way to take the line back; the line keeps its text.
    const emptied = await edit(maya, mixerId, line.id, '   ');
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().error.message).toBe(LINE_MESSAGES.editEmpty);
    expect((await history(rhys, mixerId)).find((m) => m.id === line.id)?.body).toBe('The best');

    await t.database.db.execute(sql`update mixer_messages set created_at = now() - interval '16 minutes' where id = ${line.id}`);
    const late = await edit(maya, mixerId, line.id, 'Too late');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(LINE_MESSAGES.editWindow);
    expect((await history(rhys, mixerId)).find((m) => m.id === line.id)?.body).toBe('The best');
  });

  it('unsend at any time: the text is gone from history, events and the database; others see who unsent', async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room();
    const line = (await post(maya, mixerId, { body: 'Oops wrong chat: my address is 1 Acacia Ave' })).json() as ChatMessage;
    await react(rhys, mixerId, line.id, '😮');
    await t.database.db.execute(sql`update mixer_messages set created_at = now() - interval '2 hours' where id = ${line.id}`);
    const events = captured();
    const res = await unsend(maya, mixerId, line.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ body: '', unsentAt: expect.any(String) });
    expect(JSON.stringify(events)).not.toContain('Acacia');
    vi.restoreAllMocks();
    const seen = (await history(rhys, mixerId)).find((m) => m.id === line.id);
    expect(seen).toMatchObject({ body: '', unsentAt: expect.any(String), reactions: [], sender: { firstName: 'Maya' } });
    const stored = await t.database.db.execute(sql`select body from mixer_messages where id = ${line.id}`);
    expect((stored as unknown as { rows: { body: string }[] }).rows[0].body).toBe('');
    // Twice is the same answer; an unsent line can't be edited or reacted to.
    expect((await unsend(maya, mixerId, line.id)).statusCode).toBe(200);
    expect((await edit(maya, mixerId, line.id, 'back')).statusCode).toBe(409);
    expect((await react(rhys, mixerId, line.id, '😮')).statusCode).toBe(409);
  });
});

describe('sends that never double', () => {
  it('a retry with the same client key returns the first line (200), delivers nothing again, and keys are per sender', async () => {
    const {
      people: [maya, rhys],
      mixerId,
    } = await room();
    const key = 'k-3f1c2a9e-retry';
    const events = captured();
    const first = await post(maya, mixerId, { body: 'Hello all', clientKey: key });
    expect(first.statusCode).toBe(201);
    const again = await post(maya, mixerId, { body: 'Hello all', clientKey: key });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().clientKey).toBe(key);
    expect(events.filter((e) => e.event.type === 'mixer.message')).toHaveLength(1);
    vi.restoreAllMocks();
    // Both at once: still one line.
    const [x, y] = await Promise.all([
      post(maya, mixerId, { body: 'Twice?', clientKey: 'k-concurrent-01' }),
      post(maya, mixerId, { body: 'Twice?', clientKey: 'k-concurrent-01' }),
    ]);
    expect(x.json().id).toBe(y.json().id);
    // Another sender may use the same key.
    expect((await post(rhys, mixerId, { body: 'Hello all', clientKey: key })).statusCode).toBe(201);
    const lines = await history(maya, mixerId);
    expect(lines.filter((m) => m.body === 'Hello all')).toHaveLength(2);
    expect(lines.filter((m) => m.body === 'Twice?')).toHaveLength(1);
    expect((await post(maya, mixerId, { body: 'bad key', clientKey: 'has spaces in it' })).statusCode).toBe(400);
  });
});
