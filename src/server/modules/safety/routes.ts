import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { reportLineSchema, reportSchema, SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR } from '../../http/rate-limiter';
import { reportLine, reportMember } from './service';

/** Reports per member per hour: enough for a bad evening in a mixer, too few for brigading. */
export const REPORT_LIMIT_PER_HOUR = 10;

/** Reports (DESIGN §6); blocks are the blocks module's. */
export function registerSafetyRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('safety');

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
