import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests from a browser must come from our own origin (DESIGN §5). Browsers
 * always send Origin on such requests; clients without one are not browsers and carry no
 * ambient cookies from other sites.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string) {
  const allowed = new URL(publicUrl).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE.has(req.method)) return;
    const origin = req.headers.origin;
    if (!origin) return;
    if (origin === allowed) return;
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host && host === req.headers.host) return;
    return reply.status(403).send(errorBody('forbidden', 'This request came from another site and was refused.'));
  });
}
