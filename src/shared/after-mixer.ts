import type { MixerTheme } from './schemas/mixers';

/**
 * The "Who did you click with?" prompt (issue 14): after a mixer ends, each member who was
 * still in it gets a page listing the others with Fancy toggles, open for
 * AFTER_MIXER_PROMPT_MS (src/shared/formation.ts).
 */

export const AFTER_MIXER_MESSAGES = {
  notEnded: 'This mixer has not ended yet. Come back when it has.',
  noticeTitle: 'Who did you click with?',
} as const;

export interface AfterMixerPerson {
  id: string;
  firstName: string;
  avatarUrl: string | null;
  /** Whether I fancy them (my own fancies only: a fancy is private). */
  fancied: boolean;
  /** Our match when it is mutual (and still on), to offer "Say hello". */
  matchId: string | null;
}

/** GET /api/mixers/:id/after */
export interface AfterMixerView {
  mixer: { id: string; title: string; topic: string; theme: MixerTheme; endedAt: string };
  /** False once the 48 hours have passed: `people` is then empty. */
  open: boolean;
  closesAt: string;
  people: AfterMixerPerson[];
}

/** One open prompt on Home (GET /api/me/after-mixer). */
export interface OpenPrompt {
  mixerId: string;
  title: string;
  topic: string;
  theme: MixerTheme;
  endedAt: string;
  closesAt: string;
  /** How many others I can fancy there. */
  others: number;
}

export const afterMixerPath = (mixerId: string) => `/mixers/${mixerId}/after`;
