import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    expect(
      toCsv(
        ['day', 'source'],
        [
          ['2026-01-01', 'poster, leeds'],
          ['2026-01-02', 'say "hi"'],
          ['2026-01-03', '=1+1'],
          ['x', -3],
        ],
      ),
    ).toBe('day,source\r\n2026-01-01,"poster, leeds"\r\n2026-01-02,"say ""hi"""\r\n2026-01-03,\'=1+1\r\nx,-3\r\n');
  });
});
