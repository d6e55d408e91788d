import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as zm } from 'zod/mini';
import { memberTextChecks, TEXT_MESSAGES } from './text';

const line = z
  .string()
  .check(...memberTextChecks())
  .trim()
  .min(1, 'Required')
  .max(20);
const multi = zm.string().check(...memberTextChecks('multiline'), zm.trim(), zm.minLength(1, 'Required'));

describe('member text checks', () => {
  it('refuses NUL and other control characters with a clear message', () => {
    for (const v of ['a\u0000b', 'a\u0007', 'a\u001Bb', 'a\u007F', 'a\u0085b', 'one\ntwo', 'a\tb']) {
      const r = line.safeParse(v);
      expect(r.success, JSON.stringify(v)).toBe(false);
      expect(r.error?.issues[0].message).toBe(TEXT_MESSAGES.control);
    }
    expect(multi.safeParse('a\u0000b').success).toBe(false);
  });

  it('allows newlines and tabs in multi-line fields, CRLF becoming LF', () => {
    expect(multi.parse('one\r\ntwo\tthree')).toBe('one\ntwo\tthree');
  });

  it('refuses zero-width-only and whitespace-only values through the field’s own rule', () => {
    for (const v of ['\u200B', '\u200B\u200C\u200D\uFEFF', ' \u2060 ', '\u3164']) {
      const r = line.safeParse(v);
      expect(r.success, JSON.stringify(v)).toBe(false);
      expect(r.error?.issues[0].message).toBe('Required');
    }
    expect(multi.safeParse('\u200B\n\u200B').success).toBe(false);
  });

  it('strips bidi overrides and isolates so they never reach other members', () => {
    expect(line.parse('\u202Egnp.exe\u202C')).toBe('gnp.exe');
    expect(multi.parse('a\u2066b\u2069c\u202Ad')).toBe('abcd');
    // A value made only of them is empty.
    expect(line.safeParse('\u202E\u2067').success).toBe(false);
  });

  it('keeps ordinary text, emoji and joiners inside words', () => {
    expect(line.parse('  Zoë 👩‍👩‍👧  ')).toBe('Zoë 👩‍👩‍👧');
  });
});
