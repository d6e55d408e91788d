import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app';
import { parseServerEvent, type ServerEvent } from '../../shared/realtime/events';

let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
});

function connect(cookie?: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });
  const events: ServerEvent[] = [];
  const waiters: { pred: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (raw) => {
    const e = parseServerEvent(raw.toString());
    if (!e) return;
    events.push(e);
    for (const w of [...waiters])
      if (w.pred(e)) {
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
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { socket, events, next, closed, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

describe('realtime socket', () => {
  it('refuses anonymous connections', async () => {
    const c = connect();
    expect(await c.closed).toBe(4001);
  });

  it('delivers events published to the member room, and only there', async () => {
    const a = await t.member('Ana');
    const b = await t.member('Ben');
    const ca = connect(a.cookie);
    const cb = connect(b.cookie);
    await ca.next((e) => e.type === 'ready');
    await cb.next((e) => e.type === 'ready');
    await t.app.realtime.publish(`user:${a.id}`, { type: 'counter', key: 'matches', delta: 1 });
    expect(await ca.next((e) => e.type === 'counter')).toEqual({ type: 'counter', key: 'matches', delta: 1 });
    cb.send({ type: 'ping' });
    await cb.next((e) => e.type === 'pong');
    // Ben's pong arrived after the publish, so a counter for him would have arrived first.
    expect(cb.events.some((e) => e.type === 'counter')).toBe(false);
    ca.socket.close();
    cb.socket.close();
  });

  it('refuses rooms a member may not join', async () => {
    const a = await t.member('Cleo');
    const c = connect(a.cookie);
    await c.next((e) => e.type === 'ready');
    c.send({ type: 'subscribe', room: 'user:someone-else' });
    expect(await c.next((e) => e.type === 'error')).toMatchObject({ type: 'error', room: 'user:someone-else' });
    c.socket.close();
  });

  it('closes the socket when the session logs out', async () => {
    const a = await t.member('Dev');
    const c = connect(a.cookie);
    await c.next((e) => e.type === 'ready');
    await t.request({ method: 'POST', url: '/api/auth/logout', cookie: a.cookie, payload: {} });
    expect(await c.closed).toBe(4001);
  });
});
