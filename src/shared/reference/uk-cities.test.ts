import { describe, expect, it } from 'vitest';
import { CITY_SEARCH_LIMIT, UK_CITIES, findCity, searchCities, type UkCountry } from './uk-cities';

const COUNTRIES: UkCountry[] = ['England', 'Scotland', 'Wales', 'Northern Ireland'];

describe('UK_CITIES', () => {
  it('is sorted by name using en-GB collation', () => {
    const names = UK_CITIES.map((c) => c.name);
    const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en-GB'));
    expect(names).toEqual(sorted);
  });

  it('has roughly 80 entries', () => {
    expect(UK_CITIES.length).toBeGreaterThanOrEqual(75);
    expect(UK_CITIES.length).toBeLessThanOrEqual(90);
  });

  it('represents all four countries', () => {
    const present = new Set(UK_CITIES.map((c) => c.country));
    for (const country of COUNTRIES) {
      expect(present.has(country), country).toBe(true);
    }
    expect(present.size).toBe(COUNTRIES.length);
  });

  it('has no duplicate names (case-insensitive)', () => {
    const lower = UK_CITIES.map((c) => c.name.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });

  it('has non-empty, trimmed names and regions', () => {
    for (const city of UK_CITIES) {
      expect(city.name.trim()).toBe(city.name);
      expect(city.name.length).toBeGreaterThan(0);
      expect(city.region.trim()).toBe(city.region);
      expect(city.region.length).toBeGreaterThan(0);
    }
  });

  it('includes the major cities', () => {
    for (const name of ['London', 'Manchester', 'Birmingham', 'Glasgow', 'Edinburgh', 'Cardiff', 'Belfast']) {
      expect(findCity(name), name).toBeDefined();
    }
  });
});

describe('searchCities', () => {
  it('uses a default limit of 50', () => {
    expect(CITY_SEARCH_LIMIT).toBe(50);
  });

  it('returns the first 50 cities for an empty query', () => {
    expect(searchCities('')).toEqual(UK_CITIES.slice(0, 50));
    expect(searchCities('   ')).toHaveLength(50);
  });

  it('respects an explicit limit', () => {
    expect(searchCities('', 5)).toEqual(UK_CITIES.slice(0, 5));
    expect(searchCities('a', 3)).toHaveLength(3);
    expect(searchCities('London', 0)).toEqual([]);
  });

  it('matches by name substring', () => {
    const names = searchCities('chester').map((c) => c.name);
    expect(names).toContain('Manchester');
    expect(names).toContain('Chester');
  });

  it('matches by region', () => {
    const results = searchCities('Greater London');
    expect(results.length).toBeGreaterThan(1);
    expect(results.every((c) => c.region === 'Greater London')).toBe(true);
    expect(results.map((c) => c.name)).toContain('London');
  });

  it('matches by country', () => {
    const results = searchCities('northern ireland');
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((c) => c.country === 'Northern Ireland')).toBe(true);
    expect(results.map((c) => c.name)).toContain('Belfast');
    const scottish = searchCities('Scotland');
    expect(scottish.every((c) => c.country === 'Scotland')).toBe(true);
    expect(scottish.map((c) => c.name)).toContain('Glasgow');
  });

  it('puts the city named first, then names that start or contain it, then region and country', () => {
    const york = searchCities('york').map((c) => c.name);
    expect(york[0]).toBe('York');
    expect(york.slice(1)).toEqual(
      searchCities('yorkshire')
        .map((c) => c.name)
        .filter((n) => n !== 'York'),
    );
    const chester = searchCities('chester').map((c) => c.name);
    expect(chester.indexOf('Chester')).toBe(0);
    expect(chester.indexOf('Chester')).toBeLessThan(chester.indexOf('Manchester'));
    expect(searchCities('york', 1).map((c) => c.name)).toEqual(['York']);
  });

  it('is case-insensitive and trims the query', () => {
    expect(searchCities('  gLaSgOw ')).toEqual(searchCities('Glasgow'));
    expect(searchCities('EDINBURGH').map((c) => c.name)).toContain('Edinburgh');
  });

  it('returns results in list order', () => {
    const results = searchCities('wales');
    const indexes = results.map((c) => UK_CITIES.indexOf(c));
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it('returns at most 50 results for a broad query', () => {
    const results = searchCities('a');
    expect(results.length).toBeLessThanOrEqual(50);
    expect(results.length).toBeGreaterThan(0);
  });

  it('returns nothing for an unknown place', () => {
    expect(searchCities('Atlantis-on-Sea')).toEqual([]);
  });
});

describe('findCity', () => {
  it('finds an exact name case-insensitively', () => {
    expect(findCity('london')?.name).toBe('London');
    expect(findCity('DERRY~LONDONDERRY')?.country).toBe('Northern Ireland');
    expect(findCity('Swansea')?.country).toBe('Wales');
  });

  it('does not do substring matching', () => {
    expect(findCity('Lond')).toBeUndefined();
    expect(findCity('Chester')?.name).toBe('Chester');
  });

  it('returns undefined for unknown or empty names', () => {
    expect(findCity('Gotham')).toBeUndefined();
    expect(findCity('')).toBeUndefined();
  });
});
