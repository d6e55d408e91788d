import { useQuery } from '@tanstack/react-query';
import type { ChallengeStep, VerificationStatus } from '../../../shared/verification';
import { api, postForm } from '../../lib/api';

export const verificationKey = ['verification'] as const;

/** The member's verification status: read by the pages that show its card (Home preloads it, so the card is there from the first paint). */
export const verificationQuery = {
  queryKey: verificationKey,
  queryFn: async () => (await api<{ status: VerificationStatus }>('/api/verification')).status,
};

export function useVerification() {
  return useQuery(verificationQuery);
}

export interface Challenge {
  id: string;
  steps: ChallengeStep[];
  /** How long each step is filmed, and at what rate. */
  stepMs: number;
  fps: number;
  /** When "Blink now" shows, ms into the first step. */
  blinkAtMs: number;
  expiresAt: string;
}

export const startChallenge = async (keepForReview: boolean, appeal = false) =>
  (await api<{ challenge: Challenge }>('/api/verification/challenge', { body: { consent: true, keepForReview, appeal } })).challenge;

/**
 * Refusals a person can look at again (the server decides; this only offers the button), and a
 * match a person must compare, which needs the pictures kept.
 */
export const APPEALABLE = [
  'photo_mismatch',
  'challenge',
  'spoof',
  'not_same_person',
  'no_blink',
  'not_straight',
  'still_picture',
  'match_needs_review',
];

export type CheckResult =
  | { outcome: 'verified' | 'review'; message: string }
  | { outcome: 'failed'; reason: string; message: string; attemptsLeft: number };

/** The whole capture: every frame, and each frame's [step, ms since filming started]. */
export async function submitCheck(challengeId: string, frames: Blob[], capture: [number, number][]): Promise<CheckResult> {
  const form = new FormData();
  form.append('challengeId', challengeId);
  form.append('capture', JSON.stringify(capture));
  for (const [i, f] of frames.entries()) form.append('frame', f, `frame-${i}.jpg`);
  const data = await postForm<{ result: CheckResult }>(
    '/api/verification/check',
    form,
    'Something went wrong on our side. Please try again.',
  );
  return data.result;
}
