/** Typing and mentions' numbers (issue 29), without zod: the client reads them on every member page (issue 33). */

/** A line names at most this many members. */
export const MAX_MENTIONS = 8;
/** The client sends at most one `typing` per room this often while keys are pressed. */
export const TYPING_THROTTLE_MS = 3000;
/** A typist shows for this long after their last `typing` event (a little over the throttle). */
export const TYPING_VISIBLE_MS = 5000;
