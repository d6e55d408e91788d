import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { memberParamSchema } from '../../../shared/schemas/matches';
import { blockSchema } from '../../../shared/schemas/safety';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { listBlocked, unblock } from '../safety/service';
import { block } from './service';

/**
 * /api/blocks (DESIGN §6). A module of its own, above fancies and matches: a block clears the
 * pair's fancies and ends their match, while those modules read the visibility rules of safety.
 */
export function registerBlockRoutes(app: FastifyInstance) {
  app.get('/api/blocks', verifiedFirst, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return { blocked: await listBlocked(app, user.id) };
  });

  app.post('/api/blocks', { ...verifiedFirst, schema: { body: blockSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    const { userId } = req.body as z.output<typeof blockSchema>;
    return reply.status(201).send(await block(app, user.id, userId));
  });

  app.delete('/api/blocks/:userId', { ...verifiedFirst, schema: { params: memberParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    return unblock(app, user.id, (req.params as z.output<typeof memberParamSchema>).userId);
  });
}
