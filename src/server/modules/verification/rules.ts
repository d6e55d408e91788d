import { ageOutcome, type ChallengeStep, type FailReason, type FrameProblem } from '../../../shared/verification';
import { type FaceFound, faceSimilarity, type ImageAnalysis } from './engine';
import {
  BLINK_WINDOW_MS,
  blinkedOnRequest,
  type CaptureFrame,
  captureOk,
  isStraight,
  MIN_TURN,
  median,
  medianVector,
  repeatedFrames,
  turnProblem,
} from './liveness';

/**
 * Under this the selfie does not match the main photo: the check fails (the member may appeal).
 * On the labelled faces we ship, ~19 in 20 of the same person's pairs reach it (decision 031).
 */
export const MATCH_SIMILARITY = 0.5;
/**
 * From this up a match verifies on its own; between MATCH_SIMILARITY and this a person compares.
 * Chosen on the faces we ship (decision 031; tests/fixtures/faces.ts `gridPair`): no
 * different-person pair reaches it (the closest scored 0.60), and fewer of the pairs whose people
 * are not known (mostly two different women) reach it than reached the bar it replaces (Human's own
 * similarity at 0.78). `npm run bench` measures it again (table "Face match").
 */
export const AUTO_VERIFY_SIMILARITY = 0.74;
/**
 * Two accounts with faces this close are flagged to admins, who look at each: above every
 * different-person pair of the labelled faces (0.60), with 0.03 to spare.
 */
export const DUPLICATE_SIMILARITY = 0.63;
/**
 * A match between faces the model reads as different genders (each at least MIN_GENDER_SCORE
 * sure) goes to a person instead of verifying, whatever its score (decision 031): no score rules
 * out two people.
 */
export const MIN_GENDER_SCORE = 0.7;

