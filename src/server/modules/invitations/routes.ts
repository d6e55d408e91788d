import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { INVITATION_MESSAGES } from '../../../shared/schemas/invitations';
import { requireVerified } from '../../auth/session';
import { forgetForYou } from '../mixers/service';
import { acceptInvitation, declineInvitation, listInvitations } from './service';

const idParams = z.object({ id: z.guid({ error: INVITATION_MESSAGES.notFound }) });

/** /api/invitations: my invitations to formed mixers, accept and decline (verified members, own invitations only). */
export function registerInvitationRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  const onRequest = async (req: FastifyRequest) => {
    await requireVerified(req);
  };

  app.get('/api/invitations', { onRequest }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return listInvitations(deps, user.id);
  });

  app.post('/api/invitations/:id/accept', { onRequest, schema: { params: idParams } }, async (req) => {
    const { user } = await requireVerified(req);
    forgetForYou(user.id);
    return acceptInvitation(deps, publish, user.id, (req.params as { id: string }).id);
  });

  app.post('/api/invitations/:id/decline', { onRequest, schema: { params: idParams } }, async (req) => {
    const { user } = await requireVerified(req);
    forgetForYou(user.id);
    return declineInvitation(deps, publish, user.id, (req.params as { id: string }).id);
  });
}
