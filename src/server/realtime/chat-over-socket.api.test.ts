import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app';
import { parseServerEvent, type ServerEvent } from '../../shared/realtime/events';
import { GUARD_MESSAGES } from '../../shared/schemas/guard';
import { CHAT_MESSAGE_MAX, MIXER_MESSAGES } from '../../shared/schemas/mixers';
import { blocks, mixerMemberships, mixerMessages, mixers, profiles } from '../db/schema';

/** Chat lines sent over the socket (issue 15): the same rules, limit and answers as the HTTP route. */
let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;

async function member(name: string) {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Dating'] })
    .where(eq(profiles.id, m.id));
  return m;
}

async function liveMixer(...memberIds: string[]) {
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Socket mixer',
      topic: 'Testing',
      status: 'live',
      startsAt: new Date(Date.now() - HOUR / 2),
      endsAt: new Date(Date.now() + HOUR),
      maxParticipants: 8,
    })
    .returning({ id: mixers.id });
  for (const userId of memberIds) await t.database.db.insert(mixerMemberships).values({ mixerId: row.id, userId, state: 'joined' });
  return row.id;
}

async function connect(cookie: string, room?: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie } });
  const events: ServerEvent[] = [];
  const waiters: { pred: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (raw) => {
    const e = parseServerEvent(raw.toString());
    if (!e) return;
    events.push(e);
    for (const w of [...waiters]) {
      if (!w.pred(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  const next = (pred: (e: ServerEvent) => boolean) =>
    new Promise<ServerEvent>((resolve, reject) => {
      const found = events.find(pred);
      if (found) return resolve(found);
      waiters.push({ pred, resolve });
      setTimeout(() => reject(new Error('timed out waiting for an event')), 5000);
    });
  await next((e) => e.type === 'ready');
  if (room) {
    socket.send(JSON.stringify({ type: 'subscribe', room }));
    await next((e) => e.type === 'subscribed');
  }
  const sendLine = (room: string, body: string, ref: string, extras: { clientKey?: string; replyToId?: string } = {}) => {
    socket.send(JSON.stringify({ type: 'send', room, body, ref, ...extras }));
    return next((e) => (e.type === 'sent' || e.type === 'send-failed') && e.ref === ref);
  };
  return { socket, events, next, sendLine };
}

describe('chat over the socket', () => {
  it('commits the line, answers with the message and delivers it to the room like the HTTP route', async () => {
    const [a, b] = await Promise.all([member('Ada Socket'), member('Bea Socket')]);
    const id = await liveMixer(a.id, b.id);
    const ca = await connect(a.cookie, `mixer:${id}`);
    const cb = await connect(b.cookie, `mixer:${id}`);
    const answer = await ca.sendLine(`mixer:${id}`, '  Hello over the socket  ', 'r1');
    expect(answer).toMatchObject({
      type: 'sent',
      ref: 'r1',
      message: { mixerId: id, body: 'Hello over the socket', sender: { id: a.id } },
    });
    const sent = answer.type === 'sent' ? answer.message : undefined;
    expect(await cb.next((e) => e.type === 'mixer.message')).toEqual({ type: 'mixer.message', message: sent });
    const rows = await t.database.db.select().from(mixerMessages).where(eq(mixerMessages.mixerId, id));
    expect(rows.map((r) => [r.id, r.senderId, r.body])).toEqual([[sent?.id, a.id, 'Hello over the socket']]);
    ca.socket.close();
    cb.socket.close();
  });

  it('refuses with the same codes and messages as HTTP: outsiders, bad bodies, rooms without chat', async () => {
    const [a, outsider] = await Promise.all([member('Cal Socket'), member('Out Sider')]);
    const id = await liveMixer(a.id);
    const co = await connect(outsider.cookie);
    expect(await co.sendLine(`mixer:${id}`, 'let me in', 'x1')).toEqual({
      type: 'send-failed',
      ref: 'x1',
      code: 'forbidden',
      message: MIXER_MESSAGES.chatMembersOnly,
    });
    const ca = await connect(a.cookie);
    for (const [i, body] of ['', '   ', 'x'.repeat(CHAT_MESSAGE_MAX + 1)].entries()) {
      expect(await ca.sendLine(`mixer:${id}`, body, `v${i}`)).toMatchObject({ type: 'send-failed', code: 'validation' });
    }
    expect(await ca.sendLine(`conversation:${id}`, 'hi', 'c1')).toMatchObject({ type: 'send-failed', code: 'validation' });
    expect(await ca.sendLine('mixer:not-a-uuid', 'hi', 'n1')).toMatchObject({ type: 'send-failed', code: 'not_found' });
    expect(await t.database.db.select().from(mixerMessages).where(eq(mixerMessages.mixerId, id))).toHaveLength(0);
    co.socket.close();
    ca.socket.close();
  });

  it('a send retried with its client key (after a reconnect, or over HTTP) answers the first line, never a second (issue 29)', async () => {
    const [a, b] = await Promise.all([member('Hal Socket'), member('Ivy Socket')]);
    const id = await liveMixer(a.id, b.id);
    const first = await connect(a.cookie);
    const sent = await first.sendLine(`mixer:${id}`, 'Through the tunnel', 'k1', { clientKey: 'tunnel-line-0001' });
    expect(sent.type).toBe('sent');
    const original = sent.type === 'sent' ? sent.message : undefined;
    first.socket.close();
    // The socket dropped before the answer was seen: a new one retries with the same key.
    const again = await connect(a.cookie);
    expect(await again.sendLine(`mixer:${id}`, 'Through the tunnel', 'k2', { clientKey: 'tunnel-line-0001' })).toEqual({
      type: 'sent',
      ref: 'k2',
      message: original,
    });
    const http = await t.request({
      method: 'POST',
      url: `/api/mixers/${id}/messages`,
      cookie: a.cookie,
      payload: { body: 'Through the tunnel', clientKey: 'tunnel-line-0001' },
    });
    expect(http.statusCode).toBe(200);
    expect(http.json().id).toBe(original?.id);
    // A reply over the socket, and a bad key or a reply to nowhere: the same answers as HTTP.
    const reply = await again.sendLine(`mixer:${id}`, 'Replying', 'k3', { clientKey: 'tunnel-line-0002', replyToId: original?.id });
    expect(reply).toMatchObject({
      type: 'sent',
      message: { replyTo: { id: original?.id, senderName: 'Hal', body: 'Through the tunnel' } },
    });
    expect(await again.sendLine(`mixer:${id}`, 'x', 'k4', { clientKey: 'bad key!' })).toMatchObject({
      type: 'send-failed',
      code: 'validation',
    });
    expect(await again.sendLine(`mixer:${id}`, 'x', 'k5', { replyToId: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      type: 'send-failed',
      code: 'validation',
    });
    const rows = await t.database.db.select().from(mixerMessages).where(eq(mixerMessages.mixerId, id));
    expect(rows).toHaveLength(2);
    again.socket.close();
  });

  it('shares one chat limit with the HTTP route', async () => {
    const a = await member('Dot Socket');
    const id = await liveMixer(a.id);
    // Slow mode (issue 30) is the first limit a burst meets: more than 5 lines in 10 s.
    for (let i = 0; i < 5; i++) {
      const res = await t.request({ method: 'POST', url: `/api/mixers/${id}/messages`, cookie: a.cookie, payload: { body: `http ${i}` } });
      expect(res.statusCode).toBe(201);
    }
    const ca = await connect(a.cookie);
    const refused = await ca.sendLine(`mixer:${id}`, 'one too many', 'l1');
    expect(refused).toMatchObject({ type: 'send-failed', code: 'rate_limited', message: GUARD_MESSAGES.slowMode });
    expect(refused.type === 'send-failed' && refused.retryAfterS).toBeGreaterThan(0);
    ca.socket.close();
  });

  it('never delivers a line to a member who blocked the sender', async () => {
    const [a, b, c] = await Promise.all([member('Eve Socket'), member('Fay Socket'), member('Gus Socket')]);
    const id = await liveMixer(a.id, b.id, c.id);
    await t.database.db.insert(blocks).values({ blockerId: b.id, blockedId: a.id });
    const ca = await connect(a.cookie, `mixer:${id}`);
    const cb = await connect(b.cookie, `mixer:${id}`);
    const cc = await connect(c.cookie, `mixer:${id}`);
    expect(await ca.sendLine(`mixer:${id}`, 'can you hear me', 'b1')).toMatchObject({ type: 'sent' });
    await cc.next((e) => e.type === 'mixer.message');
    // Bea's ping is answered after any delivery to her would have been sent.
    cb.socket.send(JSON.stringify({ type: 'ping' }));
    await cb.next((e) => e.type === 'pong');
    expect(cb.events.some((e) => e.type === 'mixer.message')).toBe(false);
    for (const s of [ca, cb, cc]) s.socket.close();
  });
});
