/**
 * The mixer's host (issue 29, docs/decisions/034): system lines that keep a room talking, one
 * light game halfway through, a wrap-up, and a private nudge for a member who has not written.
 * Its numbers and texts, without zod (issue 33): `schemas/host.ts` has the schemas and re-exports
 * these.
 */

/** Of an hour-long mixer: a new prompt every 15 minutes, so a quarter of any mixer's length. */
export const HOST_PROMPT_SHARE = 15 / 60;
/** The room counts as quiet after this long without a line; quiet-room prompts are at least this far apart. */
export const HOST_QUIET_MS = 5 * 60_000;
/** The wrap-up line comes this long before the end (at most a sixth of a short mixer). */
export const HOST_WRAPUP_BEFORE_END_MS = 10 * 60_000;
/** A member who has not written this long after arriving gets one private nudge. */
export const HOST_NUDGE_AFTER_MS = 10 * 60_000;

export const HOST_PROMPT_MAX = 300;
export const HOST_PROMPTS_MAX = 20;
export const HOST_POLL_OPTIONS_MAX = 4;

export const HOST_TEXTS = {
  wrapUp: 'Wrap-up — who did you click with? You can fancy people when it ends.',
  pollPrefix: 'Halfway game — quick poll: ',
  clickWith: 'Who did you click with?',
  nudgeTitle: 'Not sure what to say?',
} as const;

export const HOST_MESSAGES = {
  pollNotFound: "We couldn't find that poll.",
  alreadyVoted: "You've already voted in this poll.",
  pollClosed: 'Voting has closed: the mixer has ended.',
  optionUnknown: 'Choose one of the answers.',
  nudgeNotFound: 'There is no suggestion to send any more.',
  topicNotFound: "We couldn't find that topic.",
  mixerNotFound: "We couldn't find that mixer.",
  promptRequired: 'Write at least one prompt',
  promptTooLong: `Keep each prompt under ${HOST_PROMPT_MAX} characters`,
  tooManyPrompts: `Keep it to ${HOST_PROMPTS_MAX} prompts or fewer`,
  enabledRequired: 'Say whether the host is on',
} as const;

export interface HostPoll {
  id: string;
  /** The chat line that carries it. */
  messageId: string;
  question: string;
  options: { label: string; votes: number }[];
  total: number;
  /** The index this member chose, or null. */
  myVote: number | null;
  /** Open while the mixer is live. */
  open: boolean;
}

/** A private suggestion for one member: what the host asked and a reply to send with one tap. */
export interface HostNudge {
  prompt: string;
  reply: string;
}

/** GET /api/mixers/:id/host — the host's side of a room, for one participant. */
export interface HostView {
  enabled: boolean;
  polls: HostPoll[];
  nudge: HostNudge | null;
}

/** Admin: one topic's prompts (an admin's own list, or Fancy's defaults). */
export interface HostTopicPrompts {
  topic: string;
  prompts: string[];
  custom: boolean;
}

/** GET /api/admin/host */
export interface HostAdminOverview {
  topics: HostTopicPrompts[];
  /** Mixers whose host an admin switched off. */
  disabledMixers: string[];
}
