import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../../auth/session';
import { ownReliability } from './service';

/** GET /api/me/reliability: the signed-in member's own record, and only theirs (issue 14). */
export function registerReliabilityRoutes(app: FastifyInstance) {
  app.get('/api/me/reliability', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return ownReliability(app.deps.database.db, user.id);
  });
}
