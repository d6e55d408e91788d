import { describe, expect, it } from 'vitest';
import { ageFromDob, decodeCursor, encodeCursor, firstNameOf } from './shared';

describe('mixer helpers', () => {
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

  it('round-trips cursors and rejects tampered ones with a 400', () => {
    const isPair = (v: unknown[]): v is [number, string] => v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'string';
    expect(decodeCursor(encodeCursor([3, 'x']), isPair)).toEqual([3, 'x']);
    expect(decodeCursor(undefined, isPair)).toBeUndefined();
    expect(() => decodeCursor('garbage', isPair)).toThrow(/no longer valid/);
    expect(() => decodeCursor(encodeCursor(['x', 3]), isPair)).toThrow(/no longer valid/);
  });
});
