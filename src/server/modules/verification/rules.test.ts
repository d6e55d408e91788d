import { describe, expect, it } from 'vitest';
import { ageOutcome, attemptsLeft, CHALLENGE_AGE, newChallengeSteps } from '../../../shared/verification';
import type { FaceFound, ImageAnalysis } from './engine';
import {
  followsChallenge,
  frameFormatProblem,
  frameProblem,
  judge,
  MATCH_SIMILARITY,
  mainPhotoChanged,
  mainPhotoOutcome,
  OTHER_PERSON_SIMILARITY,
  photoStillMatches,
} from './rules';

const vec = (seed: number) => Array.from({ length: 1024 }, (_, i) => Math.sin(i * 0.37 + seed) * 0.3);
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
const steps = ['straight', 'left', 'right', 'left', 'right'] as const;
const good = () => steps.map((s) => img(faceOf({ yaw: s === 'left' ? 0.2 : s === 'right' ? -0.2 : 0 })));

describe('challenge', () => {
  it('is a straight look then four turns with both directions', () => {
    for (let i = 0; i < 200; i++) {
      const s = newChallengeSteps();
      expect(s).toHaveLength(5);
      expect(s[0]).toBe('straight');
      expect(s.slice(1)).toContain('left');
      expect(s.slice(1)).toContain('right');
    }
  });
  it('passes only when every left frame is turned beyond every right frame', () => {
    expect(
      followsChallenge(
        [...steps],
        good().map((f) => f.faces[0]),
      ).ok,
    ).toBe(true);
    const still = steps.map(() => faceOf({ yaw: 0.1 }));
    expect(followsChallenge([...steps], still).ok).toBe(false);
    const reversed = good().map((f) => ({ ...f.faces[0], yaw: -f.faces[0].yaw }));
    expect(followsChallenge([...steps], reversed).ok).toBe(false);
  });
});

describe('retries per day and the challenge age', () => {
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
  it('asks for a second check below 25, never refuses on age', () => {
    expect(CHALLENGE_AGE).toBe(25);
    expect(ageOutcome(24.9)).toBe('second_check');
    expect(ageOutcome(25)).toBe('confirmed');
    const young = good().map((f, i) => (i === 0 ? img(faceOf({ age: 19 })) : f));
    expect(judge([...steps], young, img(faceOf())).result).toBe('age_review');
  });
});

describe('outcome mapping', () => {
  it('maps each problem to its reason, in the order a member can act on', () => {
    expect(judge([...steps], good(), img(faceOf())).result).toBe('verified');
    const noFace = good();
    noFace[1] = img();
    expect(judge([...steps], noFace, img(faceOf()))).toMatchObject({ reason: 'no_face' });
    const tiny = good();
    tiny[2] = img(faceOf({ size: 0.02 }));
    expect(judge([...steps], tiny, img(faceOf()))).toMatchObject({ reason: 'no_face' });
    const two = good();
    two[0] = img(faceOf(), faceOf());
    expect(judge([...steps], two, img(faceOf()))).toMatchObject({ reason: 'two_faces' });
    const swapped = good();
    swapped[3] = img(faceOf({ yaw: 0.2, embedding: vec(1 + Math.PI) }));
    expect(judge([...steps], swapped, img(faceOf()))).toMatchObject({ reason: 'not_same_person' });
    const spoof = good().map((f) => img({ ...f.faces[0], real: 0.1 }));
    expect(judge([...steps], spoof, img(faceOf()))).toMatchObject({ reason: 'spoof' });
    expect(judge([...steps], good(), null)).toMatchObject({ reason: 'no_main_photo' });
    expect(judge([...steps], good(), img())).toMatchObject({ reason: 'main_photo_no_face' });
    expect(judge([...steps], good(), img(faceOf({ embedding: vec(1 + Math.PI) })))).toMatchObject({ reason: 'photo_mismatch' });
    expect(judge([...steps], good().slice(0, 3), img(faceOf()))).toMatchObject({ reason: 'challenge' });
  });
});

describe('badge removal on photo change', () => {
  it('keeps the badge for the same face, removes it for another face or no face', () => {
    expect(photoStillMatches(vec(1), img(faceOf())).keep).toBe(true);
    expect(photoStillMatches(vec(1), img(faceOf({ embedding: vec(1 + Math.PI) }))).keep).toBe(false);
    expect(photoStillMatches(vec(1), img()).keep).toBe(false);
    expect(MATCH_SIMILARITY).toBeGreaterThan(0.5);
  });

  it('re-checks only when the main photo is not the one the badge was checked against, whatever changed it', () => {
    expect(mainPhotoChanged('u/photos/a.webp', 'u/photos/a.webp')).toBe(false);
    expect(mainPhotoChanged(null, null)).toBe(false);
    // Another photo made main, a new upload, the main photo removed, a badge from before the key was kept.
    expect(mainPhotoChanged('u/photos/a.webp', 'u/photos/b.webp')).toBe(true);
    expect(mainPhotoChanged('u/photos/a.webp', null)).toBe(true);
    expect(mainPhotoChanged(null, 'u/photos/a.webp')).toBe(true);
  });

  it('no main photo keeps the badge; a face just under "clearly someone else" removes it, just over keeps it', () => {
    expect(mainPhotoOutcome(vec(1), null)).toEqual({ keep: true, similarity: null });
    expect(mainPhotoOutcome(vec(1), { unreadable: true, faces: [] }).keep).toBe(false);
    // Walk another face towards the kept one until the similarity crosses the threshold.
    const other = vec(1 + Math.PI);
    const mix = (w: number) => vec(1).map((x, i) => x * (1 - w) + other[i] * w);
    let crossed = false;
    for (let w = 1; w >= 0; w -= 0.02) {
      const r = mainPhotoOutcome(vec(1), img(faceOf({ embedding: mix(w) })));
      expect(r.keep).toBe((r.similarity ?? 0) >= OTHER_PERSON_SIMILARITY);
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
