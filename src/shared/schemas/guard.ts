import { z } from 'zod';
import { GUARD_MESSAGES, HIDDEN_WORD_MAX_LENGTH, HIDDEN_WORDS_MAX } from '../guard-texts';
import './zod-defaults';

export * from '../guard-texts';

export const hiddenWordSchema = z
  .string({ error: GUARD_MESSAGES.hiddenWordEmpty })
  .trim()
  .min(1, GUARD_MESSAGES.hiddenWordEmpty)
  .max(HIDDEN_WORD_MAX_LENGTH, GUARD_MESSAGES.hiddenWordTooLong)
  .refine((w) => !/\p{Cc}/u.test(w), GUARD_MESSAGES.hiddenWordEmpty);

/** PUT /api/settings/hidden-words: the whole list. */
export const hiddenWordsSchema = z.object({
  words: z.array(hiddenWordSchema).max(HIDDEN_WORDS_MAX, GUARD_MESSAGES.hiddenWordsTooMany),
});
export type HiddenWordsInput = z.input<typeof hiddenWordsSchema>;

/** Added to a chat send: "send anyway" after the Are you sure? question. */
export const confirmedShape = { confirmed: z.boolean().optional() };
