// The rules for anything a member (or an admin) types, in one place for every text field.
// zod/mini checks: they slot into both zod/mini `.check(...)` and classic zod `.check(...)`,
// keep the field's input type (string) and run before the field's own trim/min/max.
import { z } from 'zod/mini';

export const TEXT_MESSAGES = {
  control: 'This text contains hidden control characters. Please remove them and try again.',
} as const;

/** Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they can disguise text for the reader. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** C0 and C1 controls, DEL; a multi-line field allows tab and newline. */
const CONTROL_LINE = /\p{Cc}/u;
const CONTROL_MULTILINE = /[^\P{Cc}\t\n]/u;
/** Whitespace and characters that show nothing (zero-width space/joiners, word joiner, BOM, Hangul fillers…). */
const INVISIBLE = '[\\s\\u00AD\\u034F\\u115F\\u1160\\u180E\\u200B-\\u200F\\u2060-\\u2064\\u2800\\u3164\\uFEFF\\uFFA0]';
const INVISIBLE_EDGES = new RegExp(`^${INVISIBLE}+|${INVISIBLE}+$`, 'gu');

/**
 * Checks for a member-entered text field: strips bidi overrides and isolates (they never reach
 * another member's screen), turns CRLF into LF, trims whitespace and invisible characters at
 * both ends (so a zero-width-only value is empty and fails the field's own "required" rule),
 * and refuses NUL and other control characters with a clear message.
 */
export function memberTextChecks(kind: 'line' | 'multiline' = 'line') {
  const control = kind === 'line' ? CONTROL_LINE : CONTROL_MULTILINE;
  return [
    z.overwrite((v: string) => v.replace(BIDI_CONTROLS, '').replace(/\r\n?/g, '\n').replace(INVISIBLE_EDGES, '')),
    z.refine<string>((v) => !control.test(v), TEXT_MESSAGES.control),
  ] as const;
}
