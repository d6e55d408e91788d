import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests from a browser must come from our own origin (DESIGN §5). Browsers
 * always send Origin on such requests; clients without one are not browsers and carry no
 * ambient cookies from other sites. A callback hook: reads pass through without a promise.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string) {
  const allowed = new URL(publicUrl).origin;
  app.addHook('onRequest', (req, reply, done) => {
    if (SAFE.has(req.method)) return done();
    const origin = req.headers.origin;
    if (!origin || origin === allowed) return done();
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host && host === req.headers.host) return done();
    reply.status(403).send(errorBody('forbidden', 'This request came from another site and was refused.'));
  });
}
