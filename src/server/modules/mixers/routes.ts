import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { LINE_MESSAGES, lineParamsSchema, reactionInputSchema } from '../../../shared/schemas/chat';
import {
  CHAT_RATE_LIMIT,
  chatEditInputSchema,
  chatHistoryQuerySchema,
  chatMessageInputSchema,
  joinMixerSchema,
  MIXER_MESSAGES,
  mixerListQuerySchema,
} from '../../../shared/schemas/mixers';
import { mixerReadInputSchema } from '../../../shared/schemas/chat-live';
import { requireVerified } from '../../auth/session';
import { AppError, fieldsFromZod } from '../../http/errors';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { consume } from '../../http/shared-limits';
import { confirmedShape } from '../../../shared/schemas/guard';
import { firstNamesInMixer, guardMixerLine, slowMode } from '../guard/service';
import { listMessages, postAdmittedMessage, postMessage, refuseMuted, whyNotPosted } from './chat';
import { editLine, reactToLine, unsendLine } from './chat-lines';
import { announceMentions, checkMentions, hiddenInMixer, markRead, readState } from './chat-live';
import { listForYou } from './foryou';
import { forgetForYou } from './foryou-cache';
import { getMixer, isJoinedMember, joinMixer, leaveMixer, listMixers, topicFacets } from './service';
import { leaveVerifiedOnlyWhenBadgeGoes } from './verified-only';

/**
 * Joins per member (any mixers) and per member and mixer (issue 32): plenty for finding a few
 * mixers and changing one's mind; too few to cycle join/leave and make the others refetch, or
 * to sweep every mixer. Only joins that took a seat or a waitlist place count; leaving is never
 * limited (walking away must always work). Shared across instances like every window limiter.
 */
export const JOIN_RULES = {
  member: [
    { limit: 20, windowMs: 10 * MINUTE },
    { limit: 60, windowMs: 24 * HOUR },
  ],
  mixer: [
    { limit: 3, windowMs: HOUR },
    { limit: 6, windowMs: 24 * HOUR },
  ],
} as const;

/** A chat line with the sender's "send anyway" (issue 30). */
const chatLineSchema = chatMessageInputSchema.extend(confirmedShape);

/** A malformed id is a 400 (issue 12: ids are validated in their values), with the not-found wording. */
const idParams = z.object({ id: z.guid({ error: MIXER_MESSAGES.notFound }) });

