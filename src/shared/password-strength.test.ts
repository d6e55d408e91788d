import { describe, expect, it } from 'vitest';
import { isWeakPassword, passwordWeakness } from './password-strength';

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

  it('says which gave a password away: anyone’s guess, or the member’s own name or address', async () => {
    const priya = ['priya.sharma@example.com', 'Priya Sharma'];
    expect(await passwordWeakness('Priya Sharma1!', priya)).toBe('own-words');
    expect(await passwordWeakness('Sharma Priya 2026!', priya)).toBe('own-words');
    expect(await passwordWeakness('priya.sharma88!', ['priya.sharma88@example.com'])).toBe('own-words');
    for (const password of ['Password123!', 'qwerty123', 'Fancy2026!', 'Liverpool2024!']) {
      expect(await passwordWeakness(password, priya), password).toBe('common');
      expect(await passwordWeakness(password), password).toBe('common');
    }
    expect(await passwordWeakness('velvet-otter-lantern', priya)).toBeNull();
  });
});
