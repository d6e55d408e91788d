import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { parseServerEvent, type ServerEvent } from '../../shared/realtime/events';
import { textFrames } from '../../../tests/helpers/fake-socket';
import { createLocalBus } from './bus';
import { RealtimeHub } from './hub';
import { PRESENCE_EXPIRY_MS, PRESENCE_REFRESH_MS } from './presence';

function fakeSocket() {
  const sent: ServerEvent[] = [];
  const socket = { OPEN: 1, readyState: 1, send: textFrames((d) => sent.push(parseServerEvent(d) as ServerEvent)), close: () => {} };
  return { socket: socket as unknown as WebSocket, sent };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
/** Presence changes of others (a member's own arrival reaches them too). */
const changes = (sent: ServerEvent[], self?: string) => sent.filter((e) => e.type === 'presence.changed' && e.userId !== self);

/** Two instances on one bus, as two processes on one PostgreSQL would be. */
function twoInstances(hidden: Record<string, string[]> = {}) {
  const bus = createLocalBus();
  const hubs = [new RealtimeHub(bus), new RealtimeHub(bus)];
  for (const hub of hubs) {
    hub.authorize('mixer', async () => true);
    hub.hideWith('mixer', async () => new Map(['ann', 'bob', 'cy', 'dee'].map((u) => [u, hidden[u] ?? []])));
  }
  return hubs;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('presence across instances', () => {
  it('a member on one instance is seen on the other, and leaves when their last socket goes', async () => {
    const [a, b] = twoInstances();
    const ann = fakeSocket();
    const bob = fakeSocket();
    const ca = a.add(ann.socket, 'ann', 's1');
    await a.subscribe(ca, 'mixer:m');
    await flush();
    const cb = b.add(bob.socket, 'bob', 's2');
    await b.subscribe(cb, 'mixer:m');
    await flush();
    expect(await b.presenceFor(cb, 'mixer:m')).toEqual({ type: 'presence', room: 'mixer:m', userIds: ['ann', 'bob'] });
    expect(changes(ann.sent, 'ann')).toEqual([{ type: 'presence.changed', room: 'mixer:m', userId: 'bob', online: true }]);

    // A second socket of Bob's on instance A, then his socket on B closes: still here.
    const bob2 = fakeSocket();
    const cb2 = a.add(bob2.socket, 'bob', 's3');
    await a.subscribe(cb2, 'mixer:m');
    await flush();
    b.remove(cb);
    await flush();
    expect(changes(ann.sent, 'ann')).toHaveLength(1);
    a.remove(cb2);
    await flush();
    expect(changes(ann.sent, 'ann').at(-1)).toEqual({ type: 'presence.changed', room: 'mixer:m', userId: 'bob', online: false });
    for (const h of [a, b]) h.closeAll();
  });

  it('hidden members (a block either way) never see each other arrive, in the snapshot or as a change', async () => {
    const [a, b] = twoInstances({ ann: ['bob'], bob: ['ann'] });
    const ann = fakeSocket();
    const bob = fakeSocket();
    const cy = fakeSocket();
    const ca = a.add(ann.socket, 'ann', 's1');
    await a.subscribe(ca, 'mixer:m');
    const cc = a.add(cy.socket, 'cy', 's3');
    await a.subscribe(cc, 'mixer:m');
    await flush();
    const cb = b.add(bob.socket, 'bob', 's2');
    await b.subscribe(cb, 'mixer:m');
    await flush();
    expect(changes(ann.sent, 'ann').some((e) => e.type === 'presence.changed' && e.userId === 'bob')).toBe(false);
    expect(changes(cy.sent, 'cy').some((e) => e.type === 'presence.changed' && e.userId === 'bob')).toBe(true);
    expect((await b.presenceFor(cb, 'mixer:m'))?.type === 'presence' && (await b.presenceFor(cb, 'mixer:m'))).toMatchObject({
      userIds: ['cy', 'bob'],
    });
    for (const h of [a, b]) h.closeAll();
  });

  it('an instance that dies is forgotten within the expiry; one that starts late learns who is here', async () => {
    vi.useFakeTimers();
    const bus = createLocalBus();
    const a = new RealtimeHub(bus);
    a.authorize('mixer', async () => true);
    const ann = fakeSocket();
    await a.subscribe(a.add(ann.socket, 'ann', 's1'), 'mixer:m');
    await vi.advanceTimersByTimeAsync(0);
    // B starts later: its hello makes A re-announce.
    const b = new RealtimeHub(bus);
    b.authorize('mixer', async () => true);
    await vi.advanceTimersByTimeAsync(0);
    const bob = fakeSocket();
    const cb = b.add(bob.socket, 'bob', 's2');
    await b.subscribe(cb, 'mixer:m');
    expect(await b.presenceFor(cb, 'mixer:m')).toMatchObject({ userIds: ['ann', 'bob'] });

    // A dies without a word: it stops refreshing, and B forgets Ann within the expiry.
    a.closeAll();
    await vi.advanceTimersByTimeAsync(PRESENCE_EXPIRY_MS + PRESENCE_REFRESH_MS);
    expect(await b.presenceFor(cb, 'mixer:m')).toMatchObject({ userIds: ['bob'] });
    expect(changes(bob.sent, 'bob').at(-1)).toEqual({ type: 'presence.changed', room: 'mixer:m', userId: 'ann', online: false });
    b.closeAll();
  });
});

describe('typing through the hub', () => {
  it('reaches the room on both instances except the typist and members hidden from them; at most once a second', async () => {
    const [a, b] = twoInstances({ ann: ['dee'], dee: ['ann'] });
    const sockets = Object.fromEntries(['ann', 'bob', 'dee'].map((n) => [n, fakeSocket()]));
    const ca = a.add(sockets.ann.socket, 'ann', 's1');
    await a.subscribe(ca, 'mixer:m');
    const cbob = b.add(sockets.bob.socket, 'bob', 's2');
    await b.subscribe(cbob, 'mixer:m');
    const cdee = b.add(sockets.dee.socket, 'dee', 's3');
    await b.subscribe(cdee, 'mixer:m');
    expect(await a.typing(ca, 'mixer:m', true)).toBeNull();
    expect(await a.typing(ca, 'mixer:m', true)).toBeNull();
    const typing = (n: string) => sockets[n].sent.filter((e) => e.type === 'typing');
    expect(typing('bob')).toEqual([{ type: 'typing', room: 'mixer:m', userId: 'ann', typing: true }]);
    expect(typing('dee')).toEqual([]);
    expect(typing('ann')).toEqual([]);
    expect(await b.typing(cbob, 'mixer:other', true)).toBe('You are not in this room.');
    for (const h of [a, b]) h.closeAll();
  });

  it('relays "stopped typing" once after a "typing", and drops the rest unsent', async () => {
    const [a, b] = twoInstances({});
    const sockets = Object.fromEntries(['ann', 'bob'].map((n) => [n, fakeSocket()]));
    const ca = a.add(sockets.ann.socket, 'ann', 's1');
    await a.subscribe(ca, 'mixer:m');
    await b.subscribe(b.add(sockets.bob.socket, 'bob', 's2'), 'mixer:m');
    const typing = () => sockets.bob.sent.filter((e) => e.type === 'typing').map((e) => (e as { typing: boolean }).typing);
    for (let i = 0; i < 20; i++) expect(await a.typing(ca, 'mixer:m', false)).toBeNull();
    expect(typing()).toEqual([]);
    await a.typing(ca, 'mixer:m', true);
    for (let i = 0; i < 20; i++) await a.typing(ca, 'mixer:m', false);
    expect(typing()).toEqual([true, false]);
    for (const h of [a, b]) h.closeAll();
  });
});
