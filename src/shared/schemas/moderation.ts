import { z } from 'zod';
import type { IdentityChange } from './admin';
import type { ReportReason } from './safety';
import { memberTextChecks } from './text';
import './zod-defaults';

/**
 * Moderation (issue 30, decision 036): severities and their targets, the rules an action names
 * (the Terms page explains each), the actions, and appeals. Shared by the server, the admin area
 * and the member's notices.
 */

/** Severity 0: threats of violence, someone under 18, sexual content involving a child, imminent harm. */
export const SEVERE_REASONS: readonly ReportReason[] = [
  'Threats of violence',
  'Underage',
  'Sexual content involving a child',
  'Someone may be in danger',
];
export const severityOf = (reason: string): 0 | 1 => (SEVERE_REASONS.includes(reason as ReportReason) ? 0 : 1);
/** Hours a report may wait for a first action, per severity. */
export const TARGET_HOURS: Record<0 | 1, number> = { 0: 1, 1: 24 };

/**
 * The queue order: most severe first, then the longest waiting. Used by the server's ORDER BY
 * (the same two keys) and by the unit test of the order.
 */
export function queueOrder<T extends { severity: number; oldestAt: string }>(groups: T[]): T[] {
  return [...groups].sort((a, b) => a.severity - b.severity || Date.parse(a.oldestAt) - Date.parse(b.oldestAt));
}

/** Whether a report has waited past its target. */
export const isOverdue = (severity: 0 | 1, createdAt: string, now = Date.now()) =>
  now - Date.parse(createdAt) > TARGET_HOURS[severity] * 3_600_000;

/** Two different members of the room reporting the same line hide it for everyone pending review. */
export const HIDE_AFTER_REPORTERS = 2;
export const hiddenByReports = (reporterIds: readonly string[]) => new Set(reporterIds).size >= HIDE_AFTER_REPORTERS;

export const RULES = {
  violence: 'No threats or violence',
  hate: 'No harassment, hate or bullying',
  sexual: 'No unwanted sexual content',
  adults: 'Adults only (18+), and nothing that puts a child at risk',
  scams: 'No scams, spam or selling',
  contact: 'No contact details or links in mixers',
  honest: 'Be yourself: no fake profiles',
  illegal: 'Nothing illegal',
} as const;
export type RuleKey = keyof typeof RULES;
export const RULE_KEYS = Object.keys(RULES) as RuleKey[];
/** A stored rule key in words (an unknown key as it is). */
export const ruleText = (rule: string) => RULES[rule as RuleKey] ?? rule;

