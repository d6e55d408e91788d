import { z } from 'zod';
import { memberTextChecks } from './text';
import { INTEREST_CATEGORIES, type InterestCategory } from '../reference/catalog';
import { type Audience, DEFAULT_AUDIENCE } from '../audience';
import { audienceSchema } from './audience';
import { MIXER_INTENTS, MIXER_THEMES, type MixerFacts, type SeatFill } from './mixers';
import './zod-defaults';

/**
 * The admin area (spec §2 /admin…, §6 admin role): one place for the rules and messages both
 * the admin pages and the server use. Every admin route checks the role on the server and
 * every admin action lands in the audit log.
 */

export const ADMIN_MESSAGES = {
  reasonRequired: 'Please give a reason — the member will read it.',
  reasonTooShort: 'Please write at least 5 characters.',
  reasonTooLong: 'Keep the reason under 1000 characters.',
  suggestionNotFound: 'There are no pending suggestions with that text any more.',
  categoryRequired: 'Please choose a category',
  interestNameRequired: 'Please enter the interest as it should appear',
  interestNameTooLong: 'Keep the interest under 50 characters',
  titleRequired: 'Please give the mixer a title',
  titleTooLong: 'Keep the title under 80 characters',
  topicRequired: 'Please enter a topic',
  topicTooLong: 'Keep the topic under 40 characters',
  descriptionTooLong: 'Keep the description under 600 characters',
  icebreakerTooLong: 'Keep the icebreaker under 300 characters',
  tagsTooMany: 'Choose up to 6 tags',
  tagUnknown: 'Tags must come from the interest catalogue',
  startRequired: 'Please choose a start date and time',
  startInPast: 'Pick a start time in the future',
  duration: 'Duration must be between 15 minutes and 4 hours',
  capacity: 'Capacity must be between 4 and 10',
  capacityBelowJoined: (n: number) => `${n} members have already joined, so the capacity can't go below ${n}.`,
  mixerNotEditable: 'Only upcoming or live mixers can be changed.',
  mixerStarted: 'This mixer has already started, so its start time can’t change.',
  mixerEndsInPast: 'That duration would end the live mixer in the past.',
  mixerNotCancellable: 'Only upcoming or live mixers can be cancelled.',
  mixerNotFound: "We couldn't find that mixer.",
  labelRequired: 'Please enter a label',
  labelTooLong: 'Keep the label under 80 characters',
  codeInvalid: 'Use 2–40 letters, digits, dashes or underscores',
  codeTaken: 'That code is already used by another campaign',
  valueTooLong: 'Keep it under 100 characters',
  dateInvalid: 'Use a date like 2026-01-31',
  rangeOrder: 'The start date must be on or before the end date',
  rangeTooLong: 'Choose a range of at most 366 days',
} as const;

/** A reason the member is told (cancellations, a lifted suspension). */
export const memberReasonSchema = z
  .string({ error: ADMIN_MESSAGES.reasonRequired })
  .check(...memberTextChecks('multiline'))
  .trim()
  .min(1, ADMIN_MESSAGES.reasonRequired)
  .min(5, ADMIN_MESSAGES.reasonTooShort)
  .max(1000, ADMIN_MESSAGES.reasonTooLong);

// ── Interest suggestions ───────────────────────────────────────────────────────────────

export { suggestionKey } from '../profile-texts';

const suggestionText = z
  .string()
  .check(...memberTextChecks())
  .trim()
  .min(1, ADMIN_MESSAGES.suggestionNotFound)
  .max(200, ADMIN_MESSAGES.suggestionNotFound);

export const approveSuggestionSchema = z.object({
  /** Any spelling of the suggestion; every pending suggestion with the same key is approved. */
  text: suggestionText,
  /** How the interest appears in the catalogue (defaults to the suggested text). */
  name: z
    .string()
    .check(...memberTextChecks())
    .trim()
    .min(1, ADMIN_MESSAGES.interestNameRequired)
    .max(50, ADMIN_MESSAGES.interestNameTooLong)
    .optional(),
  category: z.enum(INTEREST_CATEGORIES, { error: ADMIN_MESSAGES.categoryRequired }),
});
export type ApproveSuggestionInput = z.input<typeof approveSuggestionSchema>;

