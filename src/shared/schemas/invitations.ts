import type { InvitationStatus } from '../formation';
import type { MixerSummary } from './mixers';

/**
 * Invitations to automatically formed mixers (issue 14, docs/decisions/013). A pending
 * invitation holds a seat for the member until `expiresAt`.
 */

export const INVITATION_MESSAGES = {
  notFound: "We couldn't find that invitation.",
  expired: 'This invitation has expired, so its seat went to someone else. Have a look at the other mixers coming up.',
  declined: "You've already declined this invitation.",
  withdrawn: 'This invitation has closed: the mixer is no longer going ahead, or no longer fits your profile.',
  noLongerFits: 'This mixer is no longer a fit for your profile, so the invitation has closed and its seat goes to someone else.',
  acceptedThenLeft: 'You accepted this invitation and later left the mixer. If seats are free you can join again from its page.',
  accepted: "You've already accepted this invitation. To give your seat back, leave the mixer from its page.",
  started: 'This mixer has already started, so the invitation has closed.',
} as const;

/** How long answered invitations stay in the list. */
export const RECENT_INVITATIONS_DAYS = 7;
export const RECENT_INVITATIONS_MAX = 10;

export interface InvitationView {
  id: string;
  status: InvitationStatus;
  expiresAt: string;
  respondedAt: string | null;
  /** Why me: "3 people who love Bouldering are free Thursday evening". */
  why: string;
  mixer: MixerSummary;
}

export interface InvitationList {
  pending: InvitationView[];
  /** Answered (or expired) in the last few days, newest first. */
  recent: InvitationView[];
}

export interface InvitationAnswer {
  status: InvitationStatus;
  mixerId: string;
}

/** "evening" for a start hour in the member's time zone (the availability grid's parts of the day). */
export function partOfDay(hour: number): 'morning' | 'afternoon' | 'evening' {
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  return 'evening';
}

/** "3 people who love Bouldering are free Thursday evening" (others invited or seated, not me). */
export function invitationWhy(others: number, topic: string, weekday: string, part: string): string {
  const who = others <= 0 ? 'People' : others === 1 ? '1 other person' : `${others} people`;
  const verb = others === 1 ? 'is' : 'are';
  return `${who} who ${others === 1 ? 'loves' : 'love'} ${topic} ${verb} free ${weekday} ${part}`;
}
