import { z } from 'zod';
import './zod-defaults';

/**
 * Fancies → matches (DESIGN §6). A fancy is private; a mutual fancy becomes one `matches` row
 * (status matched, unique per pair) and opens a conversation at /messages/{matchId}.
 */

/** A member id in a path or body (better-auth ids: letters, digits, dash, underscore). */
export const memberIdSchema = z
  .string({ error: 'Choose a member' })
  .trim()
  .min(1, 'Choose a member')
  .max(64, 'Unknown member')
  .regex(/^[A-Za-z0-9_-]+$/, 'Unknown member');

export const mixerIdSchema = z.guid({ error: 'Choose the mixer you met in' });

export const memberParamSchema = z.object({ userId: memberIdSchema });
export const matchParamSchema = z.object({ id: z.guid({ error: 'Unknown conversation' }) });

/** `GET /api/fancies?mixerId=ID` */
export const fanciesQuerySchema = z.object({ mixerId: mixerIdSchema });
/** `PUT /api/fancies/:userId` */
export const fancyBodySchema = z.object({ mixerId: mixerIdSchema });

export const MATCH_STATUSES = ['matched', 'unmatched', 'blocked'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export const FANCY_MESSAGES = {
  self: "You can't fancy yourself — but we like the confidence.",
  notShared: 'You can only fancy people you have shared a mixer with.',
  notStarted: 'You can fancy people once the mixer has started.',
  closed: 'The time to fancy people from this mixer has passed: it closes 48 hours after the mixer ends.',
  unknownMember: "We couldn't find that member.",
} as const;

export const MATCH_MESSAGES = {
  notFound: "We couldn't find that conversation.",
  notYours: 'This conversation is private to the two people in it.',
} as const;

/** Page sizes (DESIGN §7: every list is paginated with a cursor and a limit). */
export const MATCHES_PAGE_SIZE = 24;

/** `?cursor=…&limit=…` of a cursor-paginated list (the cursor is opaque; at most 50 a page). */
export const cursorPageQuerySchema = (defaultLimit: number) =>
  z.object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(defaultLimit),
  });

export const matchesQuerySchema = cursorPageQuerySchema(MATCHES_PAGE_SIZE);

/** How another member is shown to you: first name, signed avatar URL, city only when shared. */
export interface MatchMember {
  id: string;
  firstName: string;
  avatarUrl: string | null;
  city: string | null;
  /** Holds the verified badge (issue 21). */
  verified?: boolean;
}

export interface MessagePreview {
  body: string;
  senderId: string;
  createdAt: string;
  isRead: boolean;
}

export interface MatchSummary {
  id: string;
  createdAt: string;
  other: MatchMember;
  mixer: { id: string; title: string } | null;
  lastMessage: MessagePreview | null;
  unreadCount: number;
}

export interface MatchesPage {
  matches: MatchSummary[];
  nextCursor: string | null;
}

export interface FancyResult {
  fancied: true;
  /** The match id when the fancy is mutual (new or existing), else null. */
  matchId: string | null;
  /** True only for the fancy that created (or revived) the match: the one to celebrate. */
  newMatch: boolean;
}
