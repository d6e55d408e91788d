import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';
import { errorBody } from './errors';

export const TOO_LONG = 'This address is too long.';

/**
 * Errors Fastify and Node answer before any route or error handler runs (bad URL encoding,
 * over-long parameters, oversized or garbled headers), in the same `{error:{code,message}}`
 * shape as everything else (DESIGN §5) and without echoing the request back.
 */
export function frameworkErrors(err: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply) {
  closeIfUpgrade(reply);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send(errorBody('uri_too_long', TOO_LONG));
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send(errorBody('bad_request', 'This address is not valid.'));
  }
  return reply.status(400).send(errorBody('bad_request', 'The request could not be understood.'));
}

/** Node's `clientError`: the request never became a request (header overflow, bad HTTP, timeout). */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request took too long to arrive.']
        : ['bad_request', 'The request could not be understood.'];
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * A WebSocket upgrade that gets an ordinary HTTP answer instead of 101 owns its socket: Node
 * no longer manages it, so nothing would ever close it. Close it once the answer is sent.
 */
export function closeIfUpgrade(reply: FastifyReply) {
  if (!reply.request.raw.headers.upgrade) return;
  // Hijacked upgrades (101 written by ws) never finish this response, so they are untouched.
  reply.header('connection', 'close');
  reply.raw.once('finish', () => reply.request.raw.socket?.destroySoon());
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route answers WebSocket upgrades (only these may get a 101). */
    websocketRoute?: boolean;
  }
}

/**
 * Routed requests (404s, refusals before the upgrade) get the same treatment. An upgrade to a
 * route with no WebSocket handler (`//api/realtime`, the SPA wildcard, any HTTP route) is refused
 * here with a 404 in the error shape: @fastify/websocket would otherwise answer 101 and then close.
 */
export function registerUpgradeCleanup(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    closeIfUpgrade(reply);
    // Node marks a request it hands over as an upgrade (the 'upgrade' event @fastify/websocket listens to).
    if ((req.raw as { upgrade?: boolean }).upgrade && !req.routeOptions.config?.websocketRoute) {
      reply.status(404).send(errorBody('not_found', 'Not found.'));
      return;
    }
    done();
  });
}
