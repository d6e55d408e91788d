import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { getAfterMixer, listOpenPrompts } from './service';

const idParams = z.object({ id: z.guid({ error: MIXER_MESSAGES.notFound }) });

/** The "Who did you click with?" prompt (issue 14): one mixer's page, and the open ones for Home. */
export function registerAfterMixerRoutes(app: FastifyInstance) {
  app.get('/api/mixers/:id/after', { ...verifiedFirst, schema: { params: idParams } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return getAfterMixer(app.deps, user.id, (req.params as { id: string }).id);
  });

  app.get('/api/me/after-mixer', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return { prompts: await listOpenPrompts(app.deps, user.id) };
  });
}
