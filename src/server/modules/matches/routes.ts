import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { matchesQuerySchema, matchParamSchema } from '../../../shared/schemas/matches';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { listMatches, unmatch } from './service';

/** /matches (DESIGN §6): your matches, and unmatch. */
export function registerMatchRoutes(app: FastifyInstance) {
  app.get('/api/matches', { ...verifiedFirst, schema: { querystring: matchesQuerySchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    const query = req.query as z.output<typeof matchesQuerySchema>;
    reply.header('cache-control', 'no-store');
    return listMatches(app, user.id, query);
  });

  app.post('/api/matches/:id/unmatch', { ...verifiedFirst, schema: { params: matchParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { id } = req.params as z.output<typeof matchParamSchema>;
    return unmatch(app, user.id, id);
  });
}
