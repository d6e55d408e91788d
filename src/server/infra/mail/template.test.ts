import { describe, expect, it } from 'vitest';
import { memberNameForMail } from './template';

describe('member names in mails to someone else', () => {
  it('keep letters, accents, apostrophes, hyphens and spaces', () => {
    expect(memberNameForMail('Zoë')).toBe('Zoë');
    expect(memberNameForMail("Siân O'Neil-Jones")).toBe("Siân O'Neil-Jones");
  });

  it('can never carry a link, an address or markup', () => {
    for (const name of ['evil.example/win', 'https://evil.example', 'me@evil.example', '<a href=x>Click</a>', 'Call 0800 123']) {
      const safe = memberNameForMail(name);
      expect(safe).toMatch(/^[\p{L}\p{M}' -]+$/u);
      expect(safe).not.toMatch(/[.:/@<>0-9]/);
    }
    expect(memberNameForMail('https://evil.example')).toBe('https evil example');
  });

  it('falls back when nothing is left, and stays short', () => {
    expect(memberNameForMail('1234 ::')).toBe('A member');
    expect(memberNameForMail(null, 'the member')).toBe('the member');
    expect(memberNameForMail('a'.repeat(80))).toHaveLength(30);
  });
});
