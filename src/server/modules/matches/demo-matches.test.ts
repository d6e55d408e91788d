import { describe, expect, it } from 'vitest';
import { DM_MAX_LENGTH } from '../../../shared/schemas/messages';
import { DEMO_ACCOUNT_KEYS, DEMO_MATCHES, DEMO_MIXERS } from '../../db/seed/demo-data';

describe('DEMO_MATCHES', () => {
  const mixers = new Map(DEMO_MIXERS.map((m) => [m.key, m]));

  it('pairs members who shared the mixer, after it started, once per pair', () => {
    const pairs = new Set<string>();
    for (const m of DEMO_MATCHES) {
      const mixer = mixers.get(m.mixerKey);
      expect(mixer, m.mixerKey).toBeDefined();
      expect(mixer?.memberKeys).toContain(m.a);
      expect(mixer?.memberKeys).toContain(m.b);
      expect(m.a).not.toBe(m.b);
      expect(-m.minutesAgo).toBeGreaterThan(mixer?.startOffsetMinutes ?? 0);
      const key = [m.a, m.b].sort().join('|');
      expect(pairs.has(key)).toBe(false);
      pairs.add(key);
    }
  });

  it('has messages from the pair only, after the match, in order, within the length limit', () => {
    for (const m of DEMO_MATCHES) {
      let previous = Number.POSITIVE_INFINITY;
      for (const dm of m.messages) {
        expect([m.a, m.b]).toContain(dm.from);
        expect(dm.minutesAgo).toBeLessThan(m.minutesAgo);
        expect(dm.minutesAgo).toBeLessThan(previous);
        expect(dm.minutesAgo).toBeGreaterThan(0);
        expect(dm.body.trim().length).toBeGreaterThan(0);
        expect(dm.body.length).toBeLessThanOrEqual(DM_MAX_LENGTH);
        previous = dm.minutesAgo;
      }
    }
  });

  it('gives the two demo accounts a conversation with each other and other matches of their own', () => {
    const [maya, rhys] = DEMO_ACCOUNT_KEYS;
    const together = DEMO_MATCHES.find((m) => [m.a, m.b].includes(maya) && [m.a, m.b].includes(rhys));
    expect(together?.messages.length).toBeGreaterThanOrEqual(5);
    const met = mixers.get(together?.mixerKey ?? '');
    // They met in a mixer that has ended.
    expect((met?.startOffsetMinutes ?? 0) + (met?.durationMinutes ?? 0)).toBeLessThan(0);
    for (const who of [maya, rhys]) {
      const others = DEMO_MATCHES.filter((m) => m !== together && [m.a, m.b].includes(who));
      expect(others.length).toBeGreaterThanOrEqual(1);
    }
  });
});
