import { describe, expect, it } from 'vitest';
import { emailHash, mailboxOf } from './banned-emails';

describe('the mailbox a banned address delivers to', () => {
  it('folds case, spaces, +tags and Gmail dots and domains, so a variant of a banned address is the same one', () => {
    const variants = ['maya@gmail.com', ' Maya@Gmail.com ', 'm.a.y.a@gmail.com', 'maya+again@gmail.com', 'M.aya+x@googlemail.com'];
    for (const v of variants) expect(mailboxOf(v), v).toBe('maya@gmail.com');
    expect(new Set(variants.map(emailHash)).size).toBe(1);
  });

  it('keeps dots where the provider does not ignore them, and tells different mailboxes apart', () => {
    expect(mailboxOf('jo.smith+news@example.co.uk')).toBe('jo.smith@example.co.uk');
    expect(mailboxOf('jo.smith@example.co.uk')).not.toBe(mailboxOf('josmith@example.co.uk'));
    expect(emailHash('maya@gmail.com')).not.toBe(emailHash('maya@hotmail.com'));
  });
});
