import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerEvent } from '../../shared/realtime/events';
import { loadParser, RealtimeClient } from './realtime';

/** A stand-in for the browser's WebSocket: the test plays the server. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onmessage?: (msg: { data: string }) => void;
  onopen?: () => void;
  onclose?: (e: { code: number }) => void;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
  serverSends(event: ServerEvent) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const message = (id: string): ServerEvent =>
  ({
    type: 'mixer.message',
    message: { id, mixerId: 'm1', kind: 'member', body: id, createdAt: '2026-11-25T10:00:00.000Z', sender: null },
  }) as ServerEvent;

beforeEach(async () => {
  // Once loaded (with the first connection in the app), frames are delivered as they come, as these tests assume.
  await loadParser();
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets queued promise callbacks run. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('RealtimeClient before its event parser has loaded', () => {
  it('opens the socket at once and delivers what came first, in order, once the parser is here', async () => {
    vi.resetModules();
    const fresh = await import('./realtime');
    const client = new fresh.RealtimeClient('ws://fancy.test/api/realtime');
    const seen: string[] = [];
    client.on((e) => seen.push(e.type === 'mixer.message' ? e.message.id : e.type));
    client.start();
    expect(FakeSocket.all).toHaveLength(1);
    const socket = FakeSocket.all[0];
    socket.open();
    socket.serverSends({ type: 'ready', userId: 'u1' } as ServerEvent);
    socket.serverSends(message('first'));
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    await flush();
    socket.serverSends(message('second'));
    expect(seen).toEqual(['ready', 'first', 'second']);
    client.stop();
  });
});

describe('RealtimeClient after a reconnect (an instance restarted or died)', () => {
  it('refetches only once the rooms are subscribed again, and delivers events that arrive meanwhile after the refetch', async () => {
    const client = new RealtimeClient('ws://fancy.test/api/realtime');
    const seen: string[] = [];
    client.on((e) => {
      if (e.type === 'mixer.message') seen.push(e.message.id);
    });
    let refetches = 0;
    let finishRefetch: () => void = () => {};
    client.onReconnect(() => {
      refetches++;
      seen.push('refetched');
      return new Promise<void>((resolve) => {
        finishRefetch = resolve;
      });
    });
    client.start();
    client.subscribe('mixer:m1');
    const first = FakeSocket.all[0];
    first.open();
    first.serverSends({ type: 'ready', userId: 'u1' });
    first.serverSends({ type: 'subscribed', room: 'mixer:m1' });
    // The page was in the room before the socket was: it catches up once (the next test).
    await flush();
    finishRefetch();
    await flush();
    first.serverSends(message('a'));
    expect(seen).toEqual(['refetched', 'a']);

    // The instance goes away (1012: told to reconnect); the client connects again.
    first.serverCloses(1012);
    await vi.advanceTimersByTimeAsync(1000);
    const second = FakeSocket.all[1];
    expect(second).toBeDefined();
    second.open();
    second.serverSends({ type: 'ready', userId: 'u1' });
    expect(second.sent).toContainEqual({ type: 'subscribe', room: 'mixer:m1' });
    // Not yet subscribed: a refetch now could miss what is posted before the room is joined.
    await flush();
    expect(refetches).toBe(1);
    second.serverSends({ type: 'subscribed', room: 'mixer:m1' });
    await flush();
    expect(refetches).toBe(2);
    // Posted after the refetch's snapshot: held until the refetch has landed, then delivered.
    second.serverSends(message('b'));
    expect(seen).toEqual(['refetched', 'a', 'refetched']);
    finishRefetch();
    await flush();
    expect(seen).toEqual(['refetched', 'a', 'refetched', 'b']);
    // Afterwards events flow straight through again.
    second.serverSends(message('c'));
    expect(seen).toEqual(['refetched', 'a', 'refetched', 'b', 'c']);
    client.stop();
  });

  it('does not wait forever for a subscription the server never confirms', async () => {
    const client = new RealtimeClient('ws://fancy.test/api/realtime');
    let refetches = 0;
    client.onReconnect(() => {
      refetches++;
    });
    client.start();
    client.subscribe('conversation:c1');
    FakeSocket.all[0].open();
    FakeSocket.all[0].serverSends({ type: 'ready', userId: 'u1' });
    FakeSocket.all[0].serverCloses(1006);
    await vi.advanceTimersByTimeAsync(1000);
    const second = FakeSocket.all[1];
    second.open();
    second.serverSends({ type: 'ready', userId: 'u1' });
    await flush();
    expect(refetches).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(refetches).toBe(1);
    client.stop();
  });
});

describe('RealtimeClient on the first connection of a page', () => {
  it('catches up when a view was already in a room: a line posted between the page being read and the room being joined shows', async () => {
    const client = new RealtimeClient('ws://fancy.test/api/realtime');
    const seen: string[] = [];
    client.on((e) => {
      if (e.type === 'mixer.message') seen.push(e.message.id);
    });
    client.onReconnect(() => {
      seen.push('refetched');
    });
    // The chat's lines came with the page; the view joins its room before the socket is open.
    client.subscribe('mixer:m1');
    client.start();
    const socket = FakeSocket.all[0];
    socket.open();
    socket.serverSends({ type: 'ready', userId: 'u1' });
    await flush();
    expect(seen).toEqual([]);
    socket.serverSends({ type: 'subscribed', room: 'mixer:m1' });
    await flush();
    socket.serverSends(message('a'));
    expect(seen).toEqual(['refetched', 'a']);
    client.stop();
  });

  it('asks for nothing when no view is in a room (every member page came with its reads)', async () => {
    const client = new RealtimeClient('ws://fancy.test/api/realtime');
    let refetches = 0;
    client.onReconnect(() => {
      refetches++;
    });
    client.start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].serverSends({ type: 'ready', userId: 'u1' });
    await vi.advanceTimersByTimeAsync(6000);
    expect(refetches).toBe(0);
    client.stop();
  });
});

describe('RealtimeClient with a refetch that hangs', () => {
  it('delivers the held events after at most 10 s anyway', async () => {
    const client = new RealtimeClient('ws://fancy.test/api/realtime');
    const seen: string[] = [];
    client.on((e) => {
      if (e.type === 'mixer.message') seen.push(e.message.id);
    });
    client.onReconnect(() => new Promise(() => {}));
    client.start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].serverSends({ type: 'ready', userId: 'u1' });
    FakeSocket.all[0].serverCloses(1012);
    await vi.advanceTimersByTimeAsync(1000);
    const second = FakeSocket.all[1];
    second.open();
    second.serverSends({ type: 'ready', userId: 'u1' });
    await flush();
    second.serverSends(message('late'));
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual(['late']);
    client.stop();
  });
});
