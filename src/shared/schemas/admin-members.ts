import { z } from 'zod';
import type { IdentityChange } from './admin';
import { memberIdSchema } from './matches';
import { memberTextChecks } from './text';

/**
 * The admin member pages (issue 32): search by name or e-mail, and one member's account,
 * identity changes and moderation history. Admins only; nothing here reaches other members.
 */

export const MEMBER_SEARCH_MIN = 2;
export const MEMBER_SEARCH_MAX = 100;
export const MEMBER_SEARCH_LIMIT = 20;

export const ADMIN_MEMBER_MESSAGES = {
  searchShort: `Type at least ${MEMBER_SEARCH_MIN} characters of a name or e-mail.`,
  searchLong: `Search with at most ${MEMBER_SEARCH_MAX} characters.`,
  notFound: 'There is no member with this id. They may have deleted their account.',
} as const;

/** `GET /api/admin/members?q=…&limit=…` */
export const memberSearchQuerySchema = z.object({
  q: z
    .string({ error: ADMIN_MEMBER_MESSAGES.searchShort })
    // Control characters (NUL among them, which PostgreSQL refuses in text) are a clear 400.
    .check(...memberTextChecks())
    .min(MEMBER_SEARCH_MIN, ADMIN_MEMBER_MESSAGES.searchShort)
    .max(MEMBER_SEARCH_MAX, ADMIN_MEMBER_MESSAGES.searchLong),
  limit: z.coerce.number().int().min(1).max(50).default(MEMBER_SEARCH_LIMIT),
});

/** `GET /api/admin/members/:id` */
export const memberPageParamsSchema = z.object({ id: memberIdSchema });

/** One search hit. */
export interface AdminMemberHit {
  id: string;
  name: string;
  email: string;
  joinedAt: string;
  role: string;
  verified: boolean;
  /** A running suspension or a ban. */
  restricted: boolean;
}

export interface AdminMemberSearch {
  members: AdminMemberHit[];
  /** More matched than were listed: narrow the search. */
  more: boolean;
}

/** A moderation action taken on the member. */
export interface AdminMemberAction {
  id: string;
  action: 'dismiss' | 'remove' | 'warn' | 'mute' | 'suspend' | 'ban';
  rule: string;
  at: string;
  endsAt: string | null;
  days: number | null;
  reversedAt: string | null;
  by: string | null;
  reportId: string | null;
}

/** A report about the member. */
export interface AdminMemberReport {
  id: string;
  reason: string;
  status: string;
  at: string;
  reporter: string | null;
}

/** A restriction in force now (a running suspension or mute, or a ban). */
export interface AdminMemberRestriction {
  kind: 'suspend' | 'mute' | 'ban';
  rule: string | null;
  since: string | null;
  /** Null: until lifted (a ban). */
  endsAt: string | null;
}

export interface AdminMemberDetail {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  role: string;
  onboardingComplete: boolean;
  verification: { status: string; method: string; modelVersion: string; verifiedAt: string | null; revokedReason: string | null } | null;
  restrictions: AdminMemberRestriction[];
  identityChanges: IdentityChange[];
  actions: AdminMemberAction[];
  reports: {
    total: number;
    open: number;
    /** Reports this member made about others. */
    made: number;
    latest: AdminMemberReport[];
  };
}
