import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './sql';

describe('keyset cursors', () => {
  it('round-trips cursors and rejects tampered ones with a 400', () => {
    const isPair = (v: unknown[]): v is [number, string] => v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'string';
    expect(decodeCursor(encodeCursor([3, 'x']), isPair)).toEqual([3, 'x']);
    expect(decodeCursor(undefined, isPair)).toBeUndefined();
    expect(() => decodeCursor('garbage', isPair)).toThrow(/no longer valid/);
    expect(() => decodeCursor(encodeCursor(['x', 3]), isPair)).toThrow(/no longer valid/);
  });
});
