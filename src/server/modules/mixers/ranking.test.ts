import { describe, expect, it } from 'vitest';
import { RANK_WEIGHTS, type RankFeatures, rankMixer, whenLabel } from './ranking';

// Wednesday 26 November 2025, 10:00 in London (UTC in winter).
const now = Date.UTC(2025, 10, 26, 10, 0);
const HOUR = 3_600_000;
const base: RankFeatures = {
  sharedInterests: 0,
  topicMatch: false,
  intentMatch: false,
  near: false,
  live: false,
  startsAtMs: now + 30 * HOUR,
  seatsForMe: 3,
};
const score = (f: Partial<RankFeatures>) => rankMixer({ ...base, ...f }, now).score;

describe('rankMixer', () => {
  it('says why in a few words', () => {
    const r = rankMixer({ ...base, sharedInterests: 3, near: true, startsAtMs: Date.UTC(2025, 10, 28, 19, 0), seatsForMe: 2 }, now);
    expect(r.reasons).toEqual(['3 shared interests', 'near you', 'Friday evening', '2 seats for you']);
    expect(rankMixer({ ...base, live: true, seatsForMe: 1, sharedInterests: 1 }, now).reasons).toEqual([
      '1 shared interest',
      'live now',
      '1 seat for you',
    ]);
    expect(rankMixer({ ...base, seatsForMe: 0, intentMatch: true }, now).reasons).toEqual([
      'what you’re looking for',
      'Tomorrow afternoon',
      'waitlist open',
    ]);
  });

  it('ranks shared interests, topic, looking-for and nearness up', () => {
    expect(score({ sharedInterests: 2 })).toBeGreaterThan(score({ sharedInterests: 1 }));
    expect(score({ topicMatch: true })).toBeGreaterThan(score({}));
    expect(score({ intentMatch: true })).toBeGreaterThan(score({}));
    expect(score({ near: true })).toBeGreaterThan(score({}));
  });

  it('caps shared interests so one crowded mixer cannot drown the rest', () => {
    expect(score({ sharedInterests: 12 })).toBe(score({ sharedInterests: RANK_WEIGHTS.sharedInterestsCap }));
  });

  it('prefers soon over later in the week, but not too soon to join', () => {
    const soon = score({ startsAtMs: now + 3 * HOUR });
    expect(soon).toBeGreaterThan(score({ startsAtMs: now + 5 * 24 * HOUR }));
    expect(soon).toBeGreaterThan(score({ startsAtMs: now + 10 * 60_000 }));
  });

  it('puts mixers where only the waitlist is left for me below ones with a seat', () => {
    expect(score({ seatsForMe: 1 })).toBeGreaterThan(score({ seatsForMe: 0 }));
    expect(score({ seatsForMe: 0, sharedInterests: 1 })).toBeLessThan(score({ seatsForMe: 1 }));
  });
});

describe('whenLabel', () => {
  it('names the day and part of the day in UK time', () => {
    expect(whenLabel(Date.UTC(2025, 10, 26, 19, 30), now)).toBe('This evening');
    expect(whenLabel(Date.UTC(2025, 10, 27, 9, 0), now)).toBe('Tomorrow morning');
    expect(whenLabel(Date.UTC(2025, 10, 29, 14, 0), now)).toBe('Saturday afternoon');
    // British Summer Time: 23:30 UTC on 1 July is already 2 July in London.
    expect(whenLabel(Date.UTC(2025, 6, 1, 23, 30), Date.UTC(2025, 6, 1, 9, 0))).toBe('Tomorrow morning');
  });

  it('counts calendar days on the Sundays the clocks change', () => {
    // 00:30 BST on Sunday 25 October 2026 (a 25-hour day): Monday morning is more than 24 hours away.
    expect(whenLabel(Date.UTC(2026, 9, 26, 9, 0), Date.UTC(2026, 9, 24, 23, 30))).toBe('Tomorrow morning');
    // 23:30 GMT on Saturday 28 March 2026, before the clocks go forward: Monday 00:15 BST is under 24 hours away.
    expect(whenLabel(Date.UTC(2026, 2, 29, 19, 0), Date.UTC(2026, 2, 28, 23, 30))).toBe('Tomorrow evening');
    expect(whenLabel(Date.UTC(2026, 2, 29, 23, 15), Date.UTC(2026, 2, 28, 23, 30))).toBe('Monday morning');
  });
});
