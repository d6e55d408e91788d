import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { CONTACT_RATE_LIMITED, contactSchema } from '../../../shared/schemas/contact';
import { getSession } from '../../auth/session';
import { HOUR } from '../../http/rate-limiter';
import { submitContactMessage } from './service';

/** Per sender, per hour: enough for a follow-up or two, too few for spamming the support inbox. */
export const CONTACT_LIMIT_PER_HOUR = 5;

export function registerContactRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('contact');
  const rule = [{ limit: CONTACT_LIMIT_PER_HOUR, windowMs: HOUR }];

  app.post('/api/contact', { schema: { body: contactSchema } }, async (req, reply) => {
    const body = req.body as z.output<typeof contactSchema>;
    await limiter.hit(`contact:ip:${req.ip}`, rule, CONTACT_RATE_LIMITED);
    await limiter.hit(`contact:email:${body.email}`, rule, CONTACT_RATE_LIMITED);
    const session = await getSession(req);
    const { id } = await submitContactMessage(app.deps, body, { userId: session?.user.id ?? null, accountEmail: session?.user.email });
    return reply.send({ ok: true, id });
  });
}
