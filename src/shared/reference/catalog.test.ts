import { describe, expect, it } from 'vitest';
import { GENDER_OPTIONS, INTEREST_CATEGORIES, ORIENTATION_OPTIONS, PREDEFINED_INTERESTS, type InterestCategory } from './catalog';

describe('INTEREST_CATEGORIES', () => {
  it('lists the eight categories without duplicates', () => {
    expect(INTEREST_CATEGORIES).toHaveLength(8);
    expect(new Set(INTEREST_CATEGORIES).size).toBe(INTEREST_CATEGORIES.length);
  });
});

describe('PREDEFINED_INTERESTS', () => {
  it('only uses known categories', () => {
    const known = new Set<string>(INTEREST_CATEGORIES);
    for (const interest of PREDEFINED_INTERESTS) {
      expect(known.has(interest.category), `${interest.name}: ${interest.category}`).toBe(true);
    }
  });

  it('has at least 12 interests in every category', () => {
    const counts = new Map<InterestCategory, number>();
    for (const interest of PREDEFINED_INTERESTS) {
      counts.set(interest.category, (counts.get(interest.category) ?? 0) + 1);
    }
    for (const category of INTEREST_CATEGORIES) {
      expect(counts.get(category) ?? 0, category).toBeGreaterThanOrEqual(12);
    }
  });

  it('has names that are unique case-insensitively', () => {
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const { name } of PREDEFINED_INTERESTS) {
      const key = name.toLowerCase();
      if (seen.has(key)) duplicates.push(name);
      seen.add(key);
    }
    expect(duplicates).toEqual([]);
  });

  it('has trimmed names of 2 to 30 characters', () => {
    for (const { name } of PREDEFINED_INTERESTS) {
      expect(name.trim(), name).toBe(name);
      expect(name.length, name).toBeGreaterThanOrEqual(2);
      expect(name.length, name).toBeLessThanOrEqual(30);
    }
  });

  it('uses sentence case (first letter upper case unless it starts with a digit)', () => {
    for (const { name } of PREDEFINED_INTERESTS) {
      const first = name.charAt(0);
      expect(/[0-9]/.test(first) || first === first.toUpperCase(), name).toBe(true);
    }
  });
});

describe('gender and orientation options', () => {
  for (const [label, list] of [
    ['GENDER_OPTIONS', GENDER_OPTIONS],
    ['ORIENTATION_OPTIONS', ORIENTATION_OPTIONS],
  ] as const) {
    it(`${label} is non-empty with unique, trimmed values`, () => {
      expect(list.length).toBeGreaterThan(0);
      expect(new Set(list.map((v) => v.toLowerCase())).size).toBe(list.length);
      for (const value of list) {
        expect(value.trim(), value).toBe(value);
        expect(value.length, value).toBeGreaterThan(0);
      }
    });
  }

  it('offers the core options', () => {
    for (const value of ['Woman', 'Man', 'Non-binary', 'Trans woman', 'Trans man']) {
      expect(GENDER_OPTIONS).toContain(value);
    }
    for (const value of ['Straight', 'Gay', 'Lesbian', 'Bisexual', 'Pansexual', 'Asexual']) {
      expect(ORIENTATION_OPTIONS).toContain(value);
    }
  });
});
