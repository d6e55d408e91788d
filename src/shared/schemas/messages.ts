import { z } from 'zod';
import { LINE_MESSAGES, sendExtrasShape } from './chat';
import { messageBodySchema } from './message-body';
import { cursorPageQuerySchema } from './matches';
import { CONVERSATIONS_PAGE_SIZE, DM_MAX_LENGTH, DM_MESSAGES, DM_PAGE_SIZE } from '../messages-texts';
import './zod-defaults';

/** Direct messages' requests; their limits, texts and shapes are in `../messages-texts.ts`, without zod (issue 33). */
export * from '../messages-texts';

export const sendMessageSchema = messageBodySchema(DM_MAX_LENGTH, DM_MESSAGES).extend(sendExtrasShape);
/** An edit emptied is told how to take the line back (Unsend), not to write something first. */
export const editMessageSchema = messageBodySchema(DM_MAX_LENGTH, { ...DM_MESSAGES, empty: LINE_MESSAGES.editEmpty });

export const messagesQuerySchema = z.object({
  /** Id of the oldest message already shown; the page holds the messages before it. */
  before: z.guid({ error: 'Unknown message' }).optional(),
  limit: z.coerce.number().int().min(1).max(DM_PAGE_SIZE).default(DM_PAGE_SIZE),
});

export const conversationsQuerySchema = cursorPageQuerySchema(CONVERSATIONS_PAGE_SIZE);
