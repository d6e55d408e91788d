import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { fanciesQuerySchema, fancyBodySchema, memberParamSchema } from '../../../shared/schemas/matches';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { MINUTE } from '../../http/rate-limiter';
import { fancy, listFancied, unfancy } from './service';

/** Fancies (DESIGN §6): the participant cards of a mixer call these. */
export function registerFancyRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('fancies');
  const rule = [{ limit: 60, windowMs: MINUTE }];

  app.get('/api/fancies', { ...verifiedFirst, schema: { querystring: fanciesQuerySchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    const { mixerId } = req.query as z.output<typeof fanciesQuerySchema>;
    reply.header('cache-control', 'no-store');
    return { fancied: await listFancied(app, user.id, mixerId) };
  });

  app.put('/api/fancies/:userId', { ...verifiedFirst, schema: { params: memberParamSchema, body: fancyBodySchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`fancy:${user.id}`, rule, 'Slow down a little — try again in a minute.');
    const { userId } = req.params as z.output<typeof memberParamSchema>;
    const { mixerId } = req.body as z.output<typeof fancyBodySchema>;
    return fancy(app, user.id, userId, mixerId);
  });

  app.delete('/api/fancies/:userId', { ...verifiedFirst, schema: { params: memberParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { userId } = req.params as z.output<typeof memberParamSchema>;
    return unfancy(app, user.id, userId);
  });
}
