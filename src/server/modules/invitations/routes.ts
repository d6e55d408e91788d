import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { INVITATION_MESSAGES } from '../../../shared/schemas/invitations';
import { requireVerified } from '../../auth/session';
import { onProfileWrite } from '../../http/profile-writes';
import { forgetForYou } from '../mixers/service';
import { releaseSeatsThatNoLongerFit } from './after-profile-change';
import { acceptInvitation, declineInvitation, listInvitations } from './service';

/** The profile fields seat-plan sides are read from (shared/audience `sidesFor`). */
const SIDE_FIELDS = ['genderIdentities', 'sexualOrientations', 'lookingFor'];

const idParams = z.object({ id: z.guid({ error: INVITATION_MESSAGES.notFound }) });

/** /api/invitations: my invitations to formed mixers, accept and decline (verified members, own invitations only). */
export function registerInvitationRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  const onRequest = async (req: FastifyRequest) => {
    await requireVerified(req);
  };

  // Issue 32: a profile write that set gender identity, orientation or looking-for (the draft,
  // completion and /profile edits, and any new route under those paths) ends by giving up the
  // seats, waitlist places and invitations of upcoming mixers whose side no longer fits.
  onProfileWrite(app, {
    stage: 'settle',
    async run(req, userId) {
      const body = req.body as Record<string, unknown> | null | undefined;
      if (!body || typeof body !== 'object' || !SIDE_FIELDS.some((f) => f in body)) return;
      try {
        await releaseSeatsThatNoLongerFit(app, userId);
      } catch (err) {
        req.log.warn({ err }, 'could not re-check seat-plan sides after a profile change');
      }
    },
  });

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
