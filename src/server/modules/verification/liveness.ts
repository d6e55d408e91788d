/**
 * Liveness from a continuous capture (issue 31, decision 031): small pure rules over what the
 * models read from each frame (head angles, eye openness, a tiny thumbnail of the picture), so
 * each can be tested on its own with made-up sequences as well as on real pictures.
 *
 * What a live head does and a picture cannot: it holds still but never perfectly still; it turns
 * smoothly to an angle and back; it blinks when asked, at a moment it could not know in advance.
 */

/** One frame as captured: which step of the challenge it belongs to, and when (ms since the capture started). */
export interface CaptureFrame {
  step: number;
  t: number;
}

/** Each step is filmed at least this long, at this rate or more. */
export const MIN_STEP_MS = 2000;
export const MIN_FPS = 5;
/** At most this many frames a check (three steps of ~2.4 s at up to 10 frames a second). */
export const MAX_FRAMES = 90;
/** The longest gap between two frames of a step: a pause longer than this hides what happened. */
export const MAX_GAP_MS = 500;

/**
 * Whether the capture is what the browser sends: every step in order, each filmed for at least
 * MIN_STEP_MS at MIN_FPS or more with no long gap, timestamps increasing, and the whole capture
 * no longer than the time since the challenge was issued (it cannot have been filmed before).
 */
export function captureOk(capture: CaptureFrame[], steps: number, sinceIssuedMs: number): boolean {
  if (capture.length < steps * 2 || capture.length > MAX_FRAMES) return false;
  for (let i = 1; i < capture.length; i++) {
    if (!(capture[i].t > capture[i - 1].t) || capture[i].step < capture[i - 1].step) return false;
  }
  if (capture.at(-1)!.t - capture[0].t > sinceIssuedMs + 1000) return false;
  for (let s = 0; s < steps; s++) {
    const ts = capture.filter((c) => c.step === s).map((c) => c.t);
    if (ts.length < 2) return false;
    const span = ts.at(-1)! - ts[0];
    if (span < MIN_STEP_MS || ((ts.length - 1) * 1000) / span < MIN_FPS - 0.01) return false;
    for (let i = 1; i < ts.length; i++) if (ts[i] - ts[i - 1] > MAX_GAP_MS) return false;
  }
  return capture.every((c) => c.step >= 0 && c.step < steps);
}

// ——— identical, near-identical and mirror-image frames ———

/** The thumbnail the model process makes of each frame: greyscale, THUMB_W × THUMB_H, row by row. */
export const THUMB_W = 32;
export const THUMB_H = 24;
/** Mean difference (0–255) under which two consecutive thumbnails are "the same picture". */
export const NEAR_IDENTICAL = 0.35;
/** A capture in which more than this share of consecutive frames are the same picture is a still. */
export const MAX_STILL_SHARE = 0.5;
/** Under this mean difference a frame is the mirror image of a frame of another step. */
export const MIRROR_IDENTICAL = 2;

export function thumbDiff(a: ArrayLike<number>, b: ArrayLike<number>, mirrorB = false): number {
  let sum = 0;
  for (let y = 0; y < THUMB_H; y++) {
    for (let x = 0; x < THUMB_W; x++) {
      const bx = mirrorB ? THUMB_W - 1 - x : x;
      sum += Math.abs(a[y * THUMB_W + x] - b[y * THUMB_W + bx]);
    }
  }
  return sum / (THUMB_W * THUMB_H);
}

/**
 * A picture held to the camera, replayed or repeated: the same bytes twice, frames that are the
 * same picture as the one before too often ('still'), or a frame that is the mirror image of a
 * frame of another step ('mirror'). A live camera always differs a little from frame to frame
 * (noise, breathing, light), and a real turn to the right is not the left turn flipped (the room
 * behind is not symmetric). `hashes` are digests of each frame's bytes; `turned` says which frames
show a turned head (only those are compared with mirror images: a face looking straight at a
plain wall is nearly its own mirror image).
 */
export function repeatedFrames(
  thumbs: ArrayLike<number>[],
  capture: CaptureFrame[],
  hashes: string[],
  turned: boolean[],
): 'still' | 'mirror' | null {
  if (new Set(hashes).size < hashes.length) return 'still';
  let same = 0;
  for (let i = 1; i < thumbs.length; i++) if (thumbDiff(thumbs[i], thumbs[i - 1]) < NEAR_IDENTICAL) same++;
  if (thumbs.length > 1 && same / (thumbs.length - 1) > MAX_STILL_SHARE) return 'still';
  for (let i = 0; i < thumbs.length; i++) {
    for (let j = i + 1; j < thumbs.length; j++) {
      if (!turned[i] || !turned[j] || capture[i].step === capture[j].step) continue;
      if (thumbDiff(thumbs[i], thumbs[j], true) < MIRROR_IDENTICAL) return 'mirror';
    }
  }
  return null;
}

