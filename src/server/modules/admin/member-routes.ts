import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { appealByLinkSchema, appealLinkQuerySchema, appealSchema } from '../../../shared/schemas/moderation';
import { requireSession } from '../../auth/session';
import { appeal, appealByLink, appealLinkInfo, myModeration } from './appeals';

/**
 * The member's side of moderation (issue 30): their decisions and their own reports' outcomes,
 * and appeals — signed in (muted members included) or by the one-time link mailed to a suspended
 * or banned member.
 */
export function registerModerationMemberRoutes(app: FastifyInstance) {
  const db = () => app.deps.database.db;
  // Signed in before the body is validated: anonymous callers get a 401, not a 400.
  const onRequest = async (req: FastifyRequest) => {
    await requireSession(req);
  };
  app.get('/api/moderation/mine', { onRequest }, async (req, reply) => {
    const { user } = await requireSession(req);
    reply.header('cache-control', 'no-store');
    return myModeration(db(), user.id);
  });
  app.post('/api/appeals', { onRequest, schema: { body: appealSchema } }, async (req, reply) => {
    const { user } = await requireSession(req);
    return reply.status(201).send(await appeal(db(), user.id, req.body as z.output<typeof appealSchema>));
  });
  app.get('/api/appeals/link', { schema: { querystring: appealLinkQuerySchema } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return appealLinkInfo(app, (req.query as z.output<typeof appealLinkQuerySchema>).token);
  });
  app.post('/api/appeals/link', { schema: { body: appealByLinkSchema } }, async (req, reply) =>
    reply.status(201).send(await appealByLink(app, req.body as z.output<typeof appealByLinkSchema>)),
  );
}
