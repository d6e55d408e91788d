import { describe, expect, it } from 'vitest';
import { ageFromDob, firstNameOf } from './members';

describe('member helpers', () => {
  it('computes age on the London calendar date, around birthdays', () => {
    // 23:30 UTC on 21 June 2026 is already 22 June in London (BST).
    const now = new Date('2026-06-21T23:30:00Z');
    expect(ageFromDob('2000-06-22', now)).toBe(26);
    expect(ageFromDob('2000-06-23', now)).toBe(25);
    expect(ageFromDob(null, now)).toBeNull();
    expect(ageFromDob('not a date', now)).toBeNull();
  });

  it('shows first names only', () => {
    expect(firstNameOf('  Maya  Okafor ')).toBe('Maya');
    expect(firstNameOf('')).toBe('Member');
    expect(firstNameOf(null)).toBe('Member');
  });
});
