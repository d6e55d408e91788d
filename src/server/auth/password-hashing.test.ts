import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { passwordHasher } from './password-hashing';

describe('password hashing', () => {
  it('standard is better-auth’s own scrypt, both ways', async () => {
    const standard = passwordHasher('standard');
    const hash = await standard.hash('velvet-otter-lantern');
    expect(hash).not.toMatch(/^light\$/);
    expect(await verifyPassword({ hash, password: 'velvet-otter-lantern' })).toBe(true);
    expect(await standard.verify({ hash: await hashPassword('velvet-otter-lantern'), password: 'velvet-otter-lantern' })).toBe(true);
    expect(await standard.verify({ hash, password: 'velvet-otter-lanterns' })).toBe(false);
  });

  it('light (tests only) salts every hash, checks the password exactly, and still checks standard hashes', async () => {
    const light = passwordHasher('light');
    const [a, b] = await Promise.all([light.hash('velvet-otter-lantern'), light.hash('velvet-otter-lantern')]);
    expect(a).toMatch(/^light\$[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(a).not.toBe(b);
    expect(await light.verify({ hash: a, password: 'velvet-otter-lantern' })).toBe(true);
    expect(await light.verify({ hash: a, password: 'Velvet-otter-lantern' })).toBe(false);
    expect(await light.verify({ hash: 'light$nothing', password: 'velvet-otter-lantern' })).toBe(false);
    expect(await light.verify({ hash: await hashPassword('velvet-otter-lantern'), password: 'velvet-otter-lantern' })).toBe(true);
  });
});
