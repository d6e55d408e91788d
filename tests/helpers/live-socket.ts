import WebSocket from 'ws';
import { parseServerEvent, type ServerEvent } from '../../src/shared/realtime/events';
import { TEST_ORIGIN } from './test-app';

/**
 * A member's socket on the realtime endpoint (issue 29: typing and presence in the live room),
 * for API tests: the events it received, waits for the next matching one, and `typing`.
 * With `room`, it subscribes and resolves once the room's presence snapshot arrived.
 */
export async function connectLive(wsUrl: string, cookie: string, room?: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie } });
  const events: ServerEvent[] = [];
  const waiters: { pred: (e: ServerEvent) => boolean; from: number; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (raw, isBinary) => {
    // A browser reads a binary frame as a Blob, not an event: only text frames count.
    const e = isBinary ? null : parseServerEvent(raw.toString());
    if (!e) return;
    events.push(e);
    for (const w of [...waiters]) {
      if (!w.pred(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  /** The first event from index `from` on that matches. */
  const next = <E extends ServerEvent>(pred: (e: ServerEvent) => e is E, from = 0) =>
    new Promise<E>((resolve, reject) => {
      const found = events.slice(from).find(pred);
      if (found) return resolve(found);
      waiters.push({ pred, from, resolve: resolve as (e: ServerEvent) => void });
      setTimeout(() => reject(new Error('timed out waiting for an event')), 5000);
    });
  const is =
    <T extends ServerEvent['type']>(type: T, also: (e: Extract<ServerEvent, { type: T }>) => boolean = () => true) =>
    (e: ServerEvent): e is Extract<ServerEvent, { type: T }> =>
      e.type === type && also(e as Extract<ServerEvent, { type: T }>);
  /** Everything the server had for this socket before now (a ping is answered after earlier deliveries). */
  const drain = async () => {
    const mark = events.length;
    socket.send(JSON.stringify({ type: 'ping' }));
    await next(is('pong'), mark);
  };
  await next(is('ready'));
  if (room) {
    socket.send(JSON.stringify({ type: 'subscribe', room }));
    await next(is('presence', (e) => e.room === room));
  }
  const typing = (r: string, on = true) => socket.send(JSON.stringify({ type: 'typing', room: r, typing: on }));
  return { socket, events, next, is, drain, typing };
}

export type LiveSocket = Awaited<ReturnType<typeof connectLive>>;
