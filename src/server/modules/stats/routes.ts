import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../../auth/session';
import { dashboardCounters } from './service';

export function registerStatsRoutes(app: FastifyInstance) {
  app.get('/api/stats', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return dashboardCounters(app.deps.database.db, user.id);
  });
}
