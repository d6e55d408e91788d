import { z } from 'zod';
import { memberTextChecks } from './text';
import { memberIdSchema, mixerIdSchema } from './matches';
import './zod-defaults';

/** Blocks and reports (DESIGN §6): a block hides each member from the other everywhere. */
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

export const blockSchema = z.object({ userId: memberIdSchema });

export const reportSchema = z.object({
  userId: memberIdSchema,
  mixerId: mixerIdSchema.nullish(),
  reason: z.enum(REPORT_REASONS, { error: 'Please choose a reason' }),
  details: z
    .string({ error: 'Please describe what happened' })
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(REPORT_DETAILS_MAX, `Please keep it under ${REPORT_DETAILS_MAX} characters`)
    .default(''),
});
export type ReportInput = z.input<typeof reportSchema>;

/** A line of a mixer (`roomId` = mixer id) or of a private chat (`roomId` = match id). */
export const reportLineSchema = z.object({
  kind: z.enum(['mixer', 'direct'], { error: 'Choose a mixer or a private chat' }),
  roomId: z.guid({ error: "We couldn't find that conversation." }),
  messageId: z.guid({ error: "We couldn't find that message. It may have been removed." }),
  reason: reportSchema.shape.reason,
  details: reportSchema.shape.details,
});
export type ReportLineInput = z.input<typeof reportLineSchema>;

export interface BlockedMember {
  id: string;
  firstName: string;
  avatarUrl: string | null;
  blockedAt: string;
}
