import { describe, expect, it } from 'vitest';
import { hiddenWordMatcher } from './hidden-words';

describe('hidden words', () => {
  it('match whole words and phrases whatever the case, accents and letter swaps', () => {
    const hides = hiddenWordMatcher(['ex', 'gym bro', 'café', 'sexy']);
    expect(hides('My EX was like that')).toBe(true);
    expect(hides('my éx')).toBe(true);
    expect(hides('S3XY pics')).toBe(true);
    expect(hides('next week')).toBe(false);
    expect(hides('total GYM BRO energy')).toBe(true);
    expect(hides('the cafe on the corner')).toBe(true);
    expect(hides('the cafes on the corner')).toBe(true);
  });

  it('emoji match anywhere; an empty list hides nothing', () => {
    expect(hiddenWordMatcher(['🍆'])('hey 🍆🍆')).toBe(true);
    expect(hiddenWordMatcher([])('anything')).toBe(false);
  });

  it('look-alike letters from other scripts are read as Latin', () => {
    expect(hiddenWordMatcher(['sexy'])('ѕеху')).toBe(true);
  });
});