export const MODERATION_ACTIONS = ['dismiss', 'remove', 'warn', 'mute', 'suspend', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
export const ACTION_DAYS = [1, 7, 30] as const;

export const APPEAL_DAYS = 14;
export const APPEAL_TEXT_MAX = 1000;
/** Whether an action taken at `actedAt` may still be appealed. */
export const appealOpen = (actedAt: string | Date, now = Date.now()) => now - new Date(actedAt).getTime() <= APPEAL_DAYS * 86_400_000;
/** Appeals are decided, and suspensions lifted, by an admin other than the one who acted. */
export const mayDecideAppeal = (actorId: string | null, deciderId: string) => actorId !== deciderId;

/** Frozen evidence is kept this long after the report is closed, then purged. */
export const EVIDENCE_RETENTION_MONTHS = 12;

export const MODERATION_MESSAGES = {
  ruleRequired: 'Choose the rule that was broken',
  daysRequired: 'Choose 1, 7 or 30 days',
  noLine: 'This report is not about a line, so there is nothing to remove.',
  memberGone: 'This member has deleted their account, so the report can only be dismissed or the line removed.',
  cannotActOnAdmin: "Admins can't be muted, suspended or banned from here.",
  reportHandled: 'This report has already been handled.',
  reportNotFound: "We couldn't find that report.",
  appealNotFound: "We couldn't find that decision.",
  appealTwice: "You've already appealed this decision. We'll tell you the outcome.",
  appealLate: `Appeals are open for ${APPEAL_DAYS} days after a decision, and this one has closed.`,
  appealDismiss: 'There is nothing to appeal on a dismissed report.',
  appealReversed: 'This decision has already been reversed.',
  appealSameAdmin: 'An appeal must be decided by a different admin from the one who acted.',
  liftSameAdmin: 'A suspension must be lifted by a different admin from the one who suspended the member.',
  suspensionNotFound: "We couldn't find that suspension.",
  suspensionEnded: 'This suspension has already ended or been lifted.',
  ownCase: 'A case about yourself must be decided by another admin.',
  appealDecided: 'This appeal has already been decided.',
  appealLink: 'This appeal link is not valid or has expired.',
  appealTextRequired: 'Please tell us why, in a few words',
  mutedInMixers: (until: string) => `You're muted in mixers until ${until}: you can read, but not write or join.`,
  bannedEmail: 'This e-mail address cannot be used to create a Fancy account.',
} as const;

const appealText = z
  .string({ error: MODERATION_MESSAGES.appealTextRequired })
  .check(...memberTextChecks('multiline'))
  .trim()
  .min(10, MODERATION_MESSAGES.appealTextRequired)
  .max(APPEAL_TEXT_MAX, `Please keep it under ${APPEAL_TEXT_MAX} characters`);

export const moderationActSchema = z
  .object({
    action: z.enum(MODERATION_ACTIONS, { error: 'Choose what to do' }),
    rule: z.enum(RULE_KEYS as [RuleKey, ...RuleKey[]], { error: MODERATION_MESSAGES.ruleRequired }).optional(),
    days: z.union([z.literal(1), z.literal(7), z.literal(30)], { error: MODERATION_MESSAGES.daysRequired }).optional(),
    /** Also remove the reported line(s) with a warn, mute, suspend or ban. */
    removeLine: z.boolean().default(false),
    note: z.string().trim().max(1000, 'Please keep it under 1000 characters').default(''),
  })
  .superRefine((v, ctx) => {
    if (v.action !== 'dismiss' && !v.rule) ctx.addIssue({ code: 'custom', path: ['rule'], message: MODERATION_MESSAGES.ruleRequired });
    if ((v.action === 'mute' || v.action === 'suspend') && !v.days)
      ctx.addIssue({ code: 'custom', path: ['days'], message: MODERATION_MESSAGES.daysRequired });
  });
export type ModerationActInput = z.input<typeof moderationActSchema>;

export const appealSchema = z.object({ actionId: z.guid({ error: MODERATION_MESSAGES.appealNotFound }), text: appealText });
export const appealByLinkSchema = z.object({
  token: z.string().min(10, MODERATION_MESSAGES.appealLink).max(300, MODERATION_MESSAGES.appealLink),
  text: appealText,
  /** A banned member confirms the address the account had (checked against its hash). */
  email: z.string().trim().max(254).optional(),
});
export const appealLinkQuerySchema = z.object({
  token: z.string().min(10, MODERATION_MESSAGES.appealLink).max(300, MODERATION_MESSAGES.appealLink),
});
export const decideAppealSchema = z.object({
  decision: z.enum(['uphold', 'reverse'], { error: 'Choose uphold or reverse' }),
  note: z.string().trim().min(5, 'Tell the member why, in a few words').max(1000),
});

/** A frozen line in a report's evidence. */
export interface EvidenceLine {
  id: string;
  body: string;
  createdAt: string;
  authorId: string | null;
  authorName: string;
}
export interface Evidence {
  frozenAt: string;
  line: EvidenceLine | null;
  before: EvidenceLine[];
  after: EvidenceLine[];
  profile: { name: string; bio: string; promptAnswer: string } | null;
  /** Signed URL of the copy of the main photo (admins only). */
  photoUrl?: string | null;
}

export interface QueueReport {
  id: string;
  reason: string;
  details: string;
  kind: 'member' | 'mixer' | 'direct';
  severity: 0 | 1;
  createdAt: string;
  targetAt: string;
  overdue: boolean;
  reporter: { id: string; name: string } | null;
  room: { kind: 'mixer' | 'direct'; id: string; title: string } | null;
  lineHidden: boolean;
  evidence: Evidence | null;
}
export interface QueueGroup {
  member: { id: string; name: string; email: string; role: string; identityChanges: IdentityChange[] } | null;
  severity: 0 | 1;
  oldestAt: string;
  targetAt: string;
  overdue: boolean;
  reports: QueueReport[];
  history: { action: string; rule: string | null; at: string; reversed: boolean }[];
  earlierReports: number;
}

export interface MemberAction {
  id: string;
  action: Exclude<ModerationAction, 'dismiss'>;
  rule: string;
  ruleText: string;
  quote: string | null;
  days: number | null;
  endsAt: string | null;
  createdAt: string;
  reversed: boolean;
  appeal: { status: 'open' | 'upheld' | 'reversed'; decidedAt: string | null } | null;
  appealable: boolean;
}
export interface MyReport {
  id: string;
  reason: string;
  details: string;
  createdAt: string;
  /** Whether action was taken, never which. */
  outcome: 'open' | 'action_taken' | 'no_action';
}
export interface AdminAppeal {
  id: string;
  text: string;
  createdAt: string;
  member: { id: string; name: string } | null;
  action: {
    id: string;
    action: string;
    rule: string;
    quote: string | null;
    days: number | null;
    createdAt: string;
    actorId: string | null;
    actorName: string | null;
  };
  decidable: boolean;
}

export const actionLabel = (a: string, days?: number | null) =>
  ({
    dismiss: 'Dismissed',
    remove: 'Line removed',
    warn: 'Warning',
    mute: `Muted in mixers${days ? ` for ${days} day${days === 1 ? '' : 's'}` : ''}`,
    suspend: `Suspended${days ? ` for ${days} day${days === 1 ? '' : 's'}` : ''}`,
    ban: 'Banned',
  })[a] ?? a;

/** "3 March 2026, 14:00 UTC": when a mute or suspension ends, in the member's notices and refusals. */
export const muteDate = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }) + ' UTC';

/** What happens now, in the actioned member's words. */
export function whatHappensNow(action: string, endsAt: string | null): string {
  switch (action) {
    case 'remove':
      return 'The line has been removed for everyone. Nothing else changes on your account.';
    case 'warn':
      return 'This is a warning: nothing else changes, but if it happens again we may mute, suspend or ban your account.';
    case 'mute':
      return `You can still read your mixers, but you can't write in them, join one or be invited until ${endsAt ? muteDate(endsAt) : 'the mute ends'}.`;
    case 'suspend':
      return `Your account is suspended until ${endsAt ? muteDate(endsAt) : 'further notice'}: you can't sign in until then.`;
    case 'ban':
      return 'Your account has been closed and this e-mail address cannot be used to register again.';
    default:
      return '';
  }
}
