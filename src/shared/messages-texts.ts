import type { DirectMessage } from './realtime/events';
import type { MatchMember, MatchStatus, MessagePreview } from './schemas/matches';

/**
 * Direct messages between matched members (DESIGN §6, §7: chat pages of 50): limits, texts and
 * shapes, without zod (issue 33); `schemas/messages.ts` has the schemas and re-exports these.
 */
export const DM_MAX_LENGTH = 2000;
export const DM_PAGE_SIZE = 50;
export const CONVERSATIONS_PAGE_SIZE = 20;
/** New-message mail: at most one per conversation per hour. */
export const DM_MAIL_INTERVAL_MS = 60 * 60 * 1000;

export const DM_MESSAGES = {
  empty: 'Write a message first.',
  tooLong: `Messages can be up to ${DM_MAX_LENGTH} characters.`,
  ended: 'This conversation has ended, so new messages can’t be sent.',
  rateLimited: "You're sending messages very quickly. Please wait a moment and try again.",
} as const;

export interface ConversationSummary {
  id: string;
  status: MatchStatus;
  other: MatchMember;
  mixer: { id: string; title: string } | null;
  lastMessage: MessagePreview | null;
  unreadCount: number;
  /** Latest message time, else when the match was made. */
  updatedAt: string;
}

export interface ConversationsPage {
  conversations: ConversationSummary[];
  nextCursor: string | null;
}

export interface ConversationDetail {
  id: string;
  status: MatchStatus;
  createdAt: string;
  endedAt: string | null;
  other: MatchMember;
  mixer: { id: string; title: string; topic: string } | null;
  /** True when the viewer blocked the other member (never tells the other side). */
  blockedByMe: boolean;
  canSend: boolean;
}

export interface MessagesPage {
  /** Oldest first. */
  messages: DirectMessage[];
  /** Pass as `before` to load older messages; null at the start of the conversation. */
  nextCursor: string | null;
}
