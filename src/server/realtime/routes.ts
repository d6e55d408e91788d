import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type ClientMessage, parseClientMessage, type ServerEvent } from '../../shared/realtime/events';
import { getSession } from '../auth/session';
import { AppError } from '../http/errors';
import { ConnectionLimit, dropAbusive, FrameLimit } from './frame-limit';
import type { RealtimeHub } from './hub';

/**
 * A socket that does not answer two pings in a row is dropped, and with it its member's presence
 * (issue 29: "within seconds of losing the connection"), so the interval is short.
 */
const HEARTBEAT_MS = 10_000;

/** WebSocket at /api/realtime: session cookie checked at upgrade, Origin checked, heartbeats. */
export async function registerRealtimeRoutes(app: FastifyInstance) {
  await app.register(websocket, {
    options: { maxPayload: 16 * 1024 },
    // A frame over maxPayload, a bad opcode or bad UTF-8 from the client: ws has already sent
    // the close (1009, 1002, 1007…). Any member can do it, so it is one warn line, not an error
    // with a stack. Errors of our own handler stay errors.
    errorHandler(error, socket, req) {
      const code = (error as Error & { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
        req.log.warn({ wsError: code }, 'realtime socket closed: %s', error.message);
      } else {
        req.log.error({ err: error }, 'realtime handler failed');
      }
      socket.terminate();
    },
  });
  const hub = app.realtime;
  const allowedOrigin = new URL(app.deps.config.publicUrl).origin;
  const connections = new ConnectionLimit();

  app.get('/api/realtime', { websocket: true, config: { websocketRoute: true } }, async (socket, req) => {
    if (!originAllowed(req.headers.origin, allowedOrigin, req.headers.host)) {
      socket.close(4003, 'forbidden origin');
      return;
    }
    const current = await getSession(req).catch(() => null);
    if (!current?.user.emailVerified) {
      socket.close(4001, 'unauthenticated');
      return;
    }
    // Reconnecting in a loop is abuse too: each connection costs a session check.
    if (!connections.take(current.user.id)) return dropAbusive(socket, 'too many connections');
    const client = hub.add(socket, current.user.id, current.session.id);
    const send = (event: ServerEvent) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(event));
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    socket.on('close', () => {
      clearInterval(heartbeat);
      hub.remove(client);
    });
    const limit = new FrameLimit();
    socket.on('message', async (raw) => {
      // Every frame counts, valid or not: an abusive socket is closed, not answered.
      if (!limit.take()) return dropAbusive(socket, 'too many messages');
      alive = true;
      const message = parseClientMessage(raw.toString());
      if (!message) return send({ type: 'error', code: 'validation', message: 'Unrecognised message' });
      if (message.type === 'ping') return send({ type: 'pong' });
      if (message.type === 'unsubscribe') return hub.unsubscribe(client, message.room);
      if (message.type === 'send') return send(await sendOverSocket(hub, current.user.id, message, req.log));
      if (message.type === 'typing') {
        const refused = await hub.typing(client, message.room, message.typing).catch(() => null);
        return refused ? send({ type: 'error', code: 'forbidden', message: refused }) : undefined;
      }
      const ok = await hub.subscribe(client, message.room).catch(() => false);
      send(
        ok
          ? { type: 'subscribed', room: message.room }
          : { type: 'error', code: 'forbidden', message: 'You cannot join this room', room: message.room },
      );
      const presence = ok ? await hub.presenceFor(client, message.room).catch(() => null) : null;
      if (presence) send(presence);
    });
    send({ type: 'ready', userId: current.user.id });
  });

  app.addHook('onClose', async () => hub.closeAll());
}

/**
 * A chat line sent over the socket: the same handler, rules and limit as the HTTP route, and
 * the same answers (`sent` with the committed message, or `send-failed` with the code and
 * message the route would send). Saves a request, a session lookup and a response per line.
 */
async function sendOverSocket(
  hub: RealtimeHub,
  userId: string,
  message: Extract<ClientMessage, { type: 'send' }>,
  log: FastifyBaseLogger,
): Promise<ServerEvent> {
  const { ref, room, body, clientKey, replyToId, mentions, confirmed } = message;
  const handler = hub.senderFor(room);
  if (!handler) return { type: 'send-failed', ref, code: 'validation', message: 'You cannot send messages here.' };
  try {
    return { type: 'sent', ref, message: await handler(userId, room, { body, clientKey, replyToId, mentions, confirmed }) };
  } catch (err) {
    if (err instanceof AppError) {
      const retryAfter = Number(err.headers?.['retry-after']);
      return { type: 'send-failed', ref, code: err.code, message: err.message, ...(retryAfter > 0 ? { retryAfterS: retryAfter } : {}) };
    }
    log.error({ err }, 'chat send over the socket failed');
    return { type: 'send-failed', ref, code: 'internal', message: 'Something went wrong on our side. Please try again.' };
  }
}

/** Browsers send Origin on upgrades; `null`, garbage or another site is refused (no URL parse may throw). */
function originAllowed(origin: string | undefined, allowedOrigin: string, host: string | undefined): boolean {
  if (!origin || origin === allowedOrigin) return true;
  return URL.canParse(origin) && new URL(origin).host === host;
}
