// The rules for anything a member (or an admin) types, in one place for every text field.
// zod/mini checks: they slot into both zod/mini `.check(...)` and classic zod `.check(...)`,
// keep the field's input type (string) and run before the field's own trim/min/max.
import { z } from 'zod/mini';
import './zod-defaults';

export const TEXT_MESSAGES = {
  control: 'This text contains hidden control characters. Please remove them and try again.',
} as const;

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the Arabic
 * letter mark (U+061C): they can disguise text for the reader. LRM/RLM (U+200E/U+200F) stay inside
 * text: they only give a neutral character a direction, they open no embedding and cannot reverse a run.
 */
const BIDI_CONTROLS = /[\u061C\u202A-\u202E\u2066-\u2069]/g;
/**
 * Unicode tag characters (U+E0000–U+E007F) show nothing and can hide text inside a message; they are
 * kept only in emoji tag sequences (a black flag U+1F3F4, tags, then CANCEL TAG U+E007F: the
 * England, Scotland and Wales flags), which are matched first and put back whole.
 */
const TAGS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[\u{E0000}-\u{E007F}]/gu;
/** C0 and C1 controls, DEL; a multi-line field allows tab and newline. */
const CONTROL_LINE = /\p{Cc}/u;
const CONTROL_MULTILINE = /[^\P{Cc}\t\n]/u;
/** Whitespace and characters that show nothing (zero-width space/joiners, word joiner, BOM, Hangul fillers…). */
const INVISIBLE = '[\\s\\u00AD\\u034F\\u115F\\u1160\\u180E\\u200B-\\u200F\\u2060-\\u2064\\u2800\\u3164\\uFEFF\\uFFA0]';
const INVISIBLE_EDGES = new RegExp(`^${INVISIBLE}+|${INVISIBLE}+$`, 'gu');
/**
 * A value made only of these shows nothing a reader can see: the invisible characters above, other
 * format characters (Cf) and combining marks (M, which only decorate a base character), e.g. "\u0301\u0301".
 */
const NOTHING_VISIBLE = new RegExp(`^(?:${INVISIBLE}|[\\p{Cf}\\p{M}])*$`, 'u');

/** Two or more empty (or blank) lines in a row: a tall empty block in a chat bubble or a bio. */
const BLANK_LINES = /\n(?:[^\S\n]*\n){2,}/g;

/** The one normalisation of member text (exported for tests and any non-zod caller). */
export function normaliseMemberText(v: string): string {
  const s = v
    .replace(BIDI_CONTROLS, '')
    .replace(TAGS, (_m, flag: string | undefined) => flag ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(BLANK_LINES, '\n\n')
    .replace(INVISIBLE_EDGES, '');
  // Empty, so the field's own "required" rule answers with its own wording.
  return NOTHING_VISIBLE.test(s) ? '' : s;
}

/** Lone surrogates are not text (not well-formed UTF-16): refused like control characters. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Checks for a member-entered text field: strips bidi controls (they never reach another member's
 * screen) and tag characters outside emoji flags, turns CRLF into LF, keeps at most one empty line
 * in a row, trims whitespace and
 * invisible characters at both ends, treats a value with nothing visible (invisible characters,
 * combining marks only) as empty so it fails the field's own "required" rule, and refuses NUL,
 * other control characters and lone surrogates with a clear message.
 */
export function memberTextChecks(kind: 'line' | 'multiline' = 'line') {
  const control = kind === 'line' ? CONTROL_LINE : CONTROL_MULTILINE;
  return [
    z.overwrite(normaliseMemberText),
    z.refine<string>((v) => !control.test(v) && !LONE_SURROGATE.test(v), TEXT_MESSAGES.control),
  ] as const;
}
