import type { FastifyInstance } from 'fastify';
import { type AvailabilityInput, availabilitySchema } from '../../../shared/schemas/availability';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR } from '../../http/rate-limiter';
import { getAvailability, setAvailability } from './service';

/** GET/PUT /api/profile/availability: when I'm usually free and the topics I'd join (issue 14). Verified members only. */
export function registerAvailabilityRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('availability');
  const db = () => app.deps.database.db;

  app.get('/api/profile/availability', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return getAvailability(db(), user.id);
  });

  app.put('/api/profile/availability', { ...verifiedFirst, schema: { body: availabilitySchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`availability:${user.id}`, [{ limit: 600, windowMs: HOUR }]);
    return setAvailability(db(), user.id, req.body as AvailabilityInput);
  });
}
