import { describe, expect, it } from 'vitest';
import {
  ageOn,
  fittingPools,
  ineligibility,
  intoOf,
  memberFacts,
  OPEN_POOL,
  PLAN_PRESETS,
  pickSeat,
  planLabel,
  planSeats,
  regionOfCity,
  seatPools,
  sidesFor,
} from './audience';
import { audienceSchema } from './schemas/audience';

const straight = PLAN_PRESETS[0].plan;
const profile = (over: Partial<Parameters<typeof memberFacts>[0]> = {}) => ({
  dob: '2000-06-15',
  city: 'Leeds',
  genderIdentities: ['Woman'],
  sexualOrientations: ['Straight'],
  lookingFor: ['Dating'],
  ...over,
});

describe('ageOn', () => {
  it('counts the birthday itself as the new age, the day before as the old one', () => {
    expect(ageOn('2000-11-25', '2025-11-24')).toBe(24);
    expect(ageOn('2000-11-25', '2025-11-25')).toBe(25);
    expect(ageOn('2000-11-25', '2025-11-26')).toBe(25);
  });
  it('handles a 29 February birthday and missing dates', () => {
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('2000-02-29', '2025-03-01')).toBe(25);
    expect(ageOn(null, '2025-03-01')).toBeNull();
  });
});

describe('the day someone turns 25', () => {
  const band = { region: null, ageMin: 25, ageMax: 34, seatPlan: [] };
  it('is outside a 25–34 band the day before and inside on the day', () => {
    expect(ineligibility(band, memberFacts(profile({ dob: '2000-11-25' }), '2025-11-24'))).toBe('age');
    expect(ineligibility(band, memberFacts(profile({ dob: '2000-11-25' }), '2025-11-25'))).toBeNull();
  });
  it('is outside an 18–24 band from that day', () => {
    const young = { ...band, ageMin: 18, ageMax: 24 };
    expect(ineligibility(young, memberFacts(profile({ dob: '2000-11-25' }), '2025-11-24'))).toBeNull();
    expect(ineligibility(young, memberFacts(profile({ dob: '2000-11-25' }), '2025-11-25'))).toBe('age');
  });
});

describe('where', () => {
  it('maps a listed city to its region and anything else to none', () => {
    expect(regionOfCity('Leeds')).toBe('Yorkshire and the Humber');
    expect(regionOfCity('brighton')).toBe('South East');
    expect(regionOfCity('Atlantis')).toBeNull();
    expect(regionOfCity(null)).toBeNull();
  });
  it('lets members into their own region and online mixers; members without a city only online', () => {
    const leeds = memberFacts(profile(), '2025-01-01');
    const nowhere = memberFacts(profile({ city: null }), '2025-01-01');
    const a = { ageMin: 18, ageMax: 99, seatPlan: [] };
    expect(ineligibility({ ...a, region: 'Yorkshire and the Humber' }, leeds)).toBeNull();
    expect(ineligibility({ ...a, region: 'South East' }, leeds)).toBe('where');
    expect(ineligibility({ ...a, region: null }, leeds)).toBeNull();
    expect(ineligibility({ ...a, region: 'Yorkshire and the Humber' }, nowhere)).toBe('where');
    expect(ineligibility({ ...a, region: null }, nowhere)).toBeNull();
  });
});