export const rejectSuggestionSchema = z.object({
  text: suggestionText,
  /** Internal note for the decision history; suggesters are not told. */
  note: z
    .string()
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(300, 'Keep the note under 300 characters')
    .optional(),
});
export type RejectSuggestionInput = z.input<typeof rejectSuggestionSchema>;

export interface SuggestionGroup {
  key: string;
  /** The most common spelling. */
  text: string;
  count: number;
  members: number;
  firstAt: string;
  lastAt: string;
  /** Already in the catalogue (approving only marks the suggestions). */
  inCatalogue: boolean;
  suggesters: { userId: string; name: string; createdAt: string }[];
}

export interface SuggestionDecision {
  id: string;
  decision: 'approved' | 'rejected';
  text: string;
  name: string | null;
  category: string | null;
  count: number;
  note: string | null;
  decidedAt: string;
  decidedBy: string | null;
}

export interface SuggestionsOverview {
  pending: SuggestionGroup[];
  history: SuggestionDecision[];
}

export interface ApproveResult {
  name: string;
  category: InterestCategory;
  /** False when the interest was already in the catalogue. */
  added: boolean;
  approved: number;
}

// ── Metrics ────────────────────────────────────────────────────────────────────────────

export const METRICS_MAX_DAYS = 366;
export const METRICS_SPLITS = ['source', 'campaign', 'code'] as const;
export type MetricsSplit = (typeof METRICS_SPLITS)[number];
export const METRICS_SPLIT_LABELS: Record<MetricsSplit, string> = { source: 'Source', campaign: 'Campaign', code: 'Campaign code' };
/** Series beyond this many campaigns are summed as "Other". */
export const METRICS_TOP_CAMPAIGNS = 6;
export const NO_CAMPAIGN = '(none)';
export const OTHER_CAMPAIGNS = 'Other';

/** A calendar day in the years the app can have data for (2000–2199): a far-off year is a typo, not a range. */
const isoDay = z.string().regex(/^2[01]\d{2}-\d{2}-\d{2}$/, ADMIN_MESSAGES.dateInvalid);

export const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
export const addDays = (day: string, n: number) => new Date((dayNumber(day) + n) * 86_400_000).toISOString().slice(0, 10);
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

export const metricsQuerySchema = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
    split: z.enum(METRICS_SPLITS).default('source'),
  })
  .superRefine((q, ctx) => {
    for (const key of ['from', 'to'] as const) {
      const v = q[key];
      if (v && (Number.isNaN(dayNumber(v)) || addDays(v, 0) !== v))
        ctx.addIssue({ code: 'custom', path: [key], message: ADMIN_MESSAGES.dateInvalid });
    }
    if (q.from && q.to && dayNumber(q.from) > dayNumber(q.to))
      ctx.addIssue({ code: 'custom', path: ['from'], message: ADMIN_MESSAGES.rangeOrder });
    if (q.from && q.to && dayNumber(q.to) - dayNumber(q.from) + 1 > METRICS_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: ADMIN_MESSAGES.rangeTooLong });
    }
  });
export type MetricsQuery = z.output<typeof metricsQuerySchema>;

/** The wizard's steps (spec §2), for the onboarding funnel: index = profiles.onboarding_step. */
export const FUNNEL_STEP_LABELS = [
  'Welcome',
  'About you',
  'Date of birth',
  'Gender identity',
  'Sexual orientation',
  'Looking for',
  'Interests',
  'Location',
  'Photos',
  'Bio',
  'Preview',
] as const;

export interface MetricsDay {
  day: string;
  signups: number;
  mixersCreated: number;
  mixerJoins: number;
  chatMessages: number;
  matches: number;
  directMessages: number;
  activeMembers: number;
}

export interface CampaignSeries {
  key: string;
  total: number;
}

