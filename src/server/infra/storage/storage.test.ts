import { describe, expect, it } from 'vitest';
import { SIGNED_URL_TTL_S } from '../../../shared/constants';
import { createUrlSigner } from './storage';

const parse = (url: string) => {
  const u = new URL(url, 'http://x');
  return { key: u.pathname.slice('/api/files/'.length), exp: Number(u.searchParams.get('exp')), sig: u.searchParams.get('sig') ?? '' };
};

describe('signed photo URLs (memoised per expiry bucket)', () => {
  const t0 = Date.UTC(2026, 10, 22, 10, 0, 1);

  it('gives one URL per photo per quarter hour, and each verifies', () => {
    const signer = createUrlSigner('secret-one');
    const first = signer.url('u1/avatar.webp', t0);
    expect(signer.url('u1/avatar.webp', t0 + 60_000)).toBe(first);
    const { key, exp, sig } = parse(first);
    expect(key).toBe('u1/avatar.webp');
    expect(exp * 1000).toBeGreaterThanOrEqual(t0 + SIGNED_URL_TTL_S * 1000);
    expect(signer.verify(key, exp, sig, t0)).toBe(true);
    // Another photo has its own signature, which does not open the first.
    const other = parse(signer.url('u2/avatar.webp', t0));
    expect(other.sig).not.toBe(sig);
    expect(signer.verify(key, exp, other.sig, t0)).toBe(false);
  });

  it('moves to the next bucket with a fresh, valid signature (never an old one)', () => {
    const signer = createUrlSigner('secret-one');
    const early = parse(signer.url('u1/avatar.webp', t0));
    const later = parse(signer.url('u1/avatar.webp', t0 + 15 * 60_000));
    expect(later.exp).toBe(early.exp + 900);
    expect(later.sig).not.toBe(early.sig);
    expect(signer.verify(later.key, later.exp, later.sig, t0 + 15 * 60_000)).toBe(true);
    // Asking with an earlier clock again gives that bucket's own URL, not the memoised later one.
    expect(parse(signer.url('u1/avatar.webp', t0))).toEqual(early);
  });

  it('is per secret: a URL signed with one secret never verifies with another', () => {
    const a = parse(createUrlSigner('secret-one').url('u1/avatar.webp', t0));
    const b = createUrlSigner('secret-two');
    expect(b.verify(a.key, a.exp, a.sig, t0)).toBe(false);
    expect(parse(b.url('u1/avatar.webp', t0)).sig).not.toBe(a.sig);
  });
});
