import { describe, expect, it } from 'vitest';
import { ageOutcome, attemptsLeft, BLINK_PROMPT_MS, CHALLENGE_AGE, newBlinkAt, newChallengeSteps } from '../../../shared/verification';
import { type FaceFound, faceSimilarity, type ImageAnalysis } from './engine';
import { BLINK_WINDOW_MS, type CaptureFrame, THUMB_H, THUMB_W } from './liveness';
import {
  AUTO_VERIFY_SIMILARITY,
  frameFormatProblem,
  frameProblem,
  fullFrames,
  type IssuedChallenge,
  judge,
  MATCH_SIMILARITY,
  mainPhotoChanged,
  mainPhotoOutcome,
  photoStillMatches,
} from './rules';

const vec = (seed: number) => Array.from({ length: 1024 }, (_, i) => Math.sin(i * 0.37 + seed) * 0.3);
/** A description unrelated to `vec(1)`'s (similarity ~0). */
const someoneElse = Array.from({ length: 1024 }, (_, i) => Math.sin(i * 1.13 + 2) * 0.3);
const faceOf = (over: Partial<FaceFound> = {}): FaceFound => ({
  score: 1,
  size: 0.4,
  yaw: 0,
  pitch: 0,
  real: 0.6,
  live: 0.9,
  age: 31,
  embedding: vec(1),
  ...over,
});
const img = (...faces: FaceFound[]): ImageAnalysis => ({ unreadable: false, faces });
const issued: IssuedChallenge = { steps: ['straight', 'left', 'right'], blinkAtMs: 600 };

/**
 * A made-up capture of a live head (11 frames a step, 200 ms apart): still but never quite, a
 * blink 200–400 ms after the prompt, each turn smoothly out to 0.35 rad and back. `edit` changes
 * a frame's face (or removes it) to make an attack or a fault.
 */
function sequence(edit: (step: number, k: number, f: FaceFound) => FaceFound | null = (_s, _k, f) => f) {
  const frames: ImageAnalysis[] = [];
  const capture: CaptureFrame[] = [];
  for (const [s, step] of issued.steps.entries()) {
    for (let k = 0; k <= 10; k++) {
      const t = s * 2200 + k * 200;
      const turn = step === 'straight' ? 0.01 * Math.sin(k) : (step === 'left' ? 1 : -1) * 0.35 * Math.sin((Math.PI * k) / 10);
      const eye = s === 0 && k * 200 >= issued.blinkAtMs + 200 && k * 200 <= issued.blinkAtMs + 400 ? 0.12 : 0.28 + 0.004 * Math.sin(k);
      const face = edit(s, k, faceOf({ yaw: turn, eye, cx: 0.5 + 0.01 * Math.sin(k), cy: 0.5 }));
      const thumb = Array.from({ length: THUMB_W * THUMB_H }, (_, i) => (i * 7 + s * 31 + k * 17 + ((i * k) % 13)) % 250);
      frames.push({ unreadable: false, light: 120, colour: 20, thumb, faces: face ? [face] : [] });
      capture.push({ step: s, t });
    }
  }
  const full = fullFrames(capture, issued);
  // The description models run only on the full frames.
  for (const [i, f] of frames.entries()) if (!full.includes(i) && f.faces[0]) f.faces[0] = { ...f.faces[0], embedding: [] };
  return { frames, capture, full, hashes: frames.map((_, i) => `frame-${i}`) };
}
const judged = (q: ReturnType<typeof sequence>, photo: ImageAnalysis | null = img(faceOf())) =>
  judge(issued, q.frames, q.capture, q.full, q.hashes, 60_000, photo);

describe('challenge', () => {
  it('is a straight look (with a blink at a random moment), then both turns in a random order', () => {
    const orders = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = newChallengeSteps();
      expect(s).toHaveLength(3);
      expect(s[0]).toBe('straight');
      expect([...s.slice(1)].sort()).toEqual(['left', 'right']);
      orders.add(s.join());
      const at = newBlinkAt();
      expect(at).toBeGreaterThanOrEqual(BLINK_PROMPT_MS[0]);
      expect(at).toBeLessThanOrEqual(BLINK_PROMPT_MS[1]);
    }
    expect(orders.size).toBe(2);
  });
  it('the described frames are straight-on ones before the blink prompt and each turn’s last', () => {
    const { capture, full } = sequence();
    expect(full).toHaveLength(5);
    expect(full.filter((i) => capture[i].step === 0).every((i) => capture[i].t < issued.blinkAtMs)).toBe(true);
    expect(full).toContain(21);
    expect(full).toContain(32);
  });
  it('asks for a second check below 25, never refuses on age', () => {
    expect(CHALLENGE_AGE).toBe(25);
    expect(ageOutcome(24.9)).toBe('second_check');
    expect(ageOutcome(25)).toBe('confirmed');
    expect(judged(sequence((s, _k, f) => (s === 0 ? { ...f, age: 19 } : f))).result).toBe('age_review');
  });
});

