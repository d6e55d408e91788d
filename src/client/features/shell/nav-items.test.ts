import { describe, expect, it } from 'vitest';
import { badgeLabel, isActivePath, MOBILE_BAR, NAV_ITEMS } from './nav-items';

describe('badgeLabel', () => {
  it('is hidden at 0 and below', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(undefined)).toBeNull();
    expect(badgeLabel(-3)).toBeNull();
  });
  it('shows counts up to 99 and 99+ above', () => {
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
  });
});

describe('navigation', () => {
  it('keeps the spec order', () => {
    expect(NAV_ITEMS.map((i) => i.label)).toEqual([
      'Home',
      'Blog: Modern Loveletters',
      'Mixers',
      'Matches',
      'Messages',
      'Profile',
      'Settings',
    ]);
    expect(MOBILE_BAR).toEqual(['/home', '/mixers', '/matches', '/messages', '/modern-love-letters']);
  });
  it('marks an entry active when the path equals or starts with it', () => {
    expect(isActivePath('/mixers', '/mixers')).toBe(true);
    expect(isActivePath('/mixers/abc', '/mixers')).toBe(true);
    expect(isActivePath('/messages/1', '/mixers')).toBe(false);
  });
});
