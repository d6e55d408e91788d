import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { hiddenLineParamSchema, linePrivacyQuerySchema, muteParamSchema } from '../../../shared/schemas/line-privacy';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { hideLine, linePrivacyFor, muteMember, showLine, unmuteMember } from './service';

/** Hide a line and mute a member, for yourself only (issue 30). */
export function registerLinePrivacyRoutes(app: FastifyInstance) {
  app.get('/api/line-privacy', { ...verifiedFirst, schema: { querystring: linePrivacyQuerySchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return linePrivacyFor(app.deps, user.id, req.query as z.output<typeof linePrivacyQuerySchema>);
  });

  app.put('/api/hidden-lines/:kind/:messageId', { ...verifiedFirst, schema: { params: hiddenLineParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { kind, messageId } = req.params as z.output<typeof hiddenLineParamSchema>;
    return hideLine(app.deps, user.id, kind, messageId);
  });

  app.delete('/api/hidden-lines/:kind/:messageId', { ...verifiedFirst, schema: { params: hiddenLineParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { kind, messageId } = req.params as z.output<typeof hiddenLineParamSchema>;
    return showLine(app.deps, user.id, kind, messageId);
  });

  app.put('/api/mixers/:id/mutes/:userId', { ...verifiedFirst, schema: { params: muteParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { id, userId } = req.params as z.output<typeof muteParamSchema>;
    return muteMember(app.deps, user.id, id, userId);
  });

  app.delete('/api/mixers/:id/mutes/:userId', { ...verifiedFirst, schema: { params: muteParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { id, userId } = req.params as z.output<typeof muteParamSchema>;
    return unmuteMember(app.deps, user.id, id, userId);
  });
}