describe('described frames', () => {
  it('are always three straight-on frames with the eyes open, wherever the blink prompt falls, and the end of each turn', () => {
    const capture: CaptureFrame[] = [];
    for (let s = 0; s < 3; s++) for (let k = 0; k <= 10; k++) capture.push({ step: s, t: s * 2200 + k * 200 });
    for (let at = BLINK_PROMPT_MS[0]; at <= BLINK_PROMPT_MS[1]; at += 50) {
      const full = fullFrames(capture, { ...issued, blinkAtMs: at });
      const straight = full.filter((i) => capture[i].step === 0);
      expect(straight).toHaveLength(3);
      // None from the prompt to the end of the blink's window: those may show the eyes closed.
      for (const i of straight) expect(capture[i].t < at || capture[i].t > at + BLINK_WINDOW_MS).toBe(true);
      expect(full.filter((i) => capture[i].step !== 0)).toEqual([21, 32]);
    }
  });
});

describe('outcome mapping', () => {
  it('a live sequence verifies; each problem maps to its reason, in the order a member can act on', () => {
    expect(judged(sequence())).toMatchObject({ result: 'verified' });
    expect(judged(sequence((s, k, f) => (s === 1 && k > 2 ? null : f)))).toMatchObject({ reason: 'no_face' });
    expect(judged(sequence((s, k, f) => (s === 2 && k === 10 ? { ...f, size: 0.02 } : f)))).toMatchObject({ reason: 'no_face' });
    const two = sequence();
    two.frames[3].faces.push(faceOf());
    expect(judged(two)).toMatchObject({ reason: 'two_faces' });
    expect(judged(sequence((s, k, f) => (s === 0 && k === 5 ? { ...f, cx: 0.9 } : f)))).toMatchObject({ reason: 'still_picture' });
    expect(judged(sequence((s, _k, f) => (s === 0 ? { ...f, yaw: f.yaw + 0.3 } : f)))).toMatchObject({ reason: 'not_straight' });
    expect(judged(sequence((s, _k, f) => (s === 0 ? { ...f, pitch: 0.4 } : f)))).toMatchObject({ reason: 'not_straight' });
    expect(judged(sequence((s, _k, f) => (s === 1 ? { ...f, yaw: -f.yaw } : f)))).toMatchObject({ reason: 'challenge' });
    expect(judged(sequence((_s, _k, f) => ({ ...f, eye: 0.28 })))).toMatchObject({ reason: 'no_blink' });
    expect(judged(sequence((s, k, f) => (s === 2 && k === 10 ? { ...f, embedding: someoneElse } : f)))).toMatchObject({
      reason: 'not_same_person',
    });
    expect(judged(sequence((_s, _k, f) => ({ ...f, real: 0.1 })))).toMatchObject({ reason: 'spoof' });
    expect(judged(sequence(), null)).toMatchObject({ reason: 'no_main_photo' });
    expect(judged(sequence(), img())).toMatchObject({ reason: 'main_photo_no_face' });
    expect(judged(sequence(), img(faceOf({ embedding: someoneElse })))).toMatchObject({ reason: 'photo_mismatch' });
    const short = sequence();
    expect(
      judge(issued, short.frames.slice(0, 20), short.capture.slice(0, 20), short.full, short.hashes, 60_000, img(faceOf())),
    ).toMatchObject({
      reason: 'challenge',
    });
    // Filmed before the challenge was issued: a capture longer than the time since.
    expect(judge(issued, short.frames, short.capture, short.full, short.hashes, 3_000, img(faceOf()))).toMatchObject({
      reason: 'challenge',
    });
  });
  it('frames of one check are one person by the same bar as a match that verifies on its own', () => {
    const other = someoneElse;
    let refused = 0;
    for (let w = 0; w <= 0.6; w += 0.01) {
      // The last frame of the second turn walked from the member's face towards someone else's.
      const mixed = vec(1).map((x, i) => x * (1 - w) + other[i] * w);
      const v = judged(sequence((s, k, f) => (s === 2 && k === 10 ? { ...f, embedding: mixed } : f)));
      const close = faceSimilarity(vec(1), mixed) >= AUTO_VERIFY_SIMILARITY;
      expect(v).toMatchObject(close ? { result: 'verified' } : { result: 'failed', reason: 'not_same_person' });
      if (!close) refused++;
    }
    expect(refused).toBeGreaterThan(0);
  });
  it('matches the main photo with the median of the straight-on frames, not the best frame', () => {
    const photo = img(faceOf({ embedding: someoneElse }));
    // One straight frame that looks like the main photo does not carry the match.
    const one = sequence((s, k, f) => (s === 0 && k === 1 ? { ...f, embedding: someoneElse } : f));
    expect(judged(one, photo)).toMatchObject({ result: 'failed' });
    // …and a frame of someone else among them is a changed face, whatever the main photo.
    expect(judged(one)).toMatchObject({ reason: 'not_same_person' });
  });
});

