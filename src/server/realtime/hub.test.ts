import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createLocalBus } from './bus';
import { RealtimeHub } from './hub';

function fakeSocket() {
  const sent: string[] = [];
  const closed: number[] = [];
  const socket = { OPEN: 1, readyState: 1, send: (d: string) => sent.push(d), close: (code: number) => closed.push(code) };
  return { socket: socket as unknown as WebSocket, sent, closed };
}

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
    expect(ann.sent).toHaveLength(1);
    expect(bob.sent).toHaveLength(0);
    await hub.removeFromRoom('ann', 'mixer:m1');
    await hub.publish('mixer:m1', { type: 'mixer.updated', mixerId: 'm1' });
    expect(ann.sent).toHaveLength(1);
    // Their own room still works.
    await hub.publish('user:ann', { type: 'pong' });
    expect(ann.sent).toHaveLength(2);
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
});
