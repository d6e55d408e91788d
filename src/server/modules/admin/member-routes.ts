import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { appealByLinkSchema, appealLinkQuerySchema, appealSchema } from '../../../shared/schemas/moderation';
import { requireSession } from '../../auth/session';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { appeal, appealByLink, appealLinkInfo, myModeration } from './appeals';

/**
 * The member's side of moderation (issue 30): their decisions and their own reports' outcomes,
 * and appeals — signed in (muted members included) or by the one-time link mailed to a suspended
 * or banned member.
 */
/**
 * The appeal link's routes need no session, so they are limited per client address: plenty for a
 * member opening their link and appealing, too few to hammer them with guessed or stolen tokens.
 */
export const APPEAL_LINK_READS = [{ limit: 30, windowMs: 10 * MINUTE }] as const;
export const APPEAL_LINK_SENDS = [{ limit: 10, windowMs: HOUR }] as const;

export function registerModerationMemberRoutes(app: FastifyInstance) {
  const db = () => app.deps.database.db;
  const linkLimiter = app.limits.window('appeal-links');
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
    await linkLimiter.hit(`read:ip:${req.ip}`, APPEAL_LINK_READS);
    return appealLinkInfo(app, (req.query as z.output<typeof appealLinkQuerySchema>).token);
  });
  app.post('/api/appeals/link', { schema: { body: appealByLinkSchema } }, async (req, reply) => {
    await linkLimiter.hit(`send:ip:${req.ip}`, APPEAL_LINK_SENDS);
    return reply.status(201).send(await appealByLink(app, req.body as z.output<typeof appealByLinkSchema>));
  });
}
