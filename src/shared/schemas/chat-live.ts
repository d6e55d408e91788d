import { z } from 'zod';
import { MAX_MENTIONS } from '../realtime/live-limits';
import { MENTION_MESSAGES } from '../mentions';

export * from '../mentions';

export const mentionsSchema = z
  .array(z.string().min(1).max(64), { error: MENTION_MESSAGES.notParticipant })
  .max(MAX_MENTIONS, MENTION_MESSAGES.tooMany)
  .optional();

/** PUT /api/mixers/:id/read: the newest line the member has seen. */
export const mixerReadInputSchema = z.object({ messageId: z.guid({ error: 'Unknown message.' }) }).strict();