describe('a match across an apparent gender difference', () => {
  const other = someoneElse;
  /** A main photo whose description is walked from the selfie's towards someone else's: similarity falls. */
  const photoAt = (w: number, gender: string) =>
    img(faceOf({ embedding: vec(1).map((x, i) => x * (1 - w) + other[i] * w), gender, genderScore: 0.9 }));
  const asMan = sequence((_s, _k, f) => ({ ...f, gender: 'male', genderScore: 0.9 }));
  const unsure = sequence();
  it('goes to a person at any score over the threshold, and verifies with the same gender or an unsure one', () => {
    const reviewed: number[] = [];
    for (let w = 0; w <= 1; w += 0.01) {
      const photo = photoAt(w, 'female');
      const v = judged(asMan, photo);
      if (v.result === 'failed') continue;
      expect(v).toMatchObject({ result: 'match_review', why: 'gender_differs' });
      reviewed.push(v.scores.photoMatch ?? 0);
      // The same gender, or a gender the model is unsure of: verified when the match is close enough
      // on its own, else a person compares (the band below).
      const close = (v.scores.photoMatch ?? 0) >= AUTO_VERIFY_SIMILARITY;
      for (const same of [judged(asMan, photoAt(w, 'male')), judged(unsure, photo)]) {
        expect(same).toMatchObject(close ? { result: 'verified' } : { result: 'match_review', why: 'close_match' });
      }
    }
    // From the threshold to an identical description: a high score is no way past a person.
    expect(Math.min(...reviewed)).toBeLessThan(MATCH_SIMILARITY + 0.05);
    expect(Math.max(...reviewed)).toBe(1);
  });
});

describe('how alike two faces are', () => {
  it('reads the angle between descriptions, not their length (decision 031)', () => {
    const v = vec(1);
    // The same description read longer or shorter is the same face…
    expect(
      faceSimilarity(
        v,
        v.map((x) => x * 1.6),
      ),
    ).toBe(1);
    expect(
      faceSimilarity(
        v,
        v.map((x) => x * 0.5),
      ),
    ).toBe(1);
    // …an unrelated or opposite one is nobody's, and a missing or empty one matches nothing.
    expect(faceSimilarity(v, someoneElse)).toBeLessThan(0.1);
    expect(
      faceSimilarity(
        v,
        v.map((x) => -x),
      ),
    ).toBe(0);
    expect(faceSimilarity(v, [])).toBe(0);
    expect(
      faceSimilarity(
        v,
        v.map(() => 0),
      ),
    ).toBe(0);
    // Halfway between two unrelated faces is as close to either.
    const half = v.map((x, i) => (x + someoneElse[i]) / 2);
    expect(faceSimilarity(v, half)).toBeCloseTo(faceSimilarity(someoneElse, half), 1);
  });
});

describe('a match that is not close enough to verify on its own', () => {
  const other = someoneElse;
  const photoAt = (w: number) => img(faceOf({ embedding: vec(1).map((x, i) => x * (1 - w) + other[i] * w) }));
  it('fails under the match threshold, goes to a person up to the auto threshold, verifies from it', () => {
    const seen = new Set<string>();
    for (let w = 0; w <= 1; w += 0.005) {
      const v = judged(sequence(), photoAt(w));
      const score = v.scores.photoMatch ?? 0;
      const want =
        score < MATCH_SIMILARITY
          ? { result: 'failed', reason: 'photo_mismatch' }
          : score < AUTO_VERIFY_SIMILARITY
            ? { result: 'match_review', why: 'close_match' }
            : { result: 'verified' };
      expect(v).toMatchObject(want);
      seen.add(want.result);
    }
    // The walk crossed both thresholds.
    expect([...seen].sort()).toEqual(['failed', 'match_review', 'verified']);
    expect(AUTO_VERIFY_SIMILARITY).toBeGreaterThan(MATCH_SIMILARITY);
  });
});

