/**
 * Verified members (issue 21, docs/decisions/022): the rules and texts both sides share.
 * The server decides; the client only shows the challenge and the verdict.
 */

/** A challenge is valid this long after it is issued, and answers once. */
export const CHALLENGE_TTL_MS = 2 * 60 * 1000;
/** An estimate at or above this confirms the typed date of birth's 18+ (Ofcom's "challenge age"). */
export const CHALLENGE_AGE = 25;
/**
 * Tries a member has per UTC day before "wait until tomorrow" (decision 031). A try is spent when
 * a challenge is issued, not when it is checked, so asking for new challenges until the order
 * suits a recording costs the same as failing; a check that verifies (or goes to a person) gives
 * it back, and so does a picture refused before any judgement (unreadable, too dark).
 */
export const FAILED_ATTEMPTS_PER_DAY = 3;
/** Challenges issued per UTC day whatever became of them (tries given back included). */
export const CHALLENGES_PER_DAY = 6;
/** The largest camera frame accepted (the browser sends ~320 px JPEGs of ~15 KB). */
export const FRAME_MAX_BYTES = 150 * 1024;
/**
 * How long the browser films each step (decision 031): at least 2 s at 5 frames a second or more
 * is required; the browser films a little longer at ~6 frames a second.
 */
export const STEP_MS = 2400;
export const CAPTURE_FPS = 6;
/** The blink prompt shows at a random moment this far into the "look straight" step. */
export const BLINK_PROMPT_MS: [from: number, to: number] = [300, 1200];

export type ChallengeStep = 'straight' | 'left' | 'right';

export const STEP_TEXT: Record<ChallengeStep, string> = {
  straight: 'Look straight at the camera',
  left: 'Turn your head to your left, then back',
  right: 'Turn your head to your right, then back',
};
export const BLINK_TEXT = 'Blink now';

/** Why a check did not verify, each with a way forward. */
export const FAIL_REASONS = {
  unreadable: 'We couldn’t read one of the pictures from your camera — please try again.',
  no_face: 'We couldn’t see your face clearly — try better light and keep your face in the frame.',
  two_faces: 'We saw more than one face — please make sure you are alone in the picture.',
  challenge: 'We couldn’t see you follow the steps — turn your head slowly when asked, as far as is comfortable, and back, then try again.',
  not_straight: 'At the start, look straight at the camera, with the camera at eye level — then try again.',
  no_blink: 'We didn’t see you blink when the screen said “Blink now” — please blink when asked, then try again.',
  still_picture:
    'These pictures didn’t move like a live face — a photo, a print or a screen can’t pass. Please use your own camera, in person, and try again.',
  spoof: 'This looked like a photo or a screen rather than a live camera — please use your own camera, in person.',
  not_same_person: 'The face changed during the check — please make sure only you are in front of the camera.',
  no_main_photo: 'Add a profile photo of yourself first — we compare your selfie with it.',
  main_photo_no_face: 'We couldn’t find a face in your main photo — choose a clear photo of you as your profile photo.',
  photo_mismatch: 'Your selfie doesn’t look like your profile photo — check your main photo is of you.',
} as const;
export type FailReason = keyof typeof FAIL_REASONS;

/**
 * Pictures refused before any judgement, with what to do (decision 031): a clear 4xx that costs
 * no try. `heic` and `not_image` are told from the bytes; the others once a picture is decoded.
 */
export const FRAME_PROBLEMS = {
  not_image: 'Your camera pictures did not arrive as pictures — please try again in your browser.',
  heic: 'These pictures are in the iPhone’s HEIC format, which we can’t read — please take the check in your browser, which sends ordinary JPEG pictures.',
  unreadable: 'One of the pictures from your camera was damaged on the way — please try again. This didn’t use up a try.',
  too_dark: 'More light on your face, please — face a window or a lamp, then try again. This didn’t use up a try.',
  greyscale:
    'Your camera is sending black-and-white pictures (an infrared camera?) — please choose your ordinary colour camera, then try again. This didn’t use up a try.',
} as const;
export type FrameProblem = keyof typeof FRAME_PROBLEMS;