// ——— head angles ———

/** "Straight" means both angles (radians, median over the step) within these of zero. */
export const MAX_STRAIGHT_YAW = 0.15;
export const MAX_STRAIGHT_PITCH = 0.25;
/** A turn reaches at least this yaw (radians) away from the straight step's, in the asked direction. */
export const MIN_TURN = 0.18;
/** …and no frame-to-frame change larger than this share of the turn's peak (a jump between two poses). */
export const MAX_JUMP_SHARE = 0.7;

export const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function isStraight(yaws: number[], pitches: number[]): boolean {
  return Math.abs(median(yaws)) <= MAX_STRAIGHT_YAW && Math.abs(median(pitches)) <= MAX_STRAIGHT_PITCH;
}

export type TurnProblem = 'wrong_way' | 'not_far' | 'not_back' | 'jump';

/**
 * One turn: from (near) the straight pose, smoothly to at least MIN_TURN in the asked direction
 * (`sign` +1 for the member's left, which is a positive yaw in an unmirrored frame), and back
 * towards straight before the step ends. "Smoothly": no frame-to-frame change above
 * MAX_JUMP_SHARE of the peak, and frames in between on the way out and on the way back (after a
 * running median of three, so one misread frame does not count).
 */
export function turnProblem(yaws: number[], baseline: number, sign: 1 | -1): TurnProblem | null {
  if (yaws.length < 4) return 'not_far';
  // A median of three first: one misread frame is not a jump (a run of frames at one pose still is).
  const d = yaws.map((_, i) => median(yaws.slice(Math.max(0, i - 1), i + 2)) - baseline).map((y) => y * sign);
  const peakAt = d.indexOf(Math.max(...d));
  const peak = d[peakAt];
  if (peak < MIN_TURN) return Math.min(...d) <= -MIN_TURN ? 'wrong_way' : 'not_far';
  const low = MIN_TURN / 2;
  if (Math.min(...d.slice(0, 3)) > low) return 'not_back'; // it never started from straight
  if (Math.min(...d.slice(-3)) > peak / 2) return 'not_back';
  for (let i = 1; i < d.length; i++) if (Math.abs(d[i] - d[i - 1]) > MAX_JUMP_SHARE * peak) return 'jump';
  const between = (x: number) => x > 0.2 * peak && x < 0.8 * peak;
  if (!d.slice(0, peakAt).some(between) || !d.slice(peakAt + 1).some(between)) return 'jump';
  return null;
}

// ——— the blink ———

/** Eyes at most this share of their usual openness count as closed… */
export const BLINK_CLOSED = 0.8;
/** …and open again at this share. */
export const BLINK_OPEN = 0.9;
/** The eyes must close within this long after the prompt (reaction time included)… */
export const BLINK_WINDOW_MS = 1000;
/** …and not sooner than this: a blink before anyone could react to the prompt was not asked for. */
export const MIN_REACTION_MS = 100;

/**
 * A blink on request: within BLINK_WINDOW_MS of the prompt (shown at `promptAt`, a moment the
 * server chose at random) the eyes close (openness ≤ BLINK_CLOSED of the step's usual) and open
 * again (≥ BLINK_OPEN) before the step ends. `eyes` are [ms, openness] for the step's frames.
 */
export function blinkedOnRequest(eyes: [t: number, openness: number][], promptAt: number): boolean {
  const usual = median(eyes.filter(([t]) => t < promptAt || t > promptAt + BLINK_WINDOW_MS).map(([, e]) => e));
  if (!(usual > 0)) return false;
  const closedAt = eyes.findIndex(
    ([t, e]) => t >= promptAt + MIN_REACTION_MS && t <= promptAt + BLINK_WINDOW_MS && e <= BLINK_CLOSED * usual,
  );
  if (closedAt < 0) return false;
  return eyes.slice(closedAt + 1).some(([, e]) => e >= BLINK_OPEN * usual);
}

/** The element-wise median of face descriptions: one odd frame cannot pull the match either way. */
export function medianVector(vectors: number[][]): number[] {
  const n = vectors[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => median(vectors.map((v) => v[i])));
}
