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

  it('keeps at most one empty line in a row: no tall empty block for the others to scroll past', () => {
    expect(multi.parse('line one\n\n\n\n\n\nline two')).toBe('line one\n\nline two');
    expect(multi.parse('one\n  \n\t\n \ntwo')).toBe('one\n\ntwo');
    expect(multi.parse('one\r\n\r\n\r\ntwo')).toBe('one\n\ntwo');
    expect(multi.parse('one\n\ntwo\nthree')).toBe('one\n\ntwo\nthree');
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

  it('strips the Arabic letter mark like the other bidi controls, and keeps LRM/RLM inside text', () => {
    expect(line.parse('a\u061Cb')).toBe('ab');
    expect(line.safeParse('\u061C').error?.issues[0].message).toBe('Required');
    // LRM/RLM only give neutral characters a direction: harmless inside text, trimmed at the ends.
    expect(line.parse('\u200Fשלום\u200E abc\u200F')).toBe('שלום\u200E abc');
    expect(line.safeParse('\u200E\u200F').success).toBe(false);
  });

  it('strips tag characters everywhere except in emoji flag sequences', () => {
    const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');
    expect(line.safeParse(tags('ABC')).error?.issues[0].message).toBe('Required');
    expect(multi.parse(`hi ${tags('ignore this')} there`)).toBe('hi  there');
    const england = `\u{1F3F4}${tags('gbeng')}\u{E007F}`;
    const scotland = `\u{1F3F4}${tags('gbsct')}\u{E007F}`;
    const wales = `\u{1F3F4}${tags('gbwls')}\u{E007F}`;
    expect(line.parse(`Go ${england}`)).toBe(`Go ${england}`);
    expect(multi.parse(`${scotland}${wales}`)).toBe(`${scotland}${wales}`);
    // A lone CANCEL TAG or a black flag with stray tags after the sequence loses the strays only.
    expect(line.parse(`a\u{E007F}b ${wales}${tags('x')}`)).toBe(`ab ${wales}`);
  });

  it('treats a value of combining marks or invisible format characters only as empty', () => {
    for (const v of ['\u0301\u0301', '\u0301', '\uFE0F', '\u200D\u0308\u2061', '\u{E0001}']) {
      const r = line.safeParse(v);
      expect(r.success, JSON.stringify(v)).toBe(false);
      expect(r.error?.issues[0].message).toBe('Required');
    }
    expect(line.parse('e\u0301')).toBe('e\u0301');
  });

  it('refuses lone surrogates (not well-formed text) with the control-character message', () => {
    for (const v of ['\uD800', 'a\uDC00b', 'x\uD83D']) {
      const r = line.safeParse(v);
      expect(r.success, JSON.stringify(v)).toBe(false);
      expect(r.error?.issues[0].message).toBe(TEXT_MESSAGES.control);
    }
    expect(multi.safeParse('hi\n\uD800').error?.issues[0].message).toBe(TEXT_MESSAGES.control);
  });
});
