/**
 * The timing of "mixer starting soon" reminders, shared by the mail reminders (settings) and the
 * push reminders (push), and the audit action the mail ones are recorded with (the admin log
 * leaves those out).
 */

/** Reminders go out this long before the start (Settings → Notifications). */
export const REMINDER_LEAD_MS = 15 * 60_000;
/** How often each instance looks for mixers about to start. */
export const REMINDER_INTERVAL_MS = 60_000;
/** The `audit_log` action that records one reminder mail, target `${mixerId}:${userId}`. */
export const REMINDER_ACTION = 'mixer_reminder';
