import type { Audience, SeatKey } from './audience';
import { LOOKING_FOR_OPTIONS } from './constants';
import type { ChatMessage } from './realtime/events';

/**
 * Mixers and their group chat (DESIGN §6): one place for the rules both sides use. Without zod
 * (issue 33): `schemas/mixers.ts` has the schemas and re-exports these.
 */

export const MIXER_THEMES = ['sunset', 'ocean', 'forest', 'berry', 'citrus', 'midnight'] as const;
export type MixerTheme = (typeof MIXER_THEMES)[number];

/** A mixer's intent is one of the looking-for options (spec §2 step 6). */
export const MIXER_INTENTS = LOOKING_FOR_OPTIONS;
export type MixerIntent = (typeof MIXER_INTENTS)[number];

/** scheduled → live (status 'live' means active, spec §3) → ended; admins can cancel. */
export const MIXER_STATUSES = ['scheduled', 'live', 'ended', 'cancelled'] as const;
export type MixerStatus = (typeof MIXER_STATUSES)[number];

/** Upcoming = starting within this many days. */
export const UPCOMING_DAYS = 7;
export const MIXER_PAGE_DEFAULT = 12;
export const MIXER_PAGE_MAX = 50;
/** Chat history pages (DESIGN §7). */
export const CHAT_PAGE_SIZE = 50;
export const CHAT_MESSAGE_MAX = 1000;
/** Per member, across all mixers. */
export const CHAT_RATE_LIMIT = { limit: 10, windowMs: 10_000 } as const;
/** Participant avatars shown on a list card. */
export const CARD_AVATARS = 4;
/** Mixers a member may hold a seat in (joined, or held by an invitation) that have not started yet (issue 32). */
export const MAX_UPCOMING_MIXERS = 5;

export const MIXER_MESSAGES = {
  notFound: "We couldn't find that mixer.",
  profileIncomplete: 'Complete your profile to join mixers.',
  ended: 'This mixer has ended.',
  cancelled: 'This mixer was cancelled.',
  full: 'This mixer is full. Join the waitlist and we will let you know if a seat opens up.',
  leaveEnded: 'This mixer has ended, so you can no longer leave it.',
  chatMembersOnly: 'Only members who joined this mixer can see its chat.',
  chatNotStarted: 'The chat opens when the mixer starts.',
  chatEnded: 'This mixer has ended. The chat is read-only now.',
  chatRateLimited: "You're sending messages very quickly. Please wait a few seconds.",
  messageEmpty: 'Write a message first.',
  messageTooLong: `Keep messages under ${CHAT_MESSAGE_MAX} characters.`,
  endedSystem: 'This mixer has ended. The chat is read-only now — you can still Fancy people from the participant list.',
  tooManyUpcoming: `You already have seats in ${MAX_UPCOMING_MIXERS} upcoming mixers. Leave one of them to join another.`,
  overlaps: "This mixer overlaps with another mixer you're in. Leave that one first if you'd rather go to this one.",
  overlapsHeld:
    "This mixer overlaps with another mixer where a seat is held for you. Decline that seat first if you'd rather go to this one.",
  cardsOpenAtStart: 'Full profiles open when the mixer starts. Until then you see first names, photos and the interests you share.',
  joinRateLimited: "You've joined and left mixers a lot just now. Please wait a while before joining again.",
} as const;

/** What a chat line's text is told when it is empty or too long. */
export const CHAT_BODY_MESSAGES = { empty: MIXER_MESSAGES.messageEmpty, tooLong: MIXER_MESSAGES.messageTooLong };

export const MIXER_SECTIONS = ['foryou', 'live', 'upcoming', 'mine'] as const;
export type MixerSection = (typeof MIXER_SECTIONS)[number];

/** Seats on one side of a seat plan (or the one open pool): counts only, never who. */
export interface SeatFill {
  key: SeatKey;
  seats: number;
  joined: number;
  /** Seats held for other invited members (issue 14): taken, like joined ones, for everyone else. */
  held: number;
  waiting: number;
}