describe('retries per day', () => {
  it('allows three failures a day', () => {
    expect(attemptsLeft(0)).toBe(3);
    expect(attemptsLeft(2)).toBe(1);
    expect(attemptsLeft(3)).toBe(0);
    expect(attemptsLeft(9)).toBe(0);
  });
  it('caps the challenges issued in a day, tries given back included', () => {
    expect(attemptsLeft(0, 4)).toBe(2);
    expect(attemptsLeft(1, 6)).toBe(0);
    expect(attemptsLeft(2, 2)).toBe(1);
  });
});

describe('badge removal on photo change', () => {
  it('keeps the badge for the same face, removes it for another face or no face', () => {
    expect(photoStillMatches(vec(1), img(faceOf())).keep).toBe(true);
    expect(photoStillMatches(vec(1), img(faceOf({ embedding: someoneElse }))).keep).toBe(false);
    expect(photoStillMatches(vec(1), img()).keep).toBe(false);
  });

  it('re-checks only when the main photo is not the one the badge was checked against, whatever changed it', () => {
    expect(mainPhotoChanged('u/photos/a.webp', 'u/photos/a.webp')).toBe(false);
    expect(mainPhotoChanged(null, null)).toBe(false);
    // Another photo made main, a new upload, the main photo removed, a badge from before the key was kept.
    expect(mainPhotoChanged('u/photos/a.webp', 'u/photos/b.webp')).toBe(true);
    expect(mainPhotoChanged('u/photos/a.webp', null)).toBe(true);
    expect(mainPhotoChanged(null, 'u/photos/a.webp')).toBe(true);
  });

  it('no main photo keeps the badge; a face just under a match that verifies on its own removes it, just over keeps it', () => {
    expect(mainPhotoOutcome(vec(1), null)).toEqual({ keep: true, similarity: null });
    expect(mainPhotoOutcome(vec(1), { unreadable: true, faces: [] }).keep).toBe(false);
    // Walk another face towards the kept one until the similarity crosses the threshold.
    const other = someoneElse;
    const mix = (w: number) => vec(1).map((x, i) => x * (1 - w) + other[i] * w);
    let crossed = false;
    for (let w = 1; w >= 0; w -= 0.02) {
      const r = mainPhotoOutcome(vec(1), img(faceOf({ embedding: mix(w) })));
      expect(r.keep).toBe((r.similarity ?? 0) >= AUTO_VERIFY_SIMILARITY);
      if (r.keep) crossed = true;
    }
    expect(crossed).toBe(true);
  });
});

describe('pictures refused before any judgement', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
  it('tells HEIC, non-pictures and pictures cut short from their bytes', () => {
    expect(frameFormatProblem(jpeg, 'image/jpeg')).toBeNull();
    expect(frameFormatProblem(Buffer.concat([jpeg, Buffer.alloc(4)]), 'image/jpeg')).toBeNull();
    expect(frameFormatProblem(jpeg.subarray(0, 8), 'image/jpeg')).toBe('unreadable');
    expect(frameFormatProblem(jpeg, 'image/heic')).toBe('heic');
    expect(frameFormatProblem(jpeg, undefined)).toBe('not_image');
    expect(frameFormatProblem(jpeg, 'application/pdf')).toBe('not_image');
    const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(20), Buffer.from('IEND'), Buffer.alloc(4)]);
    expect(frameFormatProblem(png, 'image/png')).toBeNull();
    expect(frameFormatProblem(png.subarray(0, 20), 'image/png')).toBe('unreadable');
  });
  it('asks for light, a colour camera, or a new try for a damaged picture', () => {
    const ok: ImageAnalysis = { unreadable: false, light: 120, colour: 30, faces: [] };
    expect(frameProblem([ok, ok])).toBeNull();
    expect(frameProblem([ok, { ...ok, light: 12 }])).toBe('too_dark');
    expect(frameProblem([ok, { ...ok, colour: 0.5 }])).toBe('greyscale');
    expect(
      frameProblem([
        { unreadable: true, faces: [] },
        { ...ok, light: 12 },
      ]),
    ).toBe('unreadable');
  });
});
