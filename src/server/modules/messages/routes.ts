import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { matchParamSchema } from '../../../shared/schemas/matches';
import { LINE_MESSAGES, lineParamsSchema, reactionInputSchema } from '../../../shared/schemas/chat';
import {
  conversationsQuerySchema,
  DM_MESSAGES,
  editMessageSchema,
  messagesQuerySchema,
  sendMessageSchema,
} from '../../../shared/schemas/messages';
import { confirmedShape } from '../../../shared/schemas/guard';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { isParticipant } from '../matches/service';
import { editMessage, reactToMessage, unsendMessage } from './lines';
import { getConversation, listConversations, markRead, messagesPageJson, sendMessage } from './service';

/** A private line with the sender's "send anyway" (issue 30). */
const sendLineSchema = sendMessageSchema.extend(confirmedShape);

/** Per sender: a lively chat never gets near these; a script does. */
export const DM_RATE_RULES = [
  { limit: 30, windowMs: MINUTE },
  { limit: 600, windowMs: HOUR },
];

/** /messages and /messages/{matchId} (DESIGN §6): only the two matched members may read or write. */
export function registerMessageRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('messages');
  const db = app.deps.database.db;

  app.realtime.authorize('conversation', (userId, room) => isParticipant(db, room.slice('conversation:'.length), userId));

  app.get('/api/conversations', { ...verifiedFirst, schema: { querystring: conversationsQuerySchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return listConversations(app, user.id, req.query as z.output<typeof conversationsQuerySchema>);
  });

  app.get('/api/conversations/:id', { ...verifiedFirst, schema: { params: matchParamSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return getConversation(app, user.id, (req.params as z.output<typeof matchParamSchema>).id);
  });

  app.get(
    '/api/conversations/:id/messages',
    { ...verifiedFirst, schema: { params: matchParamSchema, querystring: messagesQuerySchema } },
    async (req, reply) => {
      const { user } = await requireVerified(req);
      reply.header('cache-control', 'no-store');
      const { id } = req.params as z.output<typeof matchParamSchema>;
      // The database writes the page's JSON (decision 016): sent as it comes.
      reply.type('application/json; charset=utf-8');
      return messagesPageJson(app, user.id, id, req.query as z.output<typeof messagesQuerySchema>);
    },
  );

  app.post(
    '/api/conversations/:id/messages',
    { ...verifiedFirst, schema: { params: matchParamSchema, body: sendLineSchema } },
    async (req, reply) => {
      const { user } = await requireVerified(req);
      await limiter.hit(`dm:${user.id}`, DM_RATE_RULES, DM_MESSAGES.rateLimited);
      const { id } = req.params as z.output<typeof matchParamSchema>;
      const { message, fresh } = await sendMessage(app, user.id, id, req.body as z.output<typeof sendLineSchema>);
      // A retry with a used client key gets the first message back (200), never a second one.
      return reply.status(fresh ? 201 : 200).send({ message });
    },
  );

  app.patch(
    '/api/conversations/:id/messages/:messageId',
    { ...verifiedFirst, schema: { params: lineParamsSchema, body: editMessageSchema } },
    async (req) => {
      const { user } = await requireVerified(req);
      await limiter.hit(`dm-edit:${user.id}`, DM_RATE_RULES, LINE_MESSAGES.editRateLimited);
      const { id, messageId } = req.params as z.output<typeof lineParamsSchema>;
      return editMessage(app, user.id, id, messageId, (req.body as z.output<typeof editMessageSchema>).body);
    },
  );

  app.delete('/api/conversations/:id/messages/:messageId', { ...verifiedFirst, schema: { params: lineParamsSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { id, messageId } = req.params as z.output<typeof lineParamsSchema>;
    return unsendMessage(app, user.id, id, messageId);
  });

  app.post(
    '/api/conversations/:id/messages/:messageId/reactions',
    { ...verifiedFirst, schema: { params: lineParamsSchema, body: reactionInputSchema } },
    async (req) => {
      const { user } = await requireVerified(req);
      // Limited like sending, in an allowance of its own.
      await limiter.hit(`dm-react:${user.id}`, DM_RATE_RULES, LINE_MESSAGES.reactionRateLimited);
      const { id, messageId } = req.params as z.output<typeof lineParamsSchema>;
      return reactToMessage(app, user.id, id, messageId, (req.body as z.output<typeof reactionInputSchema>).emoji);
    },
  );

  app.post('/api/conversations/:id/read', { ...verifiedFirst, schema: { params: matchParamSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    return markRead(app, user.id, (req.params as z.output<typeof matchParamSchema>).id);
  });
}
