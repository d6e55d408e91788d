import { describe, expect, it } from 'vitest';
import {
  blinkedOnRequest,
  type CaptureFrame,
  captureOk,
  isStraight,
  MIN_TURN,
  medianVector,
  repeatedFrames,
  THUMB_H,
  THUMB_W,
  turnProblem,
} from './liveness';

/** Timestamps: `steps` steps of `n` frames `every` ms apart, 200 ms between steps. */
const timing = (steps: number, n = 11, every = 200): CaptureFrame[] =>
  Array.from({ length: steps * n }, (_, i) => ({ step: Math.floor(i / n), t: Math.floor(i / n) * (n * every) + (i % n) * every }));

/** A turn out to `peak` radians and back over `n` frames (a live head), or in two poses (a photo swapped for another). */
const smooth = (peak: number, n = 11) => Array.from({ length: n }, (_, k) => peak * Math.sin((Math.PI * k) / (n - 1)));
const jumpy = (peak: number, n = 11) => smooth(peak, n).map((y) => (Math.abs(y) > Math.abs(peak) / 2 ? peak : 0));

/** A thumbnail: a pattern that moves with `k` (a live camera), mirrored if asked. */
const thumb = (k: number, mirror = false) =>
  Array.from({ length: THUMB_W * THUMB_H }, (_, i) => {
    const x = i % THUMB_W;
    const y = Math.floor(i / THUMB_W);
    const xx = mirror ? THUMB_W - 1 - x : x;
    return (xx * 5 + y * 3 + k * 7 + ((xx * k) % 11)) % 250;
  });

describe('the capture', () => {
  it('takes every step filmed for 2 s at 5 frames a second or more, in order, within the time since the challenge', () => {
    expect(captureOk(timing(3), 3, 60_000)).toBe(true);
    expect(captureOk(timing(3, 8), 3, 60_000)).toBe(false); // 1.4 s a step
    expect(captureOk(timing(3, 6, 400), 3, 60_000)).toBe(false); // 2.5 frames a second
    expect(captureOk(timing(2), 3, 60_000)).toBe(false); // a step missing
    expect(captureOk(timing(3), 3, 4_000)).toBe(false); // longer than the time since the challenge was issued
    const backwards = timing(3);
    [backwards[4], backwards[5]] = [backwards[5], backwards[4]];
    expect(captureOk(backwards, 3, 60_000)).toBe(false);
  });
});

describe('identical, near-identical and mirror-image frames', () => {
  const capture = timing(3);
  const live = capture.map((_, i) => thumb(i));
  const hashes = capture.map((_, i) => `h${i}`);
  const none = capture.map(() => false);
  it('a live camera passes', () => {
    expect(
      repeatedFrames(
        live,
        capture,
        hashes,
        capture.map((c) => c.step > 0),
      ),
    ).toBeNull();
  });
  it('the same picture again and again fails: the same bytes, or the same picture with a little noise', () => {
    expect(
      repeatedFrames(
        live,
        capture,
        capture.map(() => 'same'),
        none,
      ),
    ).toBe('still');
    const noisy = capture.map((_, i) => thumb(0).map((v, j) => v + (((i * 31 + j) % 5) - 2) * 0.05));
    expect(repeatedFrames(noisy, capture, hashes, none)).toBe('still');
  });
  it('a turned frame that is the mirror image of a turned frame of another step fails', () => {
    const mirrored = capture.map((c, i) => (c.step === 2 ? thumb(i - 11, true) : thumb(i)));
    const turned = capture.map((c) => c.step > 0);
    expect(repeatedFrames(mirrored, capture, hashes, turned)).toBe('mirror');
    // Looking straight at a plain wall a face is nearly its own mirror image: not compared.
    expect(repeatedFrames(mirrored, capture, hashes, none)).toBeNull();
  });
});

describe('head angles', () => {
  it('"straight" is both yaw and pitch near zero', () => {
    expect(isStraight([0.02, -0.03, 0.01], [0.05, 0.1, 0.08])).toBe(true);
    expect(isStraight([0.3, 0.28, 0.31], [0, 0, 0])).toBe(false);
    expect(isStraight([0, 0, 0], [0.45, 0.4, 0.5])).toBe(false);
  });
  it('a turn is a smooth trajectory out to the asked side and back', () => {
    expect(turnProblem(smooth(0.35), 0, 1)).toBeNull();
    expect(turnProblem(smooth(-0.35), 0, -1)).toBeNull();
    expect(
      turnProblem(
        smooth(0.35).map((y) => y + 0.1),
        0.1,
        1,
      ),
    ).toBeNull(); // from a straight pose that is not exactly 0
    expect(turnProblem(smooth(-0.35), 0, 1)).toBe('wrong_way');
    expect(turnProblem(smooth(MIN_TURN * 0.7), 0, 1)).toBe('not_far');
    expect(
      turnProblem(
        smooth(0.35).map((y, k) => (k > 5 ? 0.35 : y)),
        0,
        1,
      ),
    ).toBe('not_back');
    expect(turnProblem(Array(11).fill(0.35), 0, 1)).toBe('not_back'); // a turned photo held still
    expect(turnProblem(jumpy(0.35), 0, 1)).toBe('jump');
    expect(turnProblem([0, 0, 0, 0, 0.35, 0.35, 0.35, 0, 0, 0, 0], 0, 1)).toBe('jump');
  });
  it('one misread frame is not a jump', () => {
    const glitch = smooth(0.35);
    glitch[3] = -0.1;
    expect(turnProblem(glitch, 0, 1)).toBeNull();
  });
});

describe('the blink on request', () => {
  const step = (closedAt: number[], reopens = true): [number, number][] =>
    Array.from({ length: 11 }, (_, k) => {
      const t = k * 200;
      const closed = closedAt.includes(t) || (!reopens && t > Math.max(...closedAt));
      return [t, closed ? 0.15 : 0.28 + 0.004 * Math.sin(k)];
    });
  it('eyes closing after the prompt and opening again pass', () => {
    expect(blinkedOnRequest(step([800, 1000]), 600)).toBe(true);
  });
  it('no blink, a blink before the prompt, too late, or eyes that stay shut fail', () => {
    expect(blinkedOnRequest(step([]), 600)).toBe(false);
    expect(blinkedOnRequest(step([200, 400]), 600)).toBe(false);
    expect(blinkedOnRequest(step([1800]), 600)).toBe(false);
    expect(blinkedOnRequest(step([800], false), 600)).toBe(false);
  });
});

describe('the face description of a capture', () => {
  it('is the element-wise median: one odd frame does not move it', () => {
    expect(
      medianVector([
        [1, 2],
        [1.1, 2.1],
        [9, -9],
      ]),
    ).toEqual([1.1, 2]);
  });
});
