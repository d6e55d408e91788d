import type { SafetyFlag } from '../../../shared/safety/flags';
import { applyReaction, type ReactionGroup, type ReplyQuote, snippetOf } from '../../../shared/chat-lines';

/** The fields of a line (mixer chat or private message) that replies, reactions, edits and unsends change. */
interface LineLike {
  id: string;
  body: string;
  editedAt?: string | null;
  unsentAt?: string | null;
  replyTo?: ReplyQuote | null;
  reactions?: ReactionGroup[];
  flag?: SafetyFlag | null;
}

export interface LineChange {
  messageId: string;
  body: string;
  editedAt: string | null;
  unsentAt: string | null;
  /** The detectors' verdict on the edited text (issue 30). */
  flag?: SafetyFlag | null;
}

/**
 * A line after an edit or unsend of line `change.messageId`: the line itself, or a reply whose
 * quote shows it (the quote follows an edit and becomes unavailable once it is unsent).
 */
export function applyLineChange<T extends LineLike>(line: T, change: LineChange): T {
  if (line.id === change.messageId) {
    return change.unsentAt
      ? { ...line, body: '', unsentAt: change.unsentAt, reactions: [] }
      : {
          ...line,
          body: change.body,
          editedAt: change.editedAt ?? line.editedAt ?? null,
          ...(change.flag !== undefined ? { flag: change.flag } : {}),
        };
  }
  if (line.replyTo?.id === change.messageId && line.replyTo.body !== null) {
    const replyTo = change.unsentAt
      ? { id: change.messageId, senderName: null, body: null }
      : { ...line.replyTo, body: snippetOf(change.body) };
    return { ...line, replyTo };
  }
  return line;
}

/** A line after `who` chose `emoji` on line `messageId` (null: took theirs away). */
export function applyLineReaction<T extends LineLike>(
  line: T,
  messageId: string,
  who: { id: string; firstName: string },
  emoji: string | null,
): T {
  if (line.id !== messageId) return line;
  return { ...line, reactions: applyReaction(line.reactions, who, emoji) };
}