export const VERIFIED_ONLY_MIXER =
  'This mixer is for verified members only. Getting verified takes under a minute: a quick live selfie, checked on our own server.';

export const AGE_REVIEW_TEXT = 'We need one more check to confirm you’re over 18.';
/** A match a person must compare (decision 031), from a check whose pictures were not kept. */
export const MATCH_NEEDS_REVIEW_TEXT =
  'Your selfie looks like your main photo, but not closely enough for us to be sure on our own. Try again with a person to look: they compare your pictures with your main photo, and the pictures are deleted as soon as it is decided.';
export const TOO_MANY_ATTEMPTS = 'You have tried three times today. Please wait until tomorrow and try again.';

/** Why a badge went: a new main photo, or the re-check when the match bar was raised (decision 031). */
export const REVOKED_REASONS = ['main_photo_changed', 'match_rechecked'] as const;
export type RevokedReason = (typeof REVOKED_REASONS)[number];

export type VerificationStatus =
  | { state: 'verified'; verifiedAt: string }
  | { state: 'review'; kind: ReviewKind; since: string }
  | {
      state: 'unverified';
      revoked: boolean;
      revokedReason?: RevokedReason;
      attemptsLeft: number;
    };

/** A random challenge: look straight (and blink when asked), then turn left and right in a random order. */
export function newChallengeSteps(random: () => number = Math.random): ChallengeStep[] {
  return random() < 0.5 ? ['straight', 'left', 'right'] : ['straight', 'right', 'left'];
}

/** When the blink prompt shows, in ms after the "look straight" step starts: a moment no recording can know. */
export const newBlinkAt = (random: () => number = Math.random) =>
  Math.round(BLINK_PROMPT_MS[0] + random() * (BLINK_PROMPT_MS[1] - BLINK_PROMPT_MS[0]));

/**
 * Tries left today, given today's challenges: `spent` are the ones that failed or were never
 * answered (open ones included), `issued` all of them.
 */
export const attemptsLeft = (spent: number, issued = spent) =>
  Math.max(0, Math.min(FAILED_ATTEMPTS_PER_DAY - spent, CHALLENGES_PER_DAY - issued));

/** The age estimate never refuses: below the challenge age it asks for a second check. */
export const ageOutcome = (estimate: number): 'confirmed' | 'second_check' => (estimate >= CHALLENGE_AGE ? 'confirmed' : 'second_check');

/**
 * Why a person looks: an age under the challenge age, the same face as another account, an
 * appeal, or a match with the main photo across an apparent gender difference (decision 031).
 */
export type ReviewKind = 'age' | 'duplicate' | 'appeal' | 'match';

export const MATCH_REVIEW_TEXT =
  'Thanks — a member of our team will compare your selfie with your main photo, usually within a day. We will let you know the outcome.';

/**
 * A badge earned under an earlier check (another method or model than today's, decision 031):
 * the face match stands (same model, same threshold) but its liveness cannot be re-checked from
 * the stored face vector, so the badge stays until the member's next main-photo change, when they
 * take today's check. Listed on the admins' verification page.
 */
export interface EarlierCheck {
  member: { id: string; name: string; email: string };
  method: string;
  modelVersion: string;
  verifiedAt: string | null;
}

/** An open review in the admins' queue (GET /api/admin/verification/reviews). */
export interface VerificationReview {
  id: string;
  kind: ReviewKind;
  status: string;
  createdAt: string;
  member: { id: string; name: string; email: string };
  other: { id: string; name: string } | null;
  scores: Record<string, number>;
  /** Appeals: the reason the check gave. */
  note: string | null;
  /** Signed links to the frames kept for the review. */
  frames: string[];
}
