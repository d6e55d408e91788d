import { describe, expect, it } from 'vitest';
import { forgetInheritedScroll } from './scroll-start';

const KEY = 'react-router-scroll-positions';
function storage(positions?: Record<string, number>) {
  const map = new Map<string, string>(positions ? [[KEY, JSON.stringify(positions)]] : []);
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    positions: () => JSON.parse(map.get(KEY) ?? '{}') as Record<string, number>,
  };
}

describe('a page reached anew opens at its top', () => {
  it('forgets the position kept for the entry the page loads in, and only that one', () => {
    const first = storage({ default: 531, abc123: 40 });
    forgetInheritedScroll(first, 'navigate', 'default');
    expect(first.positions()).toEqual({ abc123: 40 });
    // The same address loaded again keeps its entry's key.
    const same = storage({ default: 12, zrz25fvs: 1041 });
    forgetInheritedScroll(same, 'navigate', 'zrz25fvs');
    expect(same.positions()).toEqual({ default: 12 });
  });

  it('keeps it on a reload and on back/forward, where the browser returns to the same place', () => {
    for (const type of ['reload', 'back_forward'] as const) {
      const s = storage({ default: 531 });
      forgetInheritedScroll(s, type, 'default');
      expect(s.positions()).toEqual({ default: 531 });
    }
  });

  it('does nothing when nothing was kept or what was kept is unreadable', () => {
    const empty = storage();
    forgetInheritedScroll(empty, 'navigate', 'default');
    expect(empty.positions()).toEqual({});
    const broken = { getItem: () => '{not json', setItem: () => undefined };
    expect(() => forgetInheritedScroll(broken, 'navigate', 'default')).not.toThrow();
  });
});