/** /api/mixers: list, detail, join/leave (with waitlist) and the group chat. */
export function registerMixerRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  // A pace limiter, not a sliding log: a member typing at the limit is never refused because
  // of network jitter (docs/decisions/015).
  const chatLimiter = app.limits.pace('chat', CHAT_RATE_LIMIT);
  // Reactions are limited like sending, in their own allowance: reacting never eats into sending.
  const reactionLimiter = app.limits.pace('chat-reactions', CHAT_RATE_LIMIT);
  // Edits too (each one goes through the detectors and out to the room), in their own allowance.
  const editLimiter = app.limits.pace('chat-edits', CHAT_RATE_LIMIT);
  /**
   * Only a member of the room gets as far as the detectors: their verdict on "@Name" depends on
   * who is in the room, so an outsider could otherwise learn its members' names (issue 29).
   */
  const requireInRoom = async (userId: string, mixerId: string) => {
    if (!(await isJoinedMember(deps.database.db, userId, mixerId))) throw await whyNotPosted(deps, userId, mixerId);
  };
  const namesInRoom = async (userId: string, mixerId: string) => {
    await requireInRoom(userId, mixerId);
    return firstNamesInMixer(deps.database.db, mixerId);
  };
  const joinLimiter = app.limits.window('mixer-joins');
  leaveVerifiedOnlyWhenBadgeGoes(app);

  // Signed-in and verified before the body is even validated: anonymous callers get a 401.
  const onRequest = async (req: FastifyRequest) => {
    await requireVerified(req);
  };

  app.realtime.authorize('mixer', (userId, room) => isJoinedMember(deps.database.db, userId, room.slice('mixer:'.length)));

  const slow = slowMode(app.limits);

  /**
   * One way in for a chat line, over HTTP or the socket: validated, checked by the detectors
   * (issue 30: held, or "Are you sure?"), limited (slow mode for a flood, then the pace), posted.
   */
  const postChatLine = async (userId: string, mixerId: string, input: unknown) => {
    const parsed = chatLineSchema.safeParse(input);
    if (!parsed.success) throw new AppError('validation', parsed.error.issues[0].message, fieldsFromZod(parsed.error.issues));
    const { body, confirmed, mentions } = parsed.data;
    // Rare (a line that names someone), and first: "@Maya" for someone not here is a wrong mention, not a handle.
    // Both read who is in the room, so only its members get that far (the common line needs neither).
    if (mentions?.length) {
      await requireInRoom(userId, mixerId);
      await checkMentions(deps, userId, mixerId, mentions);
    }
    const flag = await guardMixerLine(body, confirmed === true, () => namesInRoom(userId, mixerId));
    const line = { ...parsed.data, flag };
    const room = `mixer:${mixerId}`;
    // On PostgreSQL the common line takes slow mode's flood count and the pace in its own insert
    // (decision 023); otherwise, or when that first count was refused, one at a time.
    const admission = app.limits.admission(
      slow.floodHit(userId, room),
      { limiter: chatLimiter, key: userId },
      MIXER_MESSAGES.chatRateLimited,
    );
    let posted = admission && (await postAdmittedMessage(deps, publish, userId, mixerId, line, admission));
    if (!posted) {
      await slow.take(userId, room);
      await chatLimiter.hit(userId, MIXER_MESSAGES.chatRateLimited);
      posted = await postMessage(deps, publish, userId, mixerId, line);
    }
    // The line is saved and delivered (once: a retried key announces nothing again): a failed
    // badge or push is logged, never the sender's error.
    if (posted.fresh && posted.message.mentions?.length)
      await announceMentions(app, mixerId, posted.message).catch((err) => app.log.error({ err }, 'mention announcement failed'));
    return posted;
  };
  app.realtime.acceptSends(
    'mixer',
    async (userId, room, input) => (await postChatLine(userId, room.slice('mixer:'.length), input)).message,
  );
  app.realtime.hideWith('mixer', (room) => hiddenInMixer(deps, room.slice('mixer:'.length)));
  app.realtime.silenceWith('mixer', async (userId) => (await refuseMuted(deps.database.db, userId)) !== null);

  app.get('/api/mixers', { onRequest, schema: { querystring: mixerListQuerySchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    const query = req.query as z.output<typeof mixerListQuerySchema>;
    return query.section === 'foryou' ? listForYou(deps, user.id, query) : listMixers(deps, user.id, query);
  });

  app.get('/api/mixers/topics', { onRequest }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return topicFacets(deps.database.db, user.id);
  });

  app.get('/api/mixers/:id', { onRequest, schema: { params: idParams } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return getMixer(deps, user.id, (req.params as { id: string }).id);
  });

  app.post('/api/mixers/:id/join', { onRequest, schema: { params: idParams, body: joinMixerSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const body = (req.body ?? {}) as z.output<typeof joinMixerSchema>;
    const mixerId = (req.params as { id: string }).id;
    // Counted before the join (parallel joins cannot all pass), given back unless it took a place.
    const giveBack = await consume(
      joinLimiter,
      [
        [`member:${user.id}`, JOIN_RULES.member],
        [`mixer:${user.id}:${mixerId}`, JOIN_RULES.mixer],
      ],
      MIXER_MESSAGES.joinRateLimited,
    );
    forgetForYou(user.id);
    try {
      const result = await joinMixer(deps, publish, user.id, mixerId, { waitlist: body.waitlist });
      if (!result.changed) await giveBack();
      return { state: result.state, waitlistPosition: result.waitlistPosition };
    } catch (err) {
      await giveBack();
      throw err;
    }
  });

  app.post('/api/mixers/:id/leave', { onRequest, schema: { params: idParams } }, async (req) => {
    const { user } = await requireVerified(req);
    const mixerId = (req.params as { id: string }).id;
    forgetForYou(user.id);
    await leaveMixer(deps, publish, user.id, mixerId);
    await app.realtime.removeFromRoom(user.id, `mixer:${mixerId}`);
    return { ok: true };
  });

  app.get(
    '/api/mixers/:id/messages',
    { onRequest, schema: { params: idParams, querystring: chatHistoryQuerySchema } },
    async (req, reply) => {
      const { user } = await requireVerified(req);
      reply.header('cache-control', 'no-store');
      const query = req.query as z.output<typeof chatHistoryQuerySchema>;
      return listMessages(deps, user.id, (req.params as { id: string }).id, { before: query.before, limit: query.limit });
    },
  );

  app.post('/api/mixers/:id/messages', { onRequest, schema: { params: idParams, body: chatLineSchema } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    const { message, fresh } = await postChatLine(user.id, (req.params as { id: string }).id, req.body);
    // A retry with a used client key gets the first line back (200), never a second one.
    return reply.status(fresh ? 201 : 200).send(message);
  });

  const lineParams = lineParamsSchema.extend({ id: z.guid({ error: MIXER_MESSAGES.notFound }) });

  app.patch(
    '/api/mixers/:id/messages/:messageId',
    { onRequest, schema: { params: lineParams, body: chatEditInputSchema } },
    async (req) => {
      const { user } = await requireVerified(req);
      const { id, messageId } = req.params as z.output<typeof lineParams>;
      const { body } = req.body as z.output<typeof chatEditInputSchema>;
      await editLimiter.hit(user.id, LINE_MESSAGES.editRateLimited);
      // The same detectors as a send (issue 30): contact details and money are held; an edit to
      // something hurtful is taken as sent anyway and arrives folded.
      const flag = await guardMixerLine(body, true, () => namesInRoom(user.id, id));
      return editLine(deps, publish, user.id, id, messageId, body, flag);
    },
  );

  app.delete('/api/mixers/:id/messages/:messageId', { onRequest, schema: { params: lineParams } }, async (req) => {
    const { user } = await requireVerified(req);
    const { id, messageId } = req.params as z.output<typeof lineParams>;
    return unsendLine(deps, publish, user.id, id, messageId);
  });

  app.post(
    '/api/mixers/:id/messages/:messageId/reactions',
    { onRequest, schema: { params: lineParams, body: reactionInputSchema } },
    async (req) => {
      const { user } = await requireVerified(req);
      await reactionLimiter.hit(user.id, LINE_MESSAGES.reactionRateLimited);
      const { id, messageId } = req.params as z.output<typeof lineParams>;
      return reactToLine(deps, publish, user.id, id, messageId, (req.body as z.output<typeof reactionInputSchema>).emoji);
    },
  );

  /** Read state (issue 29): where I stopped reading, and moving it forward. */
  app.get('/api/mixers/:id/read', { onRequest, schema: { params: idParams } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return readState(deps, user.id, (req.params as { id: string }).id);
  });

  app.put('/api/mixers/:id/read', { onRequest, schema: { params: idParams, body: mixerReadInputSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    const { messageId } = req.body as z.output<typeof mixerReadInputSchema>;
    return markRead(deps, publish, user.id, (req.params as { id: string }).id, messageId);
  });
}
