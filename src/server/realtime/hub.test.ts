import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { textFrames } from '../../../tests/helpers/fake-socket';
import { createLocalBus } from './bus';
import { CLOSE_TOO_MANY_SOCKETS, MAX_SOCKETS_PER_MEMBER, MIXER_UPDATE_INTERVAL_MS, RealtimeHub } from './hub';

function fakeSocket() {
  const sent: string[] = [];
  const closed: number[] = [];
  const socket = { OPEN: 1, readyState: 1, send: textFrames((d) => sent.push(d)), close: (code: number) => closed.push(code) };
  return { socket: socket as unknown as WebSocket, sent, closed };
}

/** Frames other than presence (issue 29: a member's own arrival in a chat room reaches them too). */
const notPresence = (sent: string[]) => sent.filter((d) => !d.includes('"presence'));

describe('RealtimeHub', () => {
  it('delivers room events to members of the room only, and stops after removeFromRoom', async () => {
    const hub = new RealtimeHub(createLocalBus());
    hub.authorize('mixer', async (userId) => userId === 'ann');
    const ann = fakeSocket();
    const bob = fakeSocket();
    const a = hub.add(ann.socket, 'ann', 's1');
    const b = hub.add(bob.socket, 'bob', 's2');
    expect(await hub.subscribe(a, 'mixer:m1')).toBe(true);
    expect(await hub.subscribe(b, 'mixer:m1')).toBe(false);
    await hub.publish('mixer:m1', { type: 'mixer.updated', mixerId: 'm1' });
    expect(notPresence(ann.sent)).toHaveLength(1);
    expect(notPresence(bob.sent)).toHaveLength(0);
    await hub.removeFromRoom('ann', 'mixer:m1');
    await hub.publish('mixer:m1', { type: 'mixer.updated', mixerId: 'm1' });
    expect(notPresence(ann.sent)).toHaveLength(1);
    // Their own room still works.
    await hub.publish('user:ann', { type: 'pong' });
    expect(notPresence(ann.sent)).toHaveLength(2);
  });

  it('closes the sockets of a session or a member', async () => {
    const hub = new RealtimeHub(createLocalBus());
    const one = fakeSocket();
    const two = fakeSocket();
    hub.add(one.socket, 'cy', 'sa');
    hub.add(two.socket, 'cy', 'sb');
    await hub.closeSession('sa');
    expect(one.closed).toEqual([4001]);
    expect(two.closed).toEqual([]);
    await hub.closeUser('cy');
    expect(two.closed).toEqual([4001]);
  });

  it('remembers a granted room until access is taken away, and not when it is taken away mid-check', async () => {
    const hub = new RealtimeHub(createLocalBus());
    let checks = 0;
    let release: (() => void) | undefined;
    hub.authorize('mixer', async () => {
      checks++;
      if (checks === 3) await new Promise<void>((r) => (release = r));
      return true;
    });
    const a = hub.add(fakeSocket().socket, 'ann', 's1');
    const b = hub.add(fakeSocket().socket, 'ann', 's2');
    expect(await hub.subscribe(a, 'mixer:m1')).toBe(true);
    expect(await hub.subscribe(b, 'mixer:m1')).toBe(true);
    expect(checks).toBe(1);
    await hub.closeUser('ann', 'suspended');
    const c = hub.add(fakeSocket().socket, 'ann', 's3');
    expect(await hub.subscribe(c, 'mixer:m1')).toBe(true);
    expect(checks).toBe(2);
    // A leave that lands while the database is being asked: the answer is not remembered.
    await hub.removeFromRoom('ann', 'mixer:m1');
    const pending = hub.subscribe(c, 'mixer:m1');
    await new Promise((r) => setImmediate(r));
    await hub.removeFromRoom('ann', 'mixer:m1');
    release?.();
    await pending;
    const d = hub.add(fakeSocket().socket, 'ann', 's4');
    await hub.subscribe(d, 'mixer:m1');
    expect(checks).toBe(4);
  });

  it(`closes the oldest sockets beyond ${MAX_SOCKETS_PER_MEMBER} per member`, () => {
    const hub = new RealtimeHub(createLocalBus());
    const sockets = Array.from({ length: MAX_SOCKETS_PER_MEMBER + 2 }, () => fakeSocket());
    for (const [i, s] of sockets.entries()) hub.add(s.socket, 'cy', `s${i}`);
    hub.add(fakeSocket().socket, 'dee', 'other');
    expect(sockets.map((s) => s.closed[0] ?? 0)).toEqual([
      CLOSE_TOO_MANY_SOCKETS,
      CLOSE_TOO_MANY_SOCKETS,
      ...Array(MAX_SOCKETS_PER_MEMBER).fill(0),
    ]);
    expect(hub.size).toBe(MAX_SOCKETS_PER_MEMBER + 1);
  });
});

describe('RealtimeHub mixer.updated coalescing (issue 32)', () => {
  it('sends the first seat change at once and folds a burst into one more at the end of the interval', async () => {
    vi.useFakeTimers();
    try {
      const hub = new RealtimeHub(createLocalBus());
      hub.authorize('mixer', async () => true);
      const ann = fakeSocket();
      const a = hub.add(ann.socket, 'ann', 's1');
      expect(await hub.subscribe(a, 'mixer:m1')).toBe(true);
      expect(await hub.subscribe(a, 'mixer:m2')).toBe(true);
      for (let i = 0; i < 50; i++) await hub.publish('mixer:m1', { type: 'mixer.updated', mixerId: 'm1' });
      // Another mixer's changes are not held back by m1's.
      await hub.publish('mixer:m2', { type: 'mixer.updated', mixerId: 'm2' });
      // Other events are never folded.
      await hub.publish('mixer:m1', { type: 'pong' });
      await hub.publish('mixer:m1', { type: 'pong' });
      const m1 = () => ann.sent.filter((d) => d.includes('"m1"')).length;
      expect(m1()).toBe(1);
      expect(ann.sent.filter((d) => d.includes('"m2"'))).toHaveLength(1);
      expect(ann.sent.filter((d) => d.includes('pong'))).toHaveLength(2);
      vi.advanceTimersByTime(MIXER_UPDATE_INTERVAL_MS);
      expect(m1()).toBe(2);
      // Quiet interval: nothing more, and the next change goes out at once again.
      vi.advanceTimersByTime(MIXER_UPDATE_INTERVAL_MS * 3);
      expect(m1()).toBe(2);
      await hub.publish('mixer:m1', { type: 'mixer.updated', mixerId: 'm1' });
      expect(m1()).toBe(3);
      hub.closeAll();
    } finally {
      vi.useRealTimers();
    }
  });
});
