import { describe, expect, it } from 'vitest';
import { dayLabel, formatTime, rangeLabel, startsAtLabel, whenLabel } from './format';

describe('mixer times (en-GB, Europe/London)', () => {
  const now = new Date('2026-11-22T21:00:00Z'); // Sunday 22 November, 21:00 in London (GMT)

  it('formats times in London whatever the machine zone', () => {
    expect(formatTime('2026-11-22T19:30:00Z')).toBe('19:30');
    expect(formatTime('2026-06-01T19:30:00Z')).toBe('20:30'); // BST
  });

  it('names days relative to today in London', () => {
    expect(dayLabel('2026-11-22T23:59:00Z', now)).toBe('Today');
    expect(dayLabel('2026-11-23T00:30:00Z', now)).toBe('Tomorrow');
    expect(dayLabel('2026-11-21T10:00:00Z', now)).toBe('Yesterday');
    expect(dayLabel('2026-11-28T10:00:00Z', now)).toBe('Sat 28 Nov');
    expect(dayLabel('2026-11-28T10:00:00Z', now, true)).toBe('Saturday 28 November');
  });

  it('says the day with the start time in a sentence', () => {
    expect(startsAtLabel('2026-11-22T21:30:00Z', now)).toBe('today at 21:30');
    expect(startsAtLabel('2026-11-23T09:15:00Z', now)).toBe('tomorrow at 09:15');
    expect(startsAtLabel('2026-11-28T19:30:00Z', now)).toBe('Sat 28 Nov at 19:30');
  });

  it('counts calendar days on the Sundays the clocks change (a day of 25 or 23 hours)', () => {
    // 00:30 BST on Sunday 25 October 2026, the day the clocks go back: Monday is 24h30 away.
    const backDay = new Date('2026-10-24T23:30:00Z');
    expect(dayLabel('2026-10-26T00:30:00Z', backDay)).toBe('Tomorrow');
    expect(dayLabel('2026-10-25T23:30:00Z', backDay)).toBe('Today');
    // 23:30 GMT on Saturday 28 March 2026, the night the clocks go forward: Monday 00:15 is 23h45 away.
    const forwardEve = new Date('2026-03-28T23:30:00Z');
    expect(dayLabel('2026-03-29T19:00:00Z', forwardEve)).toBe('Tomorrow');
    expect(dayLabel('2026-03-29T23:15:00Z', forwardEve)).toBe('Mon 30 Mar');
    expect(dayLabel('2026-03-27T23:15:00Z', forwardEve)).toBe('Yesterday');
  });

  it('describes a mixer by its status', () => {
    const base = { startsAt: '2026-11-23T19:30:00Z', endsAt: '2026-11-23T21:00:00Z' };
    expect(whenLabel({ ...base, status: 'scheduled' }, now)).toBe('Tomorrow, 19:30');
    expect(whenLabel({ ...base, status: 'live' }, now)).toBe('Live now · until 21:00');
    expect(whenLabel({ ...base, status: 'ended' }, now)).toBe('Ended · Tomorrow');
    expect(whenLabel({ status: 'scheduled', startsAt: '2026-11-22T21:25:00Z', endsAt: '2026-11-22T22:25:00Z' }, now)).toBe(
      'Starts in 25 min',
    );
    expect(rangeLabel(base, now)).toBe('Tomorrow · 19:30–21:00');
  });
});
