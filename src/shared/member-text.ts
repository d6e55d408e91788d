/**
 * The rules for anything a member (or an admin) types, without zod (issue 33): the one
 * normalisation and the characters refused. `schemas/text.ts` turns them into zod checks for every
 * text field; a page that only needs them here does not load zod.
 */

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

/** Whether normalised text holds characters member text may not: controls (a multi-line field allows tab and newline) or lone surrogates. */
export function hasForbiddenCharacters(v: string, kind: 'line' | 'multiline' = 'line'): boolean {
  return (kind === 'line' ? CONTROL_LINE : CONTROL_MULTILINE).test(v) || LONE_SURROGATE.test(v);
}

/**
 * A chat line or message as the server's message-body schema takes it (schemas/message-body.ts):
 * normalised, no forbidden characters, trimmed, not empty, at most `max` characters. For a form that
 * must answer at once, without loading zod (issue 33); the schema's test checks the two agree.
 */
export function checkMessageBody(
  raw: string,
  max: number,
  messages: { empty: string; tooLong: string },
): { ok: true; body: string } | { ok: false; message: string } {
  const v = normaliseMemberText(raw);
  if (hasForbiddenCharacters(v, 'multiline')) return { ok: false, message: TEXT_MESSAGES.control };
  const body = v.trim();
  if (!body) return { ok: false, message: messages.empty };
  if (body.length > max) return { ok: false, message: messages.tooLong };
  return { ok: true, body };
}
