import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import WebSocket from 'ws';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app';
import { buildApp } from '../app';
import { parseServerEvent, type ServerEvent } from '../../shared/realtime/events';
import { CONNECTION_LIMIT, FRAME_LIMIT } from './frame-limit';
import { MAX_SOCKETS_PER_MEMBER } from './hub';

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

function connect(cookie?: string, origin = TEST_ORIGIN) {
  const socket = new WebSocket(wsUrl, { headers: { origin, ...(cookie ? { cookie } : {}) } });
  socket.on('error', () => {});
  const events: ServerEvent[] = [];
  const waiters: { pred: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (raw, isBinary) => {
    // A browser reads a binary frame as a Blob, not an event: only text frames count.
    const e = isBinary ? null : parseServerEvent(raw.toString());
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
    expect(await c.next((e) => e.type === 'error')).toEqual({
      type: 'error',
      code: 'forbidden',
      message: 'You cannot join this room',
      room: 'user:someone-else',
    });
    c.socket.close();
  });

  it('gives every refusal a machine-readable code, the one the HTTP API uses for the same refusal (issue 29)', async () => {
    const a = await t.member('Cato');
    const c = connect(a.cookie);
    await c.next((e) => e.type === 'ready');
    const refusal = async (message: unknown) => {
      const from = c.events.length;
      c.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
      return c.next((e) => e.type === 'error' && c.events.indexOf(e) >= from);
    };
    // What the schema refuses is `validation`, as a body the API's schema refuses.
    for (const bad of ['not json', { type: 'shout' }, { type: 'subscribe', room: 'admin:all' }, { type: 'typing', room: 'mixer:x' }]) {
      expect(await refusal(bad)).toEqual({ type: 'error', code: 'validation', message: 'Unrecognised message' });
    }
    // Typing in a room one is not in is `forbidden`, as writing there over HTTP is.
    expect(await refusal({ type: 'typing', room: 'mixer:00000000-0000-4000-8000-000000000000', typing: true })).toEqual({
      type: 'error',
      code: 'forbidden',
      message: 'You are not in this room.',
    });
    expect(await refusal({ type: 'subscribe', room: 'conversation:00000000-0000-4000-8000-000000000000' })).toMatchObject({
      code: 'forbidden',
      room: 'conversation:00000000-0000-4000-8000-000000000000',
    });
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

/** Opens a WebSocket to a raw target (not URL-normalised); resolves with the refusal's status and body. */
function refusedUpgrade(target: string, app = t.app): Promise<{ status: number; body: string }> {
  const { port } = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      path: target,
      headers: {
        origin: TEST_ORIGIN,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('realtime abuse (issue 12)', () => {
  it('refuses Origin: null and unparsable origins with 4003, and keeps serving', async () => {
    const a = await t.member('Orla');
    for (const origin of ['null', 'http://[', 'not a url']) {
      const c = connect(a.cookie, origin);
      expect(await c.closed, origin).toBe(4003);
    }
    const ok = connect(a.cookie);
    await ok.next((e) => e.type === 'ready');
    ok.socket.close();
  });

  it('answers malformed upgrade requests with a 4xx in the error shape, with no stack trace', async () => {
    for (const target of ['/api/realtime/%E0%A4%A', '/%%', '/api/%ZZrealtime']) {
      const { status, body } = await refusedUpgrade(target);
      expect(status, target).toBe(400);
      expect(JSON.parse(body), target).toMatchObject({ error: { code: 'bad_request', message: expect.any(String) } });
      expect(body, target).not.toMatch(/\bat .+:\d+:\d+|stack/i);
    }
  });

  it('refuses upgrades to paths with no WebSocket handler before the upgrade, in the error shape', async () => {
    for (const target of ['//api/realtime', '/api/health', '*', '/api/realtime/', '/']) {
      const { status, body } = await refusedUpgrade(target);
      expect(status, target).toBe(404);
      expect(JSON.parse(body), target).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
    }
    // With the SPA served, its wildcard route (added after @fastify/websocket) used to answer 101 and close.
    const clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Fancy</title>');
    const spa = await buildApp({ ...t.deps, clientDir });
    try {
      await spa.listen({ port: 0, host: '127.0.0.1' });
      for (const target of ['//api/realtime', '/mixers/x', '/index.html', '*']) {
        const { status, body } = await refusedUpgrade(target, spa);
        expect(status, target).toBe(404);
        expect(JSON.parse(body), target).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
      }
    } finally {
      await spa.close();
    }
    // The real route still upgrades.
    const a = await t.member('Uma');
    const ok = connect(a.cookie);
    await ok.next((e) => e.type === 'ready');
    ok.socket.close();
  });

  it('closes a socket sending an oversized frame with 1009 and logs one warn line, no error or stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const logged = await createTestApp({}, { logger });
    try {
      await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = logged.app.server.address() as { port: number };
      const a = await logged.member('Max');
      const closes: Promise<number>[] = [];
      for (let i = 0; i < 3; i++) {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`, { headers: { origin: TEST_ORIGIN, cookie: a.cookie } });
        socket.on('error', () => {});
        const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
        await new Promise<void>((resolve) => socket.on('message', () => resolve()));
        socket.send('x'.repeat(20_000));
        closes.push(closed);
      }
      expect(await Promise.all(closes)).toEqual([1009, 1009, 1009]);
      await new Promise((r) => setTimeout(r, 50));
      const serious = lines.filter((l) => Number(l.level) >= 50);
      expect(serious).toEqual([]);
      const warns = lines.filter((l) => l.level === 40);
      expect(warns.length).toBeLessThanOrEqual(3);
      expect(JSON.stringify(warns)).not.toMatch(/stack|\bat .+:\d+:\d+/);
    } finally {
      await logged.close();
    }
  });

  it(`keeps at most ${MAX_SOCKETS_PER_MEMBER} sockets per member, closing the oldest`, async () => {
    const a = await t.member('Sol');
    const sockets = [];
    for (let i = 0; i < MAX_SOCKETS_PER_MEMBER + 3; i++) {
      const c = connect(a.cookie);
      await c.next((e) => e.type === 'ready');
      sockets.push(c);
    }
    expect(await Promise.all(sockets.slice(0, 3).map((c) => c.closed))).toEqual([4008, 4008, 4008]);
    for (const c of sockets.slice(3)) expect(c.socket.readyState).toBe(WebSocket.OPEN);
    for (const c of sockets) c.socket.close();
  });

  it('asks the database once for a room subscribed to again and again, and again after a leave', async () => {
    const a = await t.member('Rae');
    let checks = 0;
    const room = 'mixer:00000000-0000-4000-8000-00000000abcd';
    t.app.realtime.authorize('mixer', async (userId, r) => {
      checks++;
      return userId === a.id && r === room;
    });
    const c = connect(a.cookie);
    const d = connect(a.cookie);
    await c.next((e) => e.type === 'ready');
    await d.next((e) => e.type === 'ready');
    for (let i = 0; i < 5; i++) {
      c.send({ type: 'subscribe', room });
      d.send({ type: 'unsubscribe', room });
      d.send({ type: 'subscribe', room });
    }
    c.send({ type: 'ping' });
    d.send({ type: 'ping' });
    await c.next((e) => e.type === 'pong');
    await d.next((e) => e.type === 'pong');
    expect(c.events.filter((e) => e.type === 'subscribed')).toHaveLength(5);
    expect(d.events.filter((e) => e.type === 'subscribed')).toHaveLength(5);
    expect(checks).toBe(1);
    // Leaving (or a block, suspension) takes the grant away: the next subscribe asks again.
    await t.app.realtime.removeFromRoom(a.id, room);
    c.send({ type: 'subscribe', room });
    await c.next((e) => e.type === 'subscribed' && c.events.filter((x) => x.type === 'subscribed').length === 6);
    expect(checks).toBe(2);
    c.socket.close();
    d.socket.close();
  });

  it('closes a flooding socket with 1008 while another member is served normally', async () => {
    const flooder = await t.member('Flo');
    const other = await t.member('Oti');
    const o = connect(other.cookie);
    await o.next((e) => e.type === 'ready');
    const floods = [];
    for (let i = 0; i < 5; i++) {
      const c = connect(flooder.cookie);
      await c.next((e) => e.type === 'ready');
      floods.push(c);
    }
    for (const c of floods) for (let i = 0; i < 500; i++) c.send({ type: 'ping' });
    const codes = await Promise.all(floods.map((c) => c.closed));
    expect(codes).toEqual(floods.map(() => 1008));
    // Each socket got at most its burst (plus what refilled meanwhile) answered, not 500.
    for (const c of floods) expect(c.events.filter((e) => e.type === 'pong').length).toBeLessThan(FRAME_LIMIT.burst + 20);
    o.send({ type: 'ping' });
    await o.next((e) => e.type === 'pong');
    const res = await t.request({ method: 'GET', url: '/api/mixers', cookie: other.cookie });
    expect(res.statusCode).toBe(200);
    o.socket.close();
  });

  it('closes sockets of a member who reconnects in a loop with 1008', async () => {
    const a = await t.member('Rico');
    const codes: number[] = [];
    for (let i = 0; i < CONNECTION_LIMIT.burst + 5; i++) {
      const c = connect(a.cookie);
      const first = await Promise.race([c.next((e) => e.type === 'ready').then(() => 0), c.closed]);
      if (first) codes.push(first);
      c.socket.close();
      await c.closed;
    }
    expect(codes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(codes)).toEqual(new Set([1008]));
  });
});
