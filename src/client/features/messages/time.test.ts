import { describe, expect, it } from 'vitest';
import { dayLabel, isSameDay, listTime } from './time';

const now = new Date(2026, 10, 22, 15, 30); // Sunday 22 November 2026, 15:30 local
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).toISOString();

describe('listTime', () => {
  it.each([
    [at(2026, 11, 22, 15, 29), '1m'],
    [new Date(now.getTime() - 20_000).toISOString(), 'now'],
    [at(2026, 11, 22, 15, 0), '30m'],
    [at(2026, 11, 22, 9, 10), '6h'],
    [at(2026, 11, 21, 23, 59), 'Yesterday'],
    [at(2026, 11, 18), 'Wed'],
    [at(2026, 11, 3), '3 Nov'],
    [at(2025, 12, 31), '31 Dec 2025'],
  ])('%s → %s', (iso, label) => {
    expect(listTime(iso, now)).toBe(label);
  });
});

describe('dayLabel', () => {
  it('names recent days and dates older ones', () => {
    expect(dayLabel(at(2026, 11, 22, 0, 5), now)).toBe('Today');
    expect(dayLabel(at(2026, 11, 21, 23, 0), now)).toBe('Yesterday');
    expect(dayLabel(at(2026, 11, 17), now)).toBe('Tuesday');
    expect(dayLabel(at(2026, 11, 3), now)).toBe('Tuesday 3 November');
    expect(dayLabel(at(2025, 3, 1), now)).toBe('1 March 2025');
  });

  it('isSameDay compares calendar days, not 24-hour spans', () => {
    expect(isSameDay(at(2026, 11, 21, 23, 59), at(2026, 11, 22, 0, 1))).toBe(false);
    expect(isSameDay(at(2026, 11, 22, 0, 1), at(2026, 11, 22, 23, 59))).toBe(true);
  });
});
