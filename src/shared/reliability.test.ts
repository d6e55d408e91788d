import { describe, expect, it } from 'vitest';
import { type AttendanceOutcome, RELIABILITY_WINDOW, reliabilityTier, reliabilityView } from './reliability';

const many = (n: number, o: AttendanceOutcome) => Array.from({ length: n }, () => o);

describe('reliabilityTier', () => {
  it('keeps newcomers neutral: fewer than three records is tier 1, whatever they are', () => {
    expect(reliabilityTier([])).toBe(1);
    expect(reliabilityTier(['no_show', 'no_show'])).toBe(1);
    expect(reliabilityTier(['attended', 'attended'])).toBe(1);
  });

  it('puts members who came to at least 80 % first, and those who came to under half last', () => {
    expect(reliabilityTier(['attended', 'attended', 'attended'])).toBe(2);
    expect(reliabilityTier([...many(4, 'attended'), 'no_show'])).toBe(2); // 80 %
    expect(reliabilityTier([...many(3, 'attended'), 'no_show'])).toBe(1); // 75 %
    expect(reliabilityTier(['attended', 'no_show', 'left_late', 'attended'])).toBe(1); // 50 %
    expect(reliabilityTier(['attended', 'no_show', 'left_late'])).toBe(0); // 33 %
  });

  it('looks only at the most recent RELIABILITY_WINDOW records', () => {
    const recentGood = [...many(RELIABILITY_WINDOW, 'attended'), ...many(20, 'no_show')];
    expect(reliabilityTier(recentGood)).toBe(2);
    const recentBad = [...many(RELIABILITY_WINDOW, 'no_show'), ...many(20, 'attended')];
    expect(reliabilityTier(recentBad)).toBe(0);
  });
});

describe('reliabilityView', () => {
  it('says nothing without records', () => {
    expect(reliabilityView([])).toEqual({ of: 0, attended: 0, note: null });
  });

  it('counts the recent window and says it kindly', () => {
    expect(reliabilityView([...many(5, 'attended'), 'no_show'])).toEqual({
      of: 6,
      attended: 5,
      note: 'You came to 5 of your last 6 mixers.',
    });
    expect(reliabilityView(many(15, 'attended'))).toMatchObject({ of: RELIABILITY_WINDOW, attended: RELIABILITY_WINDOW });
  });

  it('welcomes a first mixer either way, without blame', () => {
    expect(reliabilityView(['attended']).note).toMatch(/first mixer/);
    const missed = reliabilityView(['no_show']).note ?? '';
    expect(missed).toMatch(/no worries/);
    expect(missed).not.toMatch(/score|fail|bad|unreliable/i);
  });
});
