/**
 * Blocks and reports (DESIGN §6): a block hides each member from the other everywhere. The reasons,
 * limits and texts without zod (issue 33); `schemas/safety.ts` has the schemas and re-exports these.
 */
export const REPORT_REASONS = [
  'Harassment or bullying',
  'Inappropriate content',
  'Spam or scam',
  'Fake profile',
  'Underage',
  // Issue 30: the most severe kinds a member can name (1-hour target), beside "Underage".
  'Threats of violence',
  'Sexual content involving a child',
  'Someone may be in danger',
  'Something else',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_DETAILS_MAX = 1000;

export const SAFETY_MESSAGES = {
  blockSelf: "You can't block yourself.",
  reportSelf: "You can't report yourself.",
  unknownMixer: "We couldn't find that mixer.",
  lineNotFound: "We couldn't find that message. It may have been removed.",
  lineOwn: "You can't report your own message.",
  lineSystem: 'That line comes from Fancy, not from a member.',
  lineTwice: "You've already reported this message. Our team will look at it.",
  reportRateLimited: "You've sent several reports in the last hour. Please wait a while, or contact support if someone is in danger.",
} as const;

export interface BlockedMember {
  id: string;
  firstName: string;
  avatarUrl: string | null;
  blockedAt: string;
}
