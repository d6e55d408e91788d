/**
 * What both chats share (issue 29): replies, reactions, edit and unsend, and the client's key
 * that makes a retried send return the first line (decision 032). Pure rules live here so the
 * client shows what the server enforces, without loading zod (issue 33); `schemas/chat.ts` has the
 * schemas and re-exports these.
 */

/** The fixed set, in the order the picker shows them. */
export const REACTIONS = ['❤️', '😂', '👍', '😮', '😢', '🔥'] as const;
export type Reaction = (typeof REACTIONS)[number];

/** A member may edit their own line for this long after sending it. */
export const EDIT_WINDOW_MS = 15 * 60_000;
/** Characters of the original a reply quotes. */
export const REPLY_SNIPPET_MAX = 140;

export const LINE_MESSAGES = {
  unknownReaction: 'Choose one of the reactions offered.',
  editWindow: 'Messages can only be edited for 15 minutes after sending.',
  /** An edit that leaves nothing: the way to take a line back is Unsend. */
  editEmpty: "A message can't be empty. To take it back, choose Unsend.",
  notYours: 'You can only change your own messages.',
  notFound: "That message isn't here any more.",
  replyElsewhere: 'You can only reply to a message in this chat.',
  unsent: 'This message was unsent.',
  unavailable: 'Original message unavailable',
  /** A quote of a line the reader sees folded (hidden by them, a muted member, flagged, a hidden word). */
  quoteFolded: 'Hidden message',
  badKey: 'This message could not be sent. Please try again.',
  reactionRateLimited: "You're reacting very quickly. Please wait a few seconds.",
  editRateLimited: "You're editing very quickly. Please wait a few seconds.",
} as const;

/** The quote a reply carries and a line's reactions (defined beside the realtime events that carry them). */
export type { ReactionGroup, ReplyQuote } from './realtime/line-extras';
import type { ReactionGroup } from './realtime/line-extras';

/** Choosing a reaction: another replaces mine, the same one removes it. */
export function nextReaction(current: string | null, chosen: string): string | null {
  return current === chosen ? null : chosen;
}

export function isReaction(value: unknown): value is Reaction {
  return typeof value === 'string' && (REACTIONS as readonly string[]).includes(value);
}

/** Whether a line sent at `createdAt` may still be edited at `now`. */
export function withinEditWindow(createdAt: string | Date, now: Date = new Date()): boolean {
  return now.getTime() - new Date(createdAt).getTime() < EDIT_WINDOW_MS;
}

/**
 * The reactions of a line after `who` chose `emoji` (null: took theirs away): at most one per
 * member, empty groups dropped, groups kept in the order they first appeared.
 */
export function applyReaction(groups: readonly ReactionGroup[] | undefined, who: { id: string; firstName: string }, emoji: string | null) {
  const out: ReactionGroup[] = [];
  for (const g of groups ?? []) {
    const by = g.by.filter((p) => p.id !== who.id);
    if (g.emoji === emoji) by.push(who);
    if (by.length) out.push({ emoji: g.emoji, by });
  }
  if (emoji && !out.some((g) => g.emoji === emoji)) out.push({ emoji, by: [who] });
  return out;
}

/** My reaction on a line, if any. */
export function myReaction(groups: readonly ReactionGroup[] | undefined, me: string | undefined): string | null {
  return groups?.find((g) => g.by.some((p) => p.id === me))?.emoji ?? null;
}

/** The quote text of an original line: the first REPLY_SNIPPET_MAX characters, on one line. */
export function snippetOf(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > REPLY_SNIPPET_MAX ? `${flat.slice(0, REPLY_SNIPPET_MAX - 1)}…` : flat;
}

/** A fresh key for one line (crypto.randomUUID where present). */
export function newClientKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