/** Admin metrics of moderation for a range of days (issue 30). */
export interface ModerationMetrics {
  /** Every day of the range, zeros included. */
  reportsPerDay: { day: string; n: number }[];
  /** Per severity: the median and 90th percentile minutes to the first action, and the share (0–1) that waited past its target. */
  timeToFirstAction: {
    severity: 0 | 1;
    reports: number;
    medianMinutes: number | null;
    p90Minutes: number | null;
    overdueShare: number;
  }[];
  /** Share (0–1) of the range's reports that waited past their target. */
  overdueShare: number;
  appeals: number;
  /** Share (0–1) of decided appeals that reversed the action. */
  reversalRate: number;
}

export interface Metrics {
  from: string;
  to: string;
  split: MetricsSplit;
  /** Every day of the range, zeros included. Days are UTC calendar days. */
  days: MetricsDay[];
  /** Sign-ups per day split by campaign: `counts[i]` belongs to `campaigns[i]`. */
  signupsByCampaign: { campaigns: CampaignSeries[]; days: { day: string; counts: number[] }[] };
  /** Members who registered in the range, and how far they got. */
  funnel: { key: string; label: string; count: number }[];
  /** Reports, time to first action, overdue share and appeals (issue 30). */
  moderation: ModerationMetrics;
}

// ── Overview and audit ─────────────────────────────────────────────────────────────────

export interface AdminOverview {
  members: { total: number; verified: number; onboarded: number; suspended: number };
  signups: { today: number; last7Days: number };
  mixers: { live: number; upcoming: number };
  last7Days: { matches: number; directMessages: number; chatMessages: number };
  activeToday: number;
  reports: { open: number; oldestOpenAt: string | null };
  suggestions: { pending: number };
  recentActivity: AuditEntry[];
  /** Configuration the operator should know about (e.g. mail kept in the outbox only). */
  warnings: OperatorWarning[];
}

