import type { FastifyInstance } from 'fastify';

/** WebSocket close code 1012 "Service Restart": the client reconnects (to another instance) and catches up. */
export const CLOSE_SERVICE_RESTART = 1012;

/**
 * The first half of a graceful stop (SIGTERM, docs/decisions/020): readiness turns to
 * "draining" so the load balancer stops sending new work, then, after `delayMs` for it to
 * notice, every socket is told to reconnect elsewhere. Closing the app afterwards stops
 * accepting connections and lets in-flight requests finish (Fastify's close).
 */
export async function drain(app: FastifyInstance, delayMs: number): Promise<void> {
  app.readiness.startDraining();
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  for (const socket of app.websocketServer?.clients ?? []) socket.close(CLOSE_SERVICE_RESTART, 'server restarting, reconnect');
}
