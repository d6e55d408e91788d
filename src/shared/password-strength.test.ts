import { describe, expect, it } from 'vitest';
import { isWeakPassword } from './password-strength';

describe('password strength (docs/decisions/006)', () => {
  it('refuses the app’s own words and UK places of the city list with capitals, digits and symbols', async () => {
    for (const password of [
      'Fancy2026!',
      'Liverpool2024!',
      'Fancy-dating-2026',
      'Manchester1!',
      'Mixer2025!',
      'Edinburgh#2024',
      'fancymixer2026',
      'MiltonKeynes1!',
    ]) {
      expect(await isWeakPassword(password), password).toBe(true);
    }
  });

  it('still accepts passwords that are hard to guess', async () => {
    for (const password of [
      'velvet-otter-lantern',
      'a-brand-new-passphrase',
      'correct horse battery staple',
      'fancy-velvet-otter-lantern',
    ]) {
      expect(await isWeakPassword(password), password).toBe(false);
    }
  });

  it('refuses the member’s own name and address, the local part included', async () => {
    expect(await isWeakPassword('Priya Sharma1!', ['priya.sharma@example.com', 'Priya Sharma'])).toBe(true);
    expect(await isWeakPassword('priya.sharma88!', ['priya.sharma88@example.com'])).toBe(true);
    expect(await isWeakPassword('Sharma Priya 2026!', ['Priya Sharma'])).toBe(true);
    expect(await isWeakPassword('Sharma Priya 2026!', ['Ada Lovelace'])).toBe(false);
  });
});
