/**
 * What a bench member sends, within the room's rules as a member would. Since the room's safety
 * rules (issue 30) a member who sends more than FLOOD_LINES lines in FLOOD_WINDOW_MS is put in
 * slow mode and refused, and a line with a run of digits (a phone number?) or letters the abuse
 * list reads as a slur is held or asked "Are you sure?". A load that breaks those rules measures
 * refusals, not chat: every chat bench paces its members and words its lines from here.
 */
import { ERROR_STATUS, type ErrorCode } from '../src/shared/errors';
import { FLOOD_LINES, FLOOD_WINDOW_MS } from '../src/shared/schemas/guard';
import { CHAT_RATE_LIMIT } from '../src/shared/schemas/mixers';

/**
 * The shortest time between one member's lines that stays within both the chat limit and slow
 * mode's flood rule, 5 % longer so that a late timer never puts one line too many in a window.
 */
export const MEMBER_LINE_MS = Math.ceil(Math.max(FLOOD_WINDOW_MS / FLOOD_LINES, CHAT_RATE_LIMIT.windowMs / CHAT_RATE_LIMIT.limit) * 1.05);

const WORDS = [
  'amber',
  'birch',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'grove',
  'harbour',
  'iris',
  'juniper',
  'kestrel',
  'lagoon',
  'meadow',
  'nectar',
  'orchid',
  'pebble',
] as const;

/** A line's unique first word: `n` in base 16 spelled with ordinary words (no digits, no random letters). */
export function lineToken(n: number): string {
  const parts: string[] = [];
  let rest = Math.floor(n);
  do {
    parts.push(WORDS[rest % WORDS.length]);
    rest = Math.floor(rest / WORDS.length);
  } while (rest > 0);
  return parts.join('-');
}

/** An ordinary chat line that starts with its token (the benches find a delivery by its first word). */
export const benchLine = (token: string) => `${token} anyone up for a walk along the river on Sunday?`;

const MIXER_MESSAGE = '"type":"mixer.message"';
const BODY = '"body":"';

/**
 * The token (first word) of the line a `mixer.message` frame delivers, else null. Read from the
 * frame's bytes: the load generator shares the machine's cores with the server, and decoding and
 * parsing 16,000 frames a second would take its CPU from the server being measured.
 */
export function deliveredToken(raw: Buffer): string | null {
  if (raw.indexOf(MIXER_MESSAGE) < 0) return null;
  const start = raw.indexOf(BODY);
  if (start < 0) return null;
  const from = start + BODY.length;
  const end = raw.indexOf(' ', from);
  return raw.toString('latin1', from, end < 0 ? from : end);
}

/** The HTTP status a socket refusal's code stands for, as the route would answer it; an unknown code is named, not made a 500. */
export const refusalStatus = (code: string | undefined): number | string =>
  code && Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : (code ?? 'no code');
