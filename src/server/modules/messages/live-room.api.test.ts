import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, type LiveSocket } from '../../../../tests/helpers/live-socket';
import { matchedPair } from '../../../../tests/helpers/mixer-fixtures';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';

/** The live room of a private conversation (issue 29): typing and presence, as in the mixer's room. */
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

const connect = (cookie: string, room?: string) => connectLive(wsUrl, cookie, room);
const closeAll = (...conns: LiveSocket[]) => {
  for (const c of conns) c.socket.close();
};

describe('typing in a private conversation', () => {
  it('reaches the other member, never the typist or an outsider, and stops when told', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Maya Typer', 'Rhys Reader']);
    const room = `conversation:${matchId}`;
    const outsider = await t.member('Olly Outside');
    const ca = await connect(a.cookie, room);
    const cb = await connect(b.cookie, room);
    const co = await connect(outsider.cookie);

    const mark = cb.events.length;
    const own = ca.events.length;
    ca.typing(room);
    expect(await cb.next(cb.is('typing'), mark)).toEqual({ type: 'typing', room, userId: a.id, typing: true });
    ca.typing(room, false);
    expect(
      await cb.next(
        cb.is('typing', (e) => !e.typing),
        mark,
      ),
    ).toMatchObject({ userId: a.id, typing: false });
    await ca.drain();
    expect(ca.events.slice(own).filter((e) => e.type === 'typing')).toEqual([]);

    // An outsider can neither join the room nor type into it.
    const om = co.events.length;
    co.socket.send(JSON.stringify({ type: 'subscribe', room }));
    expect(await co.next(co.is('error'), om)).toMatchObject({ code: 'forbidden', room });
    const before = cb.events.length;
    co.typing(room);
    expect(
      await co.next(
        co.is('error', (e) => !e.room),
        om,
      ),
    ).toEqual({ type: 'error', code: 'forbidden', message: 'You are not in this room.' });
    await cb.drain();
    expect(cb.events.slice(before).some((e) => e.type === 'typing')).toBe(false);
    closeAll(ca, cb, co);
  });
});

describe('presence in a private conversation', () => {
  it('shows whether the other is here now; closing the tab or losing the connection ends it', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Fay Present', 'Gus Present']);
    const room = `conversation:${matchId}`;
    const ca = await connect(a.cookie, room);
    expect(ca.events.find(ca.is('presence'))?.userIds).toEqual([a.id]);

    let mark = ca.events.length;
    const cb = await connect(b.cookie, room);
    expect(await ca.next(ca.is('presence.changed'), mark)).toEqual({ type: 'presence.changed', room, userId: b.id, online: true });
    expect(cb.events.find(cb.is('presence'))?.userIds.sort()).toEqual([a.id, b.id].sort());

    mark = ca.events.length;
    cb.socket.close();
    expect(await ca.next(ca.is('presence.changed'), mark)).toEqual({ type: 'presence.changed', room, userId: b.id, online: false });

    const cb2 = await connect(b.cookie, room);
    await ca.next(
      ca.is('presence.changed', (e) => e.online),
      mark,
    );
    mark = ca.events.length;
    cb2.socket.terminate();
    expect(await ca.next(ca.is('presence.changed'), mark)).toMatchObject({ userId: b.id, online: false });
    closeAll(ca);
  });

  it('a block ends the room for both: no typing or presence crosses it, and neither can join again', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Ada Blocker', 'Ben Blocked']);
    const room = `conversation:${matchId}`;
    const ca = await connect(a.cookie, room);
    const cb = await connect(b.cookie, room);
    expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: a.cookie, payload: { userId: b.id } })).statusCode).toBeLessThan(
      300,
    );
    const marks = [ca.events.length, cb.events.length];
    cb.typing(room);
    expect(
      await cb.next(
        cb.is('error', (e) => !e.room),
        marks[1],
      ),
    ).toMatchObject({ code: 'forbidden' });
    for (const c of [ca, cb]) {
      const from = c.events.length;
      c.socket.send(JSON.stringify({ type: 'subscribe', room }));
      expect(await c.next(c.is('error'), from)).toMatchObject({ code: 'forbidden', room });
    }
    ca.typing(room);
    await ca.drain();
    await cb.drain();
    expect(ca.events.slice(marks[0]).some((e) => e.type === 'typing' || (e.type === 'presence.changed' && e.online))).toBe(false);
    expect(cb.events.slice(marks[1]).some((e) => e.type === 'typing' || (e.type === 'presence.changed' && e.online))).toBe(false);
    closeAll(ca, cb);
  });
});
