import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { memberParamSchema } from '../../../shared/schemas/matches';
import { blockSchema, reportLineSchema, reportSchema, SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR } from '../../http/rate-limiter';
import { block } from './block';
import { listBlocked, reportLine, reportMember, unblock } from './service';

/** Reports per member per hour: enough for a bad evening in a mixer, too few for brigading. */
export const REPORT_LIMIT_PER_HOUR = 10;

/** Blocks and reports (DESIGN §6). */
export function registerSafetyRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('safety');

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

  app.post('/api/reports', { ...verifiedFirst, schema: { body: reportSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`report:${user.id}`, [{ limit: REPORT_LIMIT_PER_HOUR, windowMs: HOUR }], SAFETY_MESSAGES.reportRateLimited);
    const body = req.body as z.output<typeof reportSchema>;
    return reply.status(201).send(await reportMember(app, user.id, body));
  });

  // Issue 30: a line of a mixer or a private chat, its evidence frozen at this moment.
  app.post('/api/reports/line', { ...verifiedFirst, schema: { body: reportLineSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`report:${user.id}`, [{ limit: REPORT_LIMIT_PER_HOUR, windowMs: HOUR }], SAFETY_MESSAGES.reportRateLimited);
    return reply.status(201).send(await reportLine(app, user.id, req.body as z.output<typeof reportLineSchema>));
  });
}