/** The apparent gender of faces, when the model is sure enough of it; else null. */
export function apparentGender(faces: FaceFound[]): string | null {
  const sure = faces.filter((f) => f.gender && f.gender !== 'unknown' && (f.genderScore ?? 0) >= MIN_GENDER_SCORE);
  if (!sure.length) return null;
  const counts = new Map<string, number>();
  for (const f of sure) counts.set(f.gender as string, (counts.get(f.gender as string) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** A face narrower than this share of the frame is not "clear". */
export const MIN_FACE_SIZE = 0.08;
/** Mean anti-spoof and liveness scores under these fail as a print or a screen. */
export const MIN_REAL = 0.3;
export const MIN_LIVE = 0.5;

/** A frame darker than this on average (0–255) asks for more light. */
export const MIN_LIGHT = 40;
/** A frame less colourful than this on average (0–255) is black and white (an infrared camera). */
export const MIN_COLOUR = 3;

/**
 * What the bytes of a frame say before anything decodes them: HEIC (an iPhone photo sent as is),
 * not a picture at all, or a JPEG/PNG cut short (no end marker). `mime` is from the magic bytes.
 */
export function frameFormatProblem(bytes: Uint8Array, mime: string | undefined): FrameProblem | null {
  if (mime === 'image/heic' || mime === 'image/heif' || mime === 'image/avif') return 'heic';
  if (!mime || !['image/jpeg', 'image/png', 'image/webp'].includes(mime)) return 'not_image';
  const n = bytes.length;
  if (mime === 'image/jpeg') {
    // The end-of-image marker, allowing for a few bytes of padding after it.
    const tail = bytes.subarray(Math.max(0, n - 16));
    const end = tail.findLastIndex((b, i) => b === 0xd9 && tail[i - 1] === 0xff);
    if (end < 0) return 'unreadable';
  }
  if (mime === 'image/png' && Buffer.from(bytes.subarray(Math.max(0, n - 12))).indexOf('IEND') < 0) return 'unreadable';
  if (mime === 'image/webp' && n >= 8 && Buffer.from(bytes).readUInt32LE(4) + 8 > n) return 'unreadable';
  return null;
}

/** What the decoded frames say before any judgement: each one refused with a way forward, no try spent. */
export function frameProblem(frames: ImageAnalysis[]): FrameProblem | null {
  if (frames.some((f) => f.unreadable)) return 'unreadable';
  if (frames.some((f) => (f.light ?? 255) < MIN_LIGHT)) return 'too_dark';
  if (frames.some((f) => (f.colour ?? 255) < MIN_COLOUR)) return 'greyscale';
  return null;
}

export interface Scores {
  frames: number;
  /** The smaller turn's peak yaw away from straight (radians). */
  turn: number;
  /** The straight step's median yaw, when it was not straight. */
  yaw?: number;
  real: number;
  live: number;
  photoMatch: number;
  age: number;
}

/** Why a match goes to a person: the faces read as different genders, or the score is in the band under AUTO_VERIFY_SIMILARITY. */
export type MatchReview = 'gender_differs' | 'close_match';

export type Verdict =
  | { result: 'verified'; scores: Scores; vector: number[] }
  | { result: 'match_review'; why: MatchReview; scores: Scores; vector: number[] }
  | { result: 'age_review'; scores: Scores; vector: number[] }
  | { result: 'failed'; reason: FailReason; scores: Partial<Scores> };

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;

/** The average face description of the frames (what an appeal keeps, encrypted, for re-checks). */
export function meanVector(faces: FaceFound[]): number[] {
  const n = faces[0]?.embedding.length ?? 0;
  const out = new Array<number>(n).fill(0);
  for (const f of faces) for (let i = 0; i < n; i++) out[i] += f.embedding[i] / faces.length;
  return out;
}

/** A challenge as the server issued it. */
export interface IssuedChallenge {
  steps: ChallengeStep[];
  /** The blink prompt, ms into the first ("look straight") step. */
  blinkAtMs: number;
}

/** A frame whose face box centre moves more than this (image widths) from the frame before is another picture. */
export const MAX_FACE_SHIFT = 0.25;
/** Frames without a face allowed in a capture (a blink or a far turn can lose the face for a frame). */
export const MAX_FACELESS_SHARE = 0.1;
/** Straight-on frames the full models run on (the face match is their median). */
const STRAIGHT_FULL = 3;

/**
 * Which frames of a capture the description and spoof models run on (the others only get the
 * face's position, angles and eyes): three straight-on frames with the eyes open — spread over
 * the frames before the blink prompt, or, when the prompt came too early to leave three, over
 * those and the frames after the blink's window — and the last frame of each turn (back towards
 * straight). Indexes into `capture`.
 */
export function fullFrames(capture: CaptureFrame[], challenge: IssuedChallenge): number[] {
  const first = capture.map((c, i) => ({ ...c, i })).filter((c) => c.step === 0);
  const t0 = first[0]?.t ?? 0;
  const before = first.filter((c) => c.t - t0 < challenge.blinkAtMs);
  const open = first.filter((c) => c.t - t0 < challenge.blinkAtMs || c.t - t0 > challenge.blinkAtMs + BLINK_WINDOW_MS);
  const pool = before.length >= STRAIGHT_FULL ? before : open.length >= STRAIGHT_FULL ? open : first;
  const picks = new Set<number>();
  for (let k = 0; k < STRAIGHT_FULL && pool.length; k++) picks.add(pool[Math.floor(((k + 0.5) * pool.length) / STRAIGHT_FULL)].i);
  for (let s = 1; s < challenge.steps.length; s++) {
    const last = capture.findLastIndex((c) => c.step === s);
    if (last >= 0) picks.add(last);
  }
  return [...picks].sort((a, b) => a - b);
}

/**
 * From the models' numbers for a continuous capture to a verdict, in the order a member can act
 * on (decision 031). `full` are the frames the description models ran on (fullFrames), `hashes`
 * digests of each frame's bytes, `sinceIssuedMs` the time between the challenge and the check.
 */
export function judge(
  challenge: IssuedChallenge,
  frames: ImageAnalysis[],
  capture: CaptureFrame[],
  full: number[],
  hashes: string[],
  sinceIssuedMs: number,
  mainPhoto: ImageAnalysis | null,
): Verdict {
  const n = { frames: frames.length };
  if (frames.length !== capture.length || !captureOk(capture, challenge.steps.length, sinceIssuedMs)) {
    return { result: 'failed', reason: 'challenge', scores: n };
  }
  if (frames.some((f) => f.faces.length > 1)) return { result: 'failed', reason: 'two_faces', scores: n };
  const faces = frames.map((f) => (f.faces.length === 1 && f.faces[0].size >= MIN_FACE_SIZE ? f.faces[0] : null));
  const fullFaces = full.map((i) => faces[i]);
  if (faces.filter((f) => !f).length > MAX_FACELESS_SHARE * faces.length || fullFaces.some((f) => !f)) {
    return { result: 'failed', reason: 'no_face', scores: n };
  }
  const at = (step: number) =>
    faces.map((f, i) => ({ f, c: capture[i] })).filter((x) => x.c.step === step && x.f) as { f: FaceFound; c: CaptureFrame }[];
  const straight = at(0);
  const baseline = median(straight.map((x) => x.f.yaw));
  const turned = faces.map((f) => !!f && Math.abs(f.yaw - baseline) >= MIN_TURN / 2);
  if (
    repeatedFrames(
      frames.map((f) => f.thumb ?? []),
      capture,
      hashes,
      turned,
    )
  )
    return { result: 'failed', reason: 'still_picture', scores: n };
  // A face that jumps across the picture from one frame to the next is another picture.
  let prev: FaceFound | null = null;
  for (const f of faces) {
    if (f && prev && Math.hypot((f.cx ?? 0) - (prev.cx ?? 0), (f.cy ?? 0) - (prev.cy ?? 0)) > MAX_FACE_SHIFT) {
      return { result: 'failed', reason: 'still_picture', scores: n };
    }
    if (f) prev = f;
  }
  if (
    !isStraight(
      straight.map((x) => x.f.yaw),
      straight.map((x) => x.f.pitch),
    )
  ) {
    return { result: 'failed', reason: 'not_straight', scores: { ...n, yaw: round(baseline) } };
  }
  let turn = Number.POSITIVE_INFINITY;
  for (let s = 1; s < challenge.steps.length; s++) {
    const sign = challenge.steps[s] === 'left' ? 1 : -1;
    const yaws = at(s).map((x) => x.f.yaw);
    turn = Math.min(turn, Math.max(...yaws.map((y) => (y - baseline) * sign)));
    if (turnProblem(yaws, baseline, sign)) return { result: 'failed', reason: 'challenge', scores: { ...n, turn: round(turn) } };
  }
  const t0 = straight[0]?.c.t ?? 0;
  if (
    !blinkedOnRequest(
      straight.map((x) => [x.c.t - t0, x.f.eye ?? 0]),
      challenge.blinkAtMs,
    )
  ) {
    return { result: 'failed', reason: 'no_blink', scores: { ...n, turn: round(turn) } };
  }
  const described = fullFaces as FaceFound[];
  const straightDescribed = full.filter((i) => capture[i].step === 0).map((i) => faces[i] as FaceFound);
  const vector = medianVector(straightDescribed.map((f) => f.embedding));
  const sameSession = Math.min(...described.map((f) => faceSimilarity(vector, f.embedding)));
  // Frames of one check must all be one person: as close as a match that verifies on its own,
  // since different people reach 0.60 on the labelled faces (decision 031). Seconds apart, in one
  // light, before one camera, the same face reads far closer (the renders: 1.00).
  if (sameSession < AUTO_VERIFY_SIMILARITY) return { result: 'failed', reason: 'not_same_person', scores: n };
  const real = round(mean(described.map((f) => f.real)));
  const live = round(mean(described.map((f) => f.live)));
  const base = { ...n, turn: round(turn), real, live };
  if (real < MIN_REAL || live < MIN_LIVE) return { result: 'failed', reason: 'spoof', scores: base };
  if (!mainPhoto) return { result: 'failed', reason: 'no_main_photo', scores: base };
  const photoFace = mainPhoto.faces[0];
  if (mainPhoto.unreadable || !photoFace) return { result: 'failed', reason: 'main_photo_no_face', scores: base };
  // The median of the straight-on frames, not the best of all frames (decision 031).
  const photoMatch = faceSimilarity(vector, photoFace.embedding);
  if (photoMatch < MATCH_SIMILARITY) return { result: 'failed', reason: 'photo_mismatch', scores: { ...base, photoMatch } };
  // The straight-on frames estimate age best; the lowest estimate counts (the cautious side).
  const age = round(Math.min(...straightDescribed.map((f) => f.age)));
  const scores = { ...base, photoMatch, age };
  const selfieGender = apparentGender(straightDescribed);
  const photoGender = apparentGender([photoFace]);
  if (selfieGender && photoGender && selfieGender !== photoGender) {
    return { result: 'match_review', why: 'gender_differs', scores, vector };
  }
  if (photoMatch < AUTO_VERIFY_SIMILARITY) return { result: 'match_review', why: 'close_match', scores, vector };
  return ageOutcome(age) === 'confirmed' ? { result: 'verified', scores, vector } : { result: 'age_review', scores, vector };
}

/**
 * Whether the main photo changed since the badge was last checked against it: the badge's
 * `photo_key` against the profile's current main photo, whatever changed it (an upload, "make
 * main", removal, onboarding). No re-check is needed when they are the same.
 */
export function mainPhotoChanged(checkedKey: string | null, currentKey: string | null): boolean {
  return (checkedKey ?? null) !== (currentKey ?? null);
}

/**
 * What a changed main photo does to the badge: no main photo leaves nothing to contradict it
 * (kept); a photo as close to the verified face as a match that verifies keeps it; any other face, or no face at all,
 * removes it until the member verifies again.
 */
export function mainPhotoOutcome(vector: number[], photo: ImageAnalysis | null): { keep: boolean; similarity: number | null } {
  if (!photo) return { keep: true, similarity: null };
  return photoStillMatches(vector, photo);
}

/**
 * A new main photo against the kept face: only a face as close as a match that verifies on its own
 * keeps the badge, so a badge earned with one face cannot be carried to another's.
 */
export function photoStillMatches(vector: number[], photo: ImageAnalysis): { keep: boolean; similarity: number } {
  const face = photo.faces[0];
  if (photo.unreadable || !face) return { keep: false, similarity: 0 };
  const similarity = faceSimilarity(vector, face.embedding);
  return { keep: similarity >= AUTO_VERIFY_SIMILARITY, similarity };
}
