import { MAX_MENTIONS } from './realtime/live-limits';

/**
 * Mentions and read state in the mixer chat (issue 29). A line stores the ids it mentions
 * (`mentions`) and its body carries `@First` for each, written by the composer; the server
 * checks every id is a participant the sender may see. Without zod (issue 33): `schemas/chat-live.ts`
 * has the schemas and re-exports these.
 */
export const MENTION_MESSAGES = {
  notParticipant: 'You can only mention people in this mixer.',
  tooMany: `Mention at most ${MAX_MENTIONS} people in one message.`,
} as const;

/** GET /api/mixers/:id/read: where I stopped, and what is new since (lines and mentions of me). */
export interface MixerReadState {
  /** The time of the newest line I had seen; null when I never opened the chat. */
  readAt: string | null;
  unread: number;
  mentions: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `@query` being typed at the caret, if any: `@` at the start or after a space, no space since. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1]))) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query) || query.length > 30) return null;
  return { start: at, query };
}

/** People whose first name starts with the query (case-insensitive), in the order given. */
export function matchMentionable<P extends { firstName: string }>(people: P[], query: string): P[] {
  const q = query.toLocaleLowerCase();
  return people.filter((p) => p.firstName.toLocaleLowerCase().startsWith(q));
}

/** Replaces the `@query` from `start` to `caret` with `@First `; the new text and caret. */
export function insertMention(text: string, start: number, caret: number, firstName: string): { text: string; caret: number } {
  const inserted = `@${firstName} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

const mentionPattern = (firstName: string, flags = 'u') => new RegExp(`(^|\\s)@${escapeRegExp(firstName)}(?![\\p{L}\\p{N}_])`, flags);

/** The picked people still named in the body (a deleted `@Maya` takes Maya's mention with it), each once. */
export function mentionsInBody(body: string, picked: { id: string; firstName: string }[]): string[] {
  const ids = new Set<string>();
  for (const p of picked) if (mentionPattern(p.firstName).test(body)) ids.add(p.id);
  return [...ids];
}

/**
 * The people a body names by a typed `@First` (any case) instead of a pick from the list: only
 * those whose first name nobody else in `people` shares (two Sams: only a pick says which).
 */
export function typedMentions(body: string, people: { id: string; firstName: string }[]): string[] {
  const named = (p: { firstName: string }) => p.firstName.toLocaleLowerCase();
  const shared = new Map<string, number>();
  for (const p of people) shared.set(named(p), (shared.get(named(p)) ?? 0) + 1);
  return people.filter((p) => shared.get(named(p)) === 1 && mentionPattern(p.firstName, 'iu').test(body)).map((p) => p.id);
}

/** The body cut into text and `@First` parts of the mentioned people, for highlighting. */
export function splitMentions(body: string, mentioned: { id: string; firstName: string }[]): { text: string; userId?: string }[] {
  if (!mentioned.length) return [{ text: body }];
  const byName = new Map(mentioned.map((m) => [m.firstName.toLocaleLowerCase(), m.id]));
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const re = new RegExp(`(?<=^|\\s)@(${names.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const parts: { text: string; userId?: string }[] = [];
  let last = 0;
  for (const m of body.matchAll(re)) {
    const index = m.index ?? 0;
    if (index > last) parts.push({ text: body.slice(last, index) });
    parts.push({ text: m[0], userId: byName.get(m[1].toLocaleLowerCase()) });
    last = index + m[0].length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}
