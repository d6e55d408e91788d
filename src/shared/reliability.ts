/**
 * Reliability, private to each member (issue 14, docs/decisions/011). Recorded per mixer in
 * `mixer_attendance`; shown only to the member themselves, kindly; used only to give reliable
 * members priority on waitlists and invitations. No public score, no ban, no shaming text.
 */

export const ATTENDANCE_OUTCOMES = ['attended', 'no_show', 'left_late'] as const;
export type AttendanceOutcome = (typeof ATTENDANCE_OUTCOMES)[number];

/** A leave this close to the start counts as `left_late`. */
export const LATE_LEAVE_MS = 60 * 60 * 1000;
/**
 * Attended (issue 32, decision 014): at least one line in the chat, and present for a fair part
 * of the mixer — there from within its first quarter and still in it at the end, or in it for at
 * least half of it. Joining a live mixer near its end and writing one line is not attending.
 */
export const ATTENDED_ARRIVED_WITHIN = 0.25;
export const ATTENDED_PRESENT_FOR = 0.5;

/** The note and the priority look at this many most recent records. */
export const RELIABILITY_WINDOW = 10;
/** Below this many records a member is treated as neither reliable nor not: newcomers are never held back. */
export const RELIABILITY_MIN_RECORDS = 3;

/**
 * Priority tier from the most recent records (newest first, at most RELIABILITY_WINDOW):
 * 2 = reliable (came to at least 80 %), 1 = new or mixed, 0 = mostly missed. Higher goes first;
 * ties keep their usual order (who waited longest, who fits best).
 */
export function reliabilityTier(outcomes: readonly AttendanceOutcome[]): 0 | 1 | 2 {
  const recent = outcomes.slice(0, RELIABILITY_WINDOW);
  if (recent.length < RELIABILITY_MIN_RECORDS) return 1;
  const came = recent.filter((o) => o === 'attended').length / recent.length;
  if (came >= 0.8) return 2;
  if (came < 0.5) return 0;
  return 1;
}

export interface ReliabilityView {
  /** Mixers counted (the most recent, at most RELIABILITY_WINDOW). */
  of: number;
  attended: number;
  /** The kind sentence shown to the member, or null when there is nothing to say yet. */
  note: string | null;
}

/** "You came to 5 of your last 6 mixers" — never a score, never a rebuke. */
export function reliabilityView(outcomes: readonly AttendanceOutcome[]): ReliabilityView {
  const recent = outcomes.slice(0, RELIABILITY_WINDOW);
  const attended = recent.filter((o) => o === 'attended').length;
  if (!recent.length) return { of: 0, attended: 0, note: null };
  const mixers = recent.length === 1 ? 'mixer' : 'mixers';
  const note =
    recent.length === 1
      ? attended
        ? 'You came to your first mixer — lovely to have you.'
        : "Your first mixer didn't work out — no worries, there's always the next one."
      : `You came to ${attended} of your last ${recent.length} ${mixers}.`;
  return { of: recent.length, attended, note };
}
