import { z } from 'zod';
import type { FormationSettings, InvitationStatus } from '../formation';
import { PREDEFINED_INTERESTS } from '../reference/catalog';
import type { AuditEntry } from './admin';
import { MIXER_INTENTS, type MixerIntent, type MixerStatus, MIXER_THEMES, type MixerTheme } from './mixers';
import { memberTextChecks } from './text';
import './zod-defaults';

/**
 * The admin formation page (issue 14, docs/decisions/013): demand, formed mixers, the job's
 * settings and topic templates. One schema validates the form and the server.
 */

export const FORMATION_BOUNDS = {
  groupSize: { min: 4, max: 10 },
  minSeats: { min: 4 },
  holdHours: { min: 1, max: 72 },
  maxInvitesPerWeek: { min: 1, max: 14 },
  leadHours: { min: 1, max: 168 },
  horizonDays: { min: 1, max: 28 },
} as const;

export const FORMATION_ADMIN_MESSAGES = {
  groupSize: `Group size must be a whole number from ${FORMATION_BOUNDS.groupSize.min} to ${FORMATION_BOUNDS.groupSize.max}`,
  minSeats: `Seats filled to form must be a whole number from ${FORMATION_BOUNDS.minSeats.min} up to the group size`,
  holdHours: `Seats can be held for ${FORMATION_BOUNDS.holdHours.min} to ${FORMATION_BOUNDS.holdHours.max} hours`,
  maxInvitesPerWeek: `Invitations per member per week must be from ${FORMATION_BOUNDS.maxInvitesPerWeek.min} to ${FORMATION_BOUNDS.maxInvitesPerWeek.max}`,
  leadHours: `Notice before the start must be ${FORMATION_BOUNDS.leadHours.min} to ${FORMATION_BOUNDS.leadHours.max} hours`,
  horizonDays: `Plan ahead ${FORMATION_BOUNDS.horizonDays.min} to ${FORMATION_BOUNDS.horizonDays.max} days`,
  horizonBeforeLead: 'Plan ahead far enough to leave at least a day after the notice before the start',
  titleRequired: 'Give the template a title (at least 3 characters)',
  titleTooLong: 'Keep the title under 80 characters',
  descriptionTooLong: 'Keep the description under 600 characters',
  icebreakerRequired: 'Write an icebreaker to open the chat',
  icebreakerTooLong: 'Keep the icebreaker under 300 characters',
  theme: 'Please choose a theme',
  topicUnknown: 'Choose one of the predefined interests',
  topicTaken: 'That topic already has a template: edit it instead',
  templateNotFound: "We couldn't find that template.",
} as const;

const whole = (message: string, min: number, max: number) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

export const formationSettingsSchema = z
  .object({
    paused: z.boolean({ error: 'Say whether formation is paused' }),
    groupSize: whole(FORMATION_ADMIN_MESSAGES.groupSize, FORMATION_BOUNDS.groupSize.min, FORMATION_BOUNDS.groupSize.max),
    minSeats: whole(FORMATION_ADMIN_MESSAGES.minSeats, FORMATION_BOUNDS.minSeats.min, FORMATION_BOUNDS.groupSize.max),
    holdHours: whole(FORMATION_ADMIN_MESSAGES.holdHours, FORMATION_BOUNDS.holdHours.min, FORMATION_BOUNDS.holdHours.max),
    maxInvitesPerWeek: whole(
      FORMATION_ADMIN_MESSAGES.maxInvitesPerWeek,
      FORMATION_BOUNDS.maxInvitesPerWeek.min,
      FORMATION_BOUNDS.maxInvitesPerWeek.max,
    ),
    leadHours: whole(FORMATION_ADMIN_MESSAGES.leadHours, FORMATION_BOUNDS.leadHours.min, FORMATION_BOUNDS.leadHours.max),
    horizonDays: whole(FORMATION_ADMIN_MESSAGES.horizonDays, FORMATION_BOUNDS.horizonDays.min, FORMATION_BOUNDS.horizonDays.max),
  })
  .superRefine((v, ctx) => {
    if (v.minSeats > v.groupSize) ctx.addIssue({ code: 'custom', path: ['minSeats'], message: FORMATION_ADMIN_MESSAGES.minSeats });
    if (v.horizonDays * 24 < v.leadHours + 24) {
      ctx.addIssue({ code: 'custom', path: ['horizonDays'], message: FORMATION_ADMIN_MESSAGES.horizonBeforeLead });
    }
  });

const PREDEFINED = new Set(PREDEFINED_INTERESTS.map((i) => i.name));

export const topicTemplateSchema = z.object({
  title: z
    .string({ error: FORMATION_ADMIN_MESSAGES.titleRequired })
    .check(...memberTextChecks())
    .trim()
    .min(3, FORMATION_ADMIN_MESSAGES.titleRequired)
    .max(80, FORMATION_ADMIN_MESSAGES.titleTooLong),
  description: z
    .string()
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(600, FORMATION_ADMIN_MESSAGES.descriptionTooLong)
    .default(''),
  theme: z.enum(MIXER_THEMES, { error: FORMATION_ADMIN_MESSAGES.theme }),
  icebreaker: z
    .string({ error: FORMATION_ADMIN_MESSAGES.icebreakerRequired })
    .check(...memberTextChecks('multiline'))
    .trim()
    .min(1, FORMATION_ADMIN_MESSAGES.icebreakerRequired)
    .max(300, FORMATION_ADMIN_MESSAGES.icebreakerTooLong),
  active: z.boolean().default(true),
});

/** A new template for a predefined interest that has none. */
export const newTopicTemplateSchema = topicTemplateSchema.extend({
  topic: z
    .string({ error: FORMATION_ADMIN_MESSAGES.topicUnknown })
    .trim()
    .refine((t) => PREDEFINED.has(t), FORMATION_ADMIN_MESSAGES.topicUnknown),
});

export const demandQuerySchema = z.object({
  region: z.string().trim().max(80).optional(),
  intent: z.enum(MIXER_INTENTS, { error: 'Choose Dating, Friends or Casual' }).optional(),
});

export interface TopicTemplate {
  id: string;
  topic: string;
  title: string;
  description: string;
  theme: MixerTheme;
  icebreaker: string;
  active: boolean;
  updatedAt: string;
}

/** Members with availability, per topic × region × intent: asks and interests counted separately. */
export interface DemandRow {
  topic: string;
  /** A region of the built-in city list, or null for members without a listed city (online only). */
  region: string | null;
  intent: MixerIntent;
  /** Members who said "I'd join one about …" this topic. */
  asks: number;
  /** Members with this topic among their interests. */
  interests: number;
}

export interface FormationDemand {
  /** Members who said when they are free (and completed their profile). */
  membersWithAvailability: number;
  rows: DemandRow[];
  /** True when there were more rows than the page shows (the busiest are kept). */
  truncated: boolean;
}

export interface FormedMixer {
  id: string;
  title: string;
  topic: string;
  startsAt: string;
  status: MixerStatus;
  capacity: number;
  joined: number;
  invitations: Record<InvitationStatus, number>;
  /** Seats filled ÷ capacity, 0–1. */
  fillRate: number;
}

export interface FormationOverview {
  settings: FormationSettings & { updatedAt: string; updatedBy: string | null };
  templates: TopicTemplate[];
  /** Predefined interests without a template (an admin may add one). */
  topicsWithoutTemplate: string[];
  mixers: FormedMixer[];
  totals: { mixers: number; capacity: number; joined: number; invitations: Record<InvitationStatus, number>; fillRate: number };
  /** The most recent `formation.*` and `invitation.*` audit rows. */
  recent: AuditEntry[];
}
