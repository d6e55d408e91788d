import { z } from 'zod';
import { LINE_MESSAGES, REACTIONS } from '../chat-lines';
import './zod-defaults';

export * from '../chat-lines';

/** Made by the client once per line (a UUID or similar); the same key on a retry. */
export const clientKeySchema = z
  .string({ error: LINE_MESSAGES.badKey })
  .min(8, LINE_MESSAGES.badKey)
  .max(64, LINE_MESSAGES.badKey)
  .regex(/^[A-Za-z0-9_-]+$/, LINE_MESSAGES.badKey);

export const replyToIdSchema = z.guid({ error: LINE_MESSAGES.replyElsewhere });

/** The extra, optional fields of a send (both chats). */
export const sendExtrasShape = {
  clientKey: clientKeySchema.optional(),
  replyToId: replyToIdSchema.optional(),
};

export const reactionInputSchema = z.object({ emoji: z.enum(REACTIONS, { error: LINE_MESSAGES.unknownReaction }) });

export const lineParamsSchema = z.object({
  id: z.guid({ error: 'Unknown conversation' }),
  messageId: z.guid({ error: LINE_MESSAGES.notFound }),
});
