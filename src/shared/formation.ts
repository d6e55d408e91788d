/**
 * The formation job's settings (issue 14, docs/decisions/011): one row in `formation_settings`,
 * these defaults in the migration. Admins change them on the formation page.
 */
export interface FormationSettings {
  paused: boolean;
  groupSize: number;
  minSeats: number;
  holdHours: number;
  maxInvitesPerWeek: number;
  leadHours: number;
  horizonDays: number;
}

export const DEFAULT_FORMATION_SETTINGS: FormationSettings = {
  paused: false,
  groupSize: 8,
  minSeats: 6,
  holdHours: 12,
  maxInvitesPerWeek: 3,
  leadHours: 24,
  horizonDays: 7,
};

/** An invitation never holds its seat later than this before the mixer starts. */
export const INVITATION_CUTOFF_MS = 60 * 60 * 1000;
/** The "Who did you click with?" prompt stays open this long after a mixer ends. */
export const AFTER_MIXER_PROMPT_MS = 48 * 60 * 60 * 1000;

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
