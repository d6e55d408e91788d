import { ageOutcome, type ChallengeStep, type FailReason, type FrameProblem } from '../../../shared/verification';
import { type FaceFound, faceSimilarity, type ImageAnalysis } from './engine';

/**
 * Thresholds, measured on the sample faces shipped with @vladmandic/human (decision 022): the
 * same man across different photographs scored 0.68–0.96, different people 0.20–0.60.
 */
export const MATCH_SIMILARITY = 0.65;
/** Frames of one check must all be one person. */
export const SAME_SESSION_SIMILARITY = 0.6;
/** Two accounts with faces this close are flagged to admins. */
export const DUPLICATE_SIMILARITY = 0.72;
/** A new main photo this far from the verified face is "clearly someone else": the badge goes. */
export const OTHER_PERSON_SIMILARITY = 0.5;
/** A face narrower than this share of the frame is not "clear". */
export const MIN_FACE_SIZE = 0.08;
/** Mean yaw (radians) between the "left" and the "right" frames; and each left beyond each right. */
export const MIN_TURN = 0.15;
export const MIN_TURN_GAP = 0.05;
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
  turn: number;
  real: number;
  live: number;
  photoMatch: number;
  age: number;
}

export type Verdict =
  | { result: 'verified'; scores: Scores; vector: number[] }
  | { result: 'age_review'; scores: Scores; vector: number[] }
  | { result: 'failed'; reason: FailReason; scores: Partial<Scores> };

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;

/** The average face description of the frames (what is kept, encrypted, for re-checks). */
export function meanVector(faces: FaceFound[]): number[] {
  const n = faces[0]?.embedding.length ?? 0;
  const out = new Array<number>(n).fill(0);
  for (const f of faces) for (let i = 0; i < n; i++) out[i] += f.embedding[i] / faces.length;
  return out;
}

/**
 * "Turn your head to your left" in an unmirrored camera frame turns the face towards the
 * image's right, which Human reports as a positive yaw. Every left frame must be turned further
 * than every right frame, and the means must differ by MIN_TURN.
 */
export function followsChallenge(steps: ChallengeStep[], faces: FaceFound[]): { ok: boolean; turn: number } {
  const left = faces.filter((_, i) => steps[i] === 'left').map((f) => f.yaw);
  const right = faces.filter((_, i) => steps[i] === 'right').map((f) => f.yaw);
  if (!left.length || !right.length) return { ok: false, turn: 0 };
  const turn = mean(left) - mean(right);
  return { ok: turn >= MIN_TURN && Math.min(...left) - Math.max(...right) >= MIN_TURN_GAP, turn: round(turn) };
}

/** From the worker's numbers to a verdict, in the order a member can act on. */
export function judge(steps: ChallengeStep[], frames: ImageAnalysis[], mainPhoto: ImageAnalysis | null): Verdict {
  if (frames.length !== steps.length) return { result: 'failed', reason: 'challenge', scores: { frames: frames.length } };
  if (frames.some((f) => f.unreadable)) return { result: 'failed', reason: 'unreadable', scores: { frames: frames.length } };
  if (frames.some((f) => f.faces.length === 0 || f.faces[0].size < MIN_FACE_SIZE)) {
    return { result: 'failed', reason: 'no_face', scores: { frames: frames.length } };
  }
  if (frames.some((f) => f.faces.length > 1)) return { result: 'failed', reason: 'two_faces', scores: { frames: frames.length } };
  const faces = frames.map((f) => f.faces[0]);
  const sameSession = Math.min(...faces.slice(1).map((f) => faceSimilarity(faces[0].embedding, f.embedding)));
  if (sameSession < SAME_SESSION_SIMILARITY) return { result: 'failed', reason: 'not_same_person', scores: { frames: frames.length } };
  const { ok, turn } = followsChallenge(steps, faces);
  const real = round(mean(faces.map((f) => f.real)));
  const live = round(mean(faces.map((f) => f.live)));
  const base = { frames: frames.length, turn, real, live };
  if (!ok) return { result: 'failed', reason: 'challenge', scores: base };
  if (real < MIN_REAL || live < MIN_LIVE) return { result: 'failed', reason: 'spoof', scores: base };
  if (!mainPhoto) return { result: 'failed', reason: 'no_main_photo', scores: base };
  const photoFace = mainPhoto.faces[0];
  if (mainPhoto.unreadable || !photoFace) return { result: 'failed', reason: 'main_photo_no_face', scores: base };
  const vector = meanVector(faces);
  const photoMatch = Math.max(...faces.map((f) => faceSimilarity(f.embedding, photoFace.embedding)));
  if (photoMatch < MATCH_SIMILARITY) return { result: 'failed', reason: 'photo_mismatch', scores: { ...base, photoMatch } };
  // The straight-on frames estimate age best; the lowest estimate counts (the cautious side).
  const age = round(Math.min(...faces.filter((_, i) => steps[i] === 'straight').map((f) => f.age)));
  const scores = { ...base, photoMatch, age };
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
 * (kept); a photo of the verified face keeps it; a clearly different face, or no face at all,
 * removes it until the member verifies again.
 */
export function mainPhotoOutcome(vector: number[], photo: ImageAnalysis | null): { keep: boolean; similarity: number | null } {
  if (!photo) return { keep: true, similarity: null };
  return photoStillMatches(vector, photo);
}

/** A new main photo against the kept face: only a clearly different face removes the badge. */
export function photoStillMatches(vector: number[], photo: ImageAnalysis): { keep: boolean; similarity: number } {
  const face = photo.faces[0];
  if (photo.unreadable || !face) return { keep: false, similarity: 0 };
  const similarity = faceSimilarity(vector, face.embedding);
  return { keep: similarity >= OTHER_PERSON_SIMILARITY, similarity };
}
