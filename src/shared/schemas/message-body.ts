import { z } from 'zod';
import { memberTextChecks } from './text';
import './zod-defaults';

/** A message's text (mixer chat, private messages): trimmed, not empty, at most `max` characters. */
export const messageBodySchema = (max: number, messages: { empty: string; tooLong: string }) =>
  z.object({
    body: z
      .string({ error: messages.empty })
      .check(...memberTextChecks('multiline'))
      .trim()
      .min(1, messages.empty)
      .max(max, messages.tooLong),
  });