export interface OperatorWarning {
  code: string;
  title: string;
  text: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  target: string | null;
  details: string | null;
  createdAt: string;
  actor: { id: string; name: string; email: string } | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const pageQuerySchema = z.object({
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

/** Human text for an audit action. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'suggestion.approve': 'Approved an interest suggestion',
  'suggestion.reject': 'Rejected an interest suggestion',
  'mixer.create': 'Created a mixer',
  'mixer.update': 'Edited a mixer',
  'mixer.cancel': 'Cancelled a mixer',
  'campaign.create': 'Created a campaign',
  'report.dismiss': 'Dismissed a report',
  'report.warn': 'Warned a member',
  'member.suspend': 'Suspended a member',
  'member.unsuspend': 'Lifted a suspension',
  'moderation.lift': 'Lifted a suspension',
  'moderation.dismiss': 'Dismissed a report',
  'moderation.restore': 'Restored a hidden line',
  'moderation.remove': 'Removed a reported line',
  'moderation.warn': 'Warned a member',
  'moderation.mute': 'Muted a member in mixers',
  'moderation.suspend': 'Suspended a member',
  'moderation.ban': 'Banned a member',
  'appeal.upheld': 'Upheld a decision on appeal',
  'appeal.reversed': 'Reversed a decision on appeal',
  'verification.approve': 'Approved a verification review',
  'verification.revoke': 'Revoked a verified badge',
  'verification.recheck': 'Re-checked a verified badge against a new bar',
  'formation.mixer_created': 'Formed a mixer',
  'formation.invited': 'Invited a member to a formed mixer',
  'formation.paused': 'Paused formation',
  'formation.resumed': 'Resumed formation',
  'formation.settings': 'Changed formation settings',
  'formation.template': 'Edited a topic template',
  'formation.template.create': 'Added a topic template',
  'host.on': "Switched a mixer's host on",
  'host.off': "Switched a mixer's host off",
  'host.prompts': "Edited a topic's host prompts",
  'invitation.accepted': 'Invitation accepted',
  'invitation.declined': 'Invitation declined',
  'invitation.expired': 'Invitation expired',
};

/** Who did it, for an audit row whose actor is gone: the formation job and invitations run on their own. */
export const auditActorName = (entry: { action: string; actor: { name: string } | null }): string =>
  entry.actor?.name ?? (/^(formation|invitation)\./.test(entry.action) ? 'Fancy (automatic)' : 'Removed account');

// ── Mixers ─────────────────────────────────────────────────────────────────────────────

export const MIXER_CAPACITY_MIN = 4;
export const MIXER_CAPACITY_MAX = 10;
export const MIXER_DURATION_MIN = 15;
export const MIXER_DURATION_MAX = 240;
export const MIXER_TAGS_MAX = 6;
export const MIXER_DURATION_PRESETS = [30, 45, 60, 90, 120] as const;

export const mixerInputSchema = z.object({
  title: z
    .string({ error: ADMIN_MESSAGES.titleRequired })
    .check(...memberTextChecks())
    .trim()
    .min(3, ADMIN_MESSAGES.titleRequired)
    .max(80, ADMIN_MESSAGES.titleTooLong),
  topic: z
    .string({ error: ADMIN_MESSAGES.topicRequired })
    .check(...memberTextChecks())
    .trim()
    .min(1, ADMIN_MESSAGES.topicRequired)
    .max(40, ADMIN_MESSAGES.topicTooLong),
  description: z
    .string()
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(600, ADMIN_MESSAGES.descriptionTooLong)
    .default(''),
  theme: z.enum(MIXER_THEMES, { error: 'Please choose a theme' }),
  tags: z
    .array(
      z
        .string()
        .check(...memberTextChecks())
        .trim()
        .min(1, ADMIN_MESSAGES.tagUnknown)
        .max(50, ADMIN_MESSAGES.tagUnknown),
    )
    .max(MIXER_TAGS_MAX, ADMIN_MESSAGES.tagsTooMany)
    .default([]),
  intent: z.enum(MIXER_INTENTS, { error: 'Please choose what the mixer is for' }),
  startsAt: z.iso.datetime({ offset: true, error: ADMIN_MESSAGES.startRequired }),
  durationMinutes: z.coerce
    .number({ error: ADMIN_MESSAGES.duration })
    .int(ADMIN_MESSAGES.duration)
    .min(MIXER_DURATION_MIN, ADMIN_MESSAGES.duration)
    .max(MIXER_DURATION_MAX, ADMIN_MESSAGES.duration),
  maxParticipants: z.coerce
    .number({ error: ADMIN_MESSAGES.capacity })
    .int(ADMIN_MESSAGES.capacity)
    .min(MIXER_CAPACITY_MIN, ADMIN_MESSAGES.capacity)
    .max(MIXER_CAPACITY_MAX, ADMIN_MESSAGES.capacity),
  icebreaker: z
    .string()
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(300, ADMIN_MESSAGES.icebreakerTooLong)
    .default(''),
  /** Who it is for (issue 13). A Dating mixer's plan sets its capacity; without one it is open to everyone. */
  audience: audienceSchema.default(DEFAULT_AUDIENCE),
  /** Only verified members may see and join it (issue 21). */
  verifiedOnly: z.boolean().default(false),
});
export type MixerInput = z.input<typeof mixerInputSchema>;

export const cancelMixerSchema = z.object({ reason: memberReasonSchema });

export const ADMIN_MIXER_VIEWS = ['active', 'past', 'cancelled'] as const;
export type AdminMixerView = (typeof ADMIN_MIXER_VIEWS)[number];
export const adminMixerListSchema = pageQuerySchema.extend({ view: z.enum(ADMIN_MIXER_VIEWS).default('active') });

export interface AdminMixer extends MixerFacts {
  audience: Audience;
  /** Fill per seat pool (the plan's sides, or one open pool). */
  seats: SeatFill[];
  durationMinutes: number;
  chatMessages: number;
  icebreaker: string;
  verifiedOnly: boolean;
  createdBy: string | null;
  createdAt: string;
}

// ── Campaigns ──────────────────────────────────────────────────────────────────────────

const campaignValue = z
  .string()
  .check(...memberTextChecks())
  .trim()
  .max(100, ADMIN_MESSAGES.valueTooLong)
  .default('');

export const campaignInputSchema = z.object({
  label: z
    .string({ error: ADMIN_MESSAGES.labelRequired })
    .check(...memberTextChecks())
    .trim()
    .min(1, ADMIN_MESSAGES.labelRequired)
    .max(80, ADMIN_MESSAGES.labelTooLong),
  code: z
    .string({ error: ADMIN_MESSAGES.codeInvalid })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/, ADMIN_MESSAGES.codeInvalid),
  source: campaignValue,
  medium: campaignValue,
  campaign: campaignValue,
});
export type CampaignInput = z.input<typeof campaignInputSchema>;

export interface AdminCampaign {
  id: string;
  label: string;
  code: string;
  source: string;
  medium: string;
  campaign: string;
  createdAt: string;
  createdBy: string | null;
  signups: number;
  verified: number;
  completed: number;
}

/** Sign-ups carrying campaign details that match no campaign created here. */
export interface UntrackedAttribution {
  source: string;
  campaign: string;
  code: string;
  signups: number;
  completed: number;
}

export interface CampaignsOverview {
  campaigns: AdminCampaign[];
  untracked: UntrackedAttribution[];
}

/** The query string a campaign's links carry (the /campaign pages read these names). */
export function campaignLinkQuery(c: Pick<AdminCampaign, 'label' | 'code' | 'source' | 'medium' | 'campaign'>): string {
  const q = new URLSearchParams();
  const pairs: [string, string][] = [
    ['utm_source', c.source],
    ['utm_medium', c.medium],
    ['utm_campaign', c.campaign],
    ['code', c.code],
    ['label', c.label],
  ];
  for (const [k, v] of pairs) if (v.trim()) q.set(k, v.trim());
  return q.toString();
}

// ── Reports and suspensions ────────────────────────────────────────────────────────────

/** Lifting a suspension reverses it (decision 036); the member reads the reason. */
export const liftSuspensionSchema = z.object({ reason: memberReasonSchema });

export const REPORT_VIEWS = ['open', 'resolved'] as const;
export const adminReportListSchema = pageQuerySchema.extend({ status: z.enum(REPORT_VIEWS).default('open') });

export interface ReportMember {
  id: string;
  name: string;
  email: string;
  joinedAt: string;
  suspended: boolean;
  /** Reports against this member (all time) and how many were warnings. */
  reportsTotal: number;
  warnings: number;
  /** Their latest changes of gender identity and of orientation/looking-for (issue 32), newest first. */
  identityChanges: IdentityChange[];
}

/** One change of who a member is (audit log `profile.gender_identity` / `profile.orientation`). Admins only. */
export interface IdentityChange {
  kind: 'gender' | 'orientation';
  at: string;
  /** The values before and after, e.g. "Woman" → "Man", "Straight · Dating" → "Gay · Dating". */
  from: string;
  to: string;
}

/** How many identity changes an admin sees for a member. */
export const IDENTITY_CHANGES_SHOWN = 5;

export interface AdminReport {
  id: string;
  reason: string;
  details: string;
  status: 'open' | 'dismissed' | 'warned' | 'suspended' | 'actioned';
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
  reporter: { id: string; name: string; email: string } | null;
  /** Null when the reported member has since deleted their account. */
  reported: ReportMember | null;
  mixer: { id: string; title: string; status: string; startsAt: string } | null;
  /** The reported member's latest lines in the mixer's chat, oldest first. */
  mixerMessages: { id: string; body: string; createdAt: string }[];
  /** The latest private messages between the two, oldest first. */
  directMessages: { id: string; body: string; createdAt: string; fromReported: boolean }[];
}

/** A running suspension (a `moderation_actions` row: not reversed, not ended). */
export interface SuspendedMember {
  actionId: string;
  /** The member's id. */
  id: string;
  name: string;
  email: string;
  /** The rule broken, in words. */
  rule: string;
  days: number | null;
  suspendedAt: string;
  endsAt: string | null;
  suspendedBy: string | null;
  /** False for the admin who suspended them, and for one's own suspension: another admin lifts it. */
  liftable: boolean;
}
