import { z } from 'zod';
import { memberIdSchema } from './matches';
import './zod-defaults';

/**
 * Another member's profile card (`GET /api/members/:id`). Who may open it follows the
 * member's "Who can see my profile" setting (`profiles.preferences.profileVisibility`).
 */
export const memberCardParamsSchema = z.object({ id: memberIdSchema });

export const MEMBER_MESSAGES = {
  /** One message for every reason a card is not shown (missing, private, blocked…), so nothing leaks. */
  notAvailable: "This profile isn't available. It may be private, or the member may have left Fancy.",
  profileIncomplete: "Complete your profile to see other members' profiles.",
  rateLimited: "You're opening a lot of profiles. Please take a short break and try again.",
} as const;

/** How many shared mixers a card lists. */
export const CARD_SHARED_MIXERS = 3;

export interface MemberCardPhoto {
  url: string;
  thumbUrl: string;
}

/** A member's public profile card. Never the date of birth; the city only when they share it. */
export interface MemberCard {
  id: string;
  /** First name only, as mixers and matches show members. */
  firstName: string;
  /** Holds the verified badge (issue 21). */
  verified?: boolean;
  age: number | null;
  pronouns: string | null;
  /** Null when the member turned "Show my city to others" off (you always see your own). */
  cityRegion: string | null;
  bio: string | null;
  genderIdentities: string[];
  sexualOrientations: string[];
  lookingFor: string[];
  interests: string[];
  smallJoy: string | null;
  loveToTalkAbout: string | null;
  valueInRelationships: string | null;
  sharedExperience: string | null;
  /** Signed URL of the profile picture (as mixers and matches show it). */
  avatarUrl: string | null;
  photos: MemberCardPhoto[];
  isYou: boolean;
  /** The open conversation when you are matched (status matched), else null. */
  matchId: string | null;
  /** A few mixers you were both in, most recent first. */
  sharedMixers: { id: string; title: string }[];
}

export interface MemberCardResponse {
  member: MemberCard;
}