describe('gender identity × orientation → sides', () => {
  it('reads straight, gay, lesbian and bi members', () => {
    expect(intoOf(['Woman'], ['Straight'])).toEqual({ men: true, women: false });
    expect(intoOf(['Man'], ['Gay'])).toEqual({ men: true, women: false });
    expect(intoOf(['Woman'], ['Gay'])).toEqual({ men: false, women: true });
    expect(intoOf(['Non-binary'], ['Lesbian'])).toEqual({ men: false, women: true });
    expect(intoOf(['Trans man'], ['Bisexual'])).toEqual({ men: true, women: true });
    expect(intoOf(['Man'], ['Asexual'])).toEqual({ men: false, women: false });
  });
  it('puts each member on the sides they could plausibly fancy someone from', () => {
    expect(sidesFor(profile())).toEqual(['women-into-men', 'everyone']);
    expect(sidesFor(profile({ genderIdentities: ['Man'] }))).toEqual(['men-into-women', 'everyone']);
    expect(sidesFor(profile({ genderIdentities: ['Man'], sexualOrientations: ['Gay'] }))).toEqual(['men-into-men', 'everyone']);
    expect(sidesFor(profile({ sexualOrientations: ['Bisexual'] }))).toEqual(['women-into-men', 'women-into-women', 'everyone']);
    expect(sidesFor(profile({ genderIdentities: ['Non-binary'], sexualOrientations: ['Queer'] }))).toEqual(['everyone']);
  });
  it('gives members not looking for Dating no Dating side at all', () => {
    expect(sidesFor(profile({ lookingFor: ['Friends'] }))).toEqual([]);
  });
  it('keeps a straight man out of a women-into-women mixer but not out of a Friends one', () => {
    const man = memberFacts(profile({ genderIdentities: ['Man'] }), '2025-01-01');
    expect(ineligibility({ region: null, ageMin: 18, ageMax: 99, seatPlan: PLAN_PRESETS[2].plan }, man)).toBe('plan');
    expect(ineligibility({ region: null, ageMin: 18, ageMax: 99, seatPlan: straight }, man)).toBeNull();
    expect(ineligibility({ region: null, ageMin: 18, ageMax: 99, seatPlan: [] }, man)).toBeNull();
  });
});

describe('seat plans', () => {
  it('sums seats, labels plans and falls back to one open pool', () => {
    expect(planSeats(straight)).toBe(8);
    expect(planLabel(straight)).toBe('4 women into men + 4 men into women');
    // A number alone ("8 · open to everyone") read as nothing in particular: it says what it counts.
    expect(planLabel([{ side: 'everyone', seats: 8 }])).toBe('8 seats open to everyone (queer mixer)');
    expect(seatPools([], 6)).toEqual([{ key: OPEN_POOL, seats: 6 }]);
    expect(fittingPools([], memberFacts(profile({ lookingFor: ['Friends'] }), '2025-01-01'))).toEqual([OPEN_POOL]);
  });
  it('rejects duplicate sides, too many seats and an inverted age band', () => {
    const ok = { region: null, ageMin: 25, ageMax: 34, seatPlan: straight };
    expect(audienceSchema.safeParse(ok).success).toBe(true);
    expect(audienceSchema.safeParse({ ...ok, seatPlan: [...straight, straight[0]] }).success).toBe(false);
    expect(audienceSchema.safeParse({ ...ok, seatPlan: [{ side: 'everyone', seats: 11 }] }).success).toBe(false);
    expect(audienceSchema.safeParse({ ...ok, seatPlan: [{ side: 'everyone', seats: 3 }] }).success).toBe(false);
    expect(audienceSchema.safeParse({ ...ok, ageMin: 40 }).success).toBe(false);
    expect(audienceSchema.safeParse({ ...ok, region: 'Narnia' }).success).toBe(false);
  });
  it('seats a member on their side while it has room and waitlists only that side when full', () => {
    const pools = [
      { key: 'women-into-men' as const, seats: 2, joined: 2, waiting: 0 },
      { key: 'men-into-women' as const, seats: 2, joined: 0, waiting: 0 },
    ];
    expect(pickSeat(pools, ['women-into-men', 'everyone'])).toEqual({ key: 'women-into-men', state: 'waitlisted' });
    expect(pickSeat(pools, ['men-into-women', 'everyone'])).toEqual({ key: 'men-into-women', state: 'joined' });
    expect(pickSeat(pools, ['men-into-men'])).toBeNull();
  });
  it('gives a member who fits two sides the one with more open seats', () => {
    const pools = [
      { key: 'women-into-men' as const, seats: 4, joined: 3, waiting: 0 },
      { key: 'women-into-women' as const, seats: 4, joined: 1, waiting: 0 },
    ];
    expect(pickSeat(pools, ['women-into-men', 'women-into-women'])).toEqual({ key: 'women-into-women', state: 'joined' });
  });
});
