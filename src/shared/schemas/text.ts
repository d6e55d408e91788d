// The rules for anything a member (or an admin) types, in one place for every text field.
// zod/mini checks: they slot into both zod/mini `.check(...)` and classic zod `.check(...)`,
// keep the field's input type (string) and run before the field's own trim/min/max.
import { z } from 'zod/mini';
import { hasForbiddenCharacters, normaliseMemberText, TEXT_MESSAGES } from '../member-text';
import './zod-defaults';

export { normaliseMemberText, TEXT_MESSAGES };

/**
 * Checks for a member-entered text field: strips bidi controls (they never reach another member's
 * screen) and tag characters outside emoji flags, turns CRLF into LF, keeps at most one empty line
 * in a row, trims whitespace and
 * invisible characters at both ends, treats a value with nothing visible (invisible characters,
 * combining marks only) as empty so it fails the field's own "required" rule, and refuses NUL,
 * other control characters and lone surrogates with a clear message.
 */
export function memberTextChecks(kind: 'line' | 'multiline' = 'line') {
  return [z.overwrite(normaliseMemberText), z.refine<string>((v) => !hasForbiddenCharacters(v, kind), TEXT_MESSAGES.control)] as const;
}
