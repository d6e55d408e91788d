import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  HOST_MESSAGES,
  hostPromptsSchema,
  hostSwitchSchema,
  type HostPromptsInput,
  nudgeActionSchema,
  type NudgeAction,
  pollVoteSchema,
  type PollVote,
  topicParamsSchema,
} from '../../../shared/schemas/host';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { requireAdmin, requireVerified } from '../../auth/session';
import { actOnNudge, hostAdminOverview, hostView, setHostEnabled, setTopicPrompts, votePoll } from './service';

const mixerParams = z.object({ id: z.guid({ error: MIXER_MESSAGES.notFound }) });
const pollParams = z.object({ id: z.guid({ error: HOST_MESSAGES.pollNotFound }) });
const adminMixerParams = z.object({ id: z.guid({ error: HOST_MESSAGES.mixerNotFound }) });

/**
 * The host (issue 29): a participant's view of the host (polls, their nudge), a vote, the nudge's
 * send/dismiss; and for admins the per-topic prompts and the per-mixer switch (audited).
 */
export function registerHostRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const db = () => deps.database.db;
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  const onRequest = async (req: FastifyRequest) => {
    await requireVerified(req);
  };
  const adminOnly = async (req: FastifyRequest) => {
    await requireAdmin(req);
  };
  const id = (req: FastifyRequest) => (req.params as { id: string }).id;

  app.get('/api/mixers/:id/host', { onRequest, schema: { params: mixerParams } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return hostView(db(), user.id, id(req));
  });

  app.post('/api/host/polls/:id/vote', { onRequest, schema: { params: pollParams, body: pollVoteSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    return votePoll(db(), publish, user.id, id(req), (req.body as PollVote).option);
  });

  app.post('/api/mixers/:id/host/nudge', { onRequest, schema: { params: mixerParams, body: nudgeActionSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    return actOnNudge(deps, publish, user.id, id(req), (req.body as NudgeAction).action);
  });

  app.get('/api/admin/host', { onRequest: adminOnly }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return hostAdminOverview(db());
  });

  app.put(
    '/api/admin/host/prompts/:topic',
    { onRequest: adminOnly, schema: { params: topicParamsSchema, body: hostPromptsSchema } },
    async (req) => {
      const { user } = await requireAdmin(req);
      return setTopicPrompts(db(), user.id, (req.params as { topic: string }).topic, (req.body as HostPromptsInput).prompts);
    },
  );

  app.put(
    '/api/admin/mixers/:id/host',
    { onRequest: adminOnly, schema: { params: adminMixerParams, body: hostSwitchSchema } },
    async (req) => {
      const { user } = await requireAdmin(req);
      return setHostEnabled(db(), user.id, id(req), (req.body as { enabled: boolean }).enabled);
    },
  );
}
