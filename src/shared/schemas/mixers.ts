import { z } from 'zod';
import { LINE_MESSAGES, sendExtrasShape } from './chat';
import { mentionsSchema } from './chat-live';
import { messageBodySchema } from './message-body';
import { memberTextChecks } from './text';
import {
  CHAT_BODY_MESSAGES,
  CHAT_MESSAGE_MAX,
  CHAT_PAGE_SIZE,
  MIXER_INTENTS,
  MIXER_PAGE_DEFAULT,
  MIXER_PAGE_MAX,
  MIXER_SECTIONS,
} from '../mixer-facts';
import './zod-defaults';

export * from '../mixer-facts';

export const chatMessageInputSchema = messageBodySchema(CHAT_MESSAGE_MAX, CHAT_BODY_MESSAGES).extend({
  mentions: mentionsSchema,
  ...sendExtrasShape,
});
/** An edit of a chat line: the same text rules as a send; emptied, it is told how to take the line back (Unsend). */
export const chatEditInputSchema = messageBodySchema(CHAT_MESSAGE_MAX, { ...CHAT_BODY_MESSAGES, empty: LINE_MESSAGES.editEmpty });

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .check(...memberTextChecks())
      .trim()
      .max(max)
      .optional(),
  );

export const mixerListQuerySchema = z.object({
  section: z.enum(MIXER_SECTIONS).default('live'),
  intent: z.preprocess((v) => (v === '' ? undefined : v), z.enum(MIXER_INTENTS).optional()),
  /** A topic or an interest tag (case-insensitive, exact). */
  topic: optionalText(80),
  /** Free-text search in title, topic, description and tags. */
  q: optionalText(100),
  /** For section=mine: only live and upcoming ones (Home's "Your next mixers"). */
  active: z.preprocess((v) => v === 'true' || v === true, z.boolean()).default(false),
  cursor: optionalText(400),
  limit: z.coerce.number().int().min(1).max(MIXER_PAGE_MAX).default(MIXER_PAGE_DEFAULT),
});
export type MixerListQuery = z.output<typeof mixerListQuerySchema>;

export const joinMixerSchema = z.object({ waitlist: z.boolean().optional() }).default({});

export const chatHistoryQuerySchema = z.object({
  before: optionalText(400),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_SIZE).default(CHAT_PAGE_SIZE),
});
