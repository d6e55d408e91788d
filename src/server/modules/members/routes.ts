import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { MEMBER_MESSAGES, memberCardParamsSchema } from '../../../shared/schemas/members';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { getMemberCard } from './service';

/** Plenty for browsing a few mixers; too few to scrape profiles set to "all members". */
const VIEW_RULES = [
  { limit: 120, windowMs: MINUTE },
  { limit: 1000, windowMs: HOUR },
];

/** Another member's profile card (issue 6 views, issue 7 visibility). */
export function registerMemberRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('members');

  app.get('/api/members/:id', { ...verifiedFirst, schema: { params: memberCardParamsSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`member-card:${user.id}`, VIEW_RULES, MEMBER_MESSAGES.rateLimited);
    reply.header('cache-control', 'no-store');
    const { id } = req.params as z.output<typeof memberCardParamsSchema>;
    return { member: await getMemberCard(app, user.id, id) };
  });
}