/** Seats taken on a side: members seated there plus seats held for invited members (issue 14). */
export const takenSeats = (f: { joined: number; held: number }) => f.joined + f.held;

/** Seats taken in the whole mixer as a viewer sees them: joined members plus seats held for others. */
export const mixerSeatsTaken = (m: { participantCount: number; seats: { held: number }[] }) =>
  m.participantCount + m.seats.reduce((n, s) => n + s.held, 0);

/** Who a mixer is for (issue 13). Only ever sent to members in its audience (or already in it). */
export interface MixerAudienceView {
  audience: Audience;
  seats: SeatFill[];
  /** The side my seat or waitlist place is on. */
  mySide: SeatKey | null;
  /** Open seats on my side (or the sides I fit); 0 means only the waitlist. */
  seatsForMe: number;
  /** A seat held for me by a pending invitation (issue 14), or null. */
  myInvitation: { id: string; expiresAt: string } | null;
}

/** A mixer as every view of it shows it (members' cards, admins' list). Times are ISO strings. */
export interface MixerFacts {
  id: string;
  title: string;
  topic: string;
  description: string;
  theme: MixerTheme;
  tags: string[];
  intent: MixerIntent;
  status: MixerStatus;
  startsAt: string;
  endsAt: string;
  maxParticipants: number;
  participantCount: number;
  waitlistCount: number;
}

/** What the list cards show. */
export interface MixerSummary extends MixerAudienceView, MixerFacts {
  /** My membership: joined, waitlisted, or null (never joined, or left). */
  myState: 'joined' | 'waitlisted' | null;
  /** Shared interests (tags matching mine) — the card's "For you" hint. */
  sharedTags: string[];
  /** Matches one of the things I am looking for. */
  intentMatch: boolean;
  /** For verified members only (issue 21). */
  verifiedOnly?: boolean;
  /** A few participants for the avatar stack. */
  preview: { id: string; firstName: string; avatarUrl: string | null }[];
  /** "For you" only: why it is there, in a few words ("3 shared interests", "near you"…). */
  reasons?: string[];
}

export interface MixerPage {
  items: MixerSummary[];
  nextCursor: string | null;
  /** Why the list is narrower than usual, e.g. no city on the profile (online mixers only). */
  notice?: string | null;
}

export interface MixerParticipant {
  id: string;
  firstName: string;
  age: number | null;
  /** Only when the member shares it (profiles.share_city_region). */
  city: string | null;
  avatarUrl: string | null;
  isYou: boolean;
  /** Holds the verified badge (issue 21). */
  verified?: boolean;
  /**
   * Whether their profile card opens for you (GET /api/members/:id answers it): decided by the
   * server's one rule (safety/visibility `cardOpenableBy`), so the list never offers a card that
   * answers "This profile isn't available".
   */
  canOpen: boolean;
  /** Their interests that are mine too (empty on my own row). Before the start, with the first name and photo, all a co-participant sees. */
  sharedInterests: string[];
}

export interface MixerDetail extends MixerSummary {
  participants: MixerParticipant[];
  /** 1-based place in the queue when I am waitlisted. */
  waitlistPosition: number | null;
  /** Whether my profile is complete enough to join. */
  canJoin: boolean;
  /**
   * Another mixer I hold (joined, or a seat held for me by an invitation) at an overlapping time:
   * a Join here would be refused until I leave or decline it. Null when there is none.
   */
  clash: MixerClash | null;
  /** I already hold MAX_UPCOMING_MIXERS upcoming mixers: a Join here would be refused until I leave one. */
  upcomingLimitReached: boolean;
}

/** A mixer whose time overlaps the one shown, and how I hold it. */
export interface MixerClash {
  id: string;
  title: string;
  startsAt: string;
  /** Held for me by an invitation (decline it), rather than joined (leave it). */
  invited: boolean;
}

export interface ChatPage {
  /** Oldest first. */
  items: ChatMessage[];
  /** Cursor for the next older page, or null at the beginning. */
  nextCursor: string | null;
}

export interface JoinResult {
  state: 'joined' | 'waitlisted';
  waitlistPosition: number | null;
}

export interface TopicFacets {
  topics: string[];
}
