import { draftToPatch } from './onboarding-draft';
import { describe, expect, it } from 'vitest';
import {
  bioError,
  canContinue,
  dayOptions,
  type DobDraft,
  dobStatus,
  draftToComplete,
  emptyDraft,
  greatAgeMessage,
  mergeDraft,
  nameError,
  progressPercent,
  promptStatus,
  pronounsError,
  reviveDraft,
  setDobPart,
  stepLabel,
  takeWithRest,
  toggleCapped,
  toggleSingle,
  WIZARD_STEP_KEYS,
  type WizardDraft,
  yearOptions,
} from './onboarding';
import { searchCities, UK_CITIES } from './reference/uk-cities';
import { completeProfileSchema, type OwnProfile } from './schemas/profile';

const TODAY = { day: 15, month: 6, year: 2026 };
const LONG_PROMPT = 'A'.repeat(60);

describe('steps and progress', () => {
  it('has eleven steps with the spec percents and "Step N of 11"', () => {
    expect(WIZARD_STEP_KEYS).toHaveLength(11);
    expect(WIZARD_STEP_KEYS.map((_, i) => progressPercent(i))).toEqual([9, 18, 27, 36, 45, 54, 63, 72, 81, 90, 100]);
    expect(stepLabel(0)).toBe('Step 1 of 11');
    expect(stepLabel(10)).toBe('Step 11 of 11');
    expect(progressPercent(-3)).toBe(9);
    expect(progressPercent(42)).toBe(100);
  });
});

describe('date of birth', () => {
  it('lists 100 years starting 18 years ago', () => {
    const years = yearOptions(TODAY);
    expect(years).toHaveLength(100);
    expect(years[0]).toBe(2008);
    expect(years.at(-1)).toBe(1909);
  });

  it('adapts the day list to month and leap years', () => {
    expect(dayOptions(null, null)).toHaveLength(31);
    expect(dayOptions(4, 2000)).toHaveLength(30);
    expect(dayOptions(2, 2000)).toHaveLength(29);
    expect(dayOptions(2, 1900)).toHaveLength(28);
    expect(dayOptions(2, 2004)).toHaveLength(29);
    expect(dayOptions(2, 2003)).toHaveLength(28);
    expect(dayOptions(2, null)).toHaveLength(29);
    expect(dayOptions(12, 1999)).toHaveLength(31);
  });

  it('clamps the day when the month or year changes', () => {
    let dob: DobDraft = { day: 31, month: 1, year: 2001 };
    dob = setDobPart(dob, 'month', 4);
    expect(dob).toEqual({ day: 30, month: 4, year: 2001 });
    dob = setDobPart({ day: 29, month: 2, year: 2004 }, 'year', 2003);
    expect(dob.day).toBe(28);
    dob = setDobPart({ day: 31, month: 3, year: null }, 'month', 2);
    expect(dob.day).toBe(29);
    dob = setDobPart({ day: 15, month: 3, year: 2000 }, 'day', 31);
    expect(dob.day).toBe(31);
  });

  it('says how old you are, or that you need to be 18', () => {
    expect(dobStatus({ day: null, month: 1, year: 2000 }, TODAY)).toEqual({ valid: false, age: null, error: null });
    expect(dobStatus({ day: 15, month: 6, year: 2008 }, TODAY)).toEqual({ valid: true, age: 18, error: null });
    expect(dobStatus({ day: 16, month: 6, year: 2008 }, TODAY)).toEqual({ valid: false, age: null, error: 'You need to be at least 18.' });
    expect(dobStatus({ day: 29, month: 2, year: 2000 }, TODAY).age).toBe(26);
    expect(dobStatus({ day: 29, month: 2, year: 2001 }, TODAY).error).toBe('Please select your date of birth.');
    expect(greatAgeMessage(26)).toBe("Great! You're 26 years old.");
  });
});

describe('field rules and messages', () => {
  it('full name 1-30 and pronouns up to 40', () => {
    expect(nameError('   ')).toBe('Please enter your name');
    expect(nameError('x'.repeat(31))).toBe('Name is too long');
    expect(nameError(` ${'x'.repeat(30)} `)).toBeNull();
    expect(nameError('🌈🌈')).toBe('Please use at least one letter in your name');
    expect(nameError('Ana 🌈')).toBeNull();
    expect(pronounsError('p'.repeat(40))).toBeNull();
    expect(pronounsError('p'.repeat(41))).toMatch(/40/);
  });

  it('bio up to 800', () => {
    expect(bioError('b'.repeat(800))).toBeNull();
    expect(bioError('b'.repeat(801))).toBe("That's a bit long — keep it under 800 characters.");
  });

  it('prompt counters: (min 60) below, error outside 60-200', () => {
    expect(promptStatus('hi')).toEqual({ length: 2, tooShort: true, tooLong: false, ok: false });
    expect(promptStatus(LONG_PROMPT).ok).toBe(true);
    expect(promptStatus('x'.repeat(200)).ok).toBe(true);
    expect(promptStatus('x'.repeat(201))).toMatchObject({ tooLong: true, ok: false });
  });

  it('gender is one choice; choosing it again clears it', () => {
    expect(toggleSingle([], 'Woman')).toEqual(['Woman']);
    expect(toggleSingle(['Woman'], 'Man')).toEqual(['Man']);
    expect(toggleSingle(['Woman'], 'Woman')).toEqual([]);
  });

  it('caps orientations at 5 and interests at 15', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(toggleCapped(five, 'f', 5)).toEqual({ list: five, refused: true });
    expect(toggleCapped(five, 'a', 5)).toEqual({ list: ['b', 'c', 'd', 'e'], refused: false });
    const fifteen = Array.from({ length: 15 }, (_, i) => `i${i}`);
    expect(toggleCapped(fifteen, 'sixteenth', 15).refused).toBe(true);
  });

  it('decides when Continue moves on', () => {
    const d: WizardDraft = { ...emptyDraft(), fullName: 'Ada' };
    expect(canContinue('about', d)).toBe(true);
    expect(canContinue('about', { ...d, fullName: '  ' })).toBe(false);
    expect(canContinue('orientation', d)).toBe(true);
    expect(canContinue('gender', d)).toBe(false);
    expect(canContinue('gender', { ...d, genderIdentities: ['Woman'] })).toBe(true);
    expect(canContinue('looking-for', d)).toBe(false);
    expect(canContinue('looking-for', { ...d, lookingFor: ['Casual'] })).toBe(true);
    expect(canContinue('interests', { ...d, interests: ['Chess'] })).toBe(true);
    expect(canContinue('interests', { ...d, interests: Array.from({ length: 16 }, (_, i) => `i${i}`) })).toBe(false);
    const prompts = { smallJoy: LONG_PROMPT, loveToTalkAbout: LONG_PROMPT, valueInRelationships: LONG_PROMPT, sharedExperience: 'short' };
    expect(canContinue('photos', { ...d, ...prompts })).toBe(false);
    expect(canContinue('photos', { ...d, ...prompts, sharedExperience: LONG_PROMPT })).toBe(true);
    expect(canContinue('bio', { ...d, bio: 'b'.repeat(801) })).toBe(false);
  });
});

describe('preview card lists', () => {
  it('shows the first N and "+N more"', () => {
    expect(takeWithRest(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 6)).toEqual({ shown: ['a', 'b', 'c', 'd', 'e', 'f'], rest: 2 });
    expect(takeWithRest(['a', 'b'], 3)).toEqual({ shown: ['a', 'b'], rest: 0 });
    expect(takeWithRest([1, 2, 3, 4, 5], 3).rest).toBe(2);
  });
});

describe('city search', () => {
  it('returns at most 50 matches', () => {
    expect(searchCities('').length).toBe(Math.min(50, UK_CITIES.length));
    expect(searchCities('e').length).toBeLessThanOrEqual(50);
  });
  it('matches name, region or country, case-insensitively', () => {
    expect(searchCities('GLASGOW').map((c) => c.name)).toContain('Glasgow');
    expect(
      searchCities('greater london').every((c) => c.region === 'Greater London' || c.name.toLowerCase().includes('greater london')),
    ).toBe(true);
    expect(searchCities('greater london').length).toBeGreaterThan(1);
    const wales = searchCities('wales');
    expect(wales.length).toBeGreaterThan(0);
    expect(wales.every((c) => c.country === 'Wales' || c.region.toLowerCase().includes('wales'))).toBe(true);
    expect(searchCities('zzzz')).toEqual([]);
  });
});

describe('draft', () => {
  const saved = (over: Partial<OwnProfile> = {}) =>
    ({
      fullName: null,
      pronouns: null,
      bio: null,
      dob: null,
      genderIdentities: [],
      sexualOrientations: [],
      lookingFor: [],
      interests: [],
      cityRegion: null,
      smallJoy: null,
      loveToTalkAbout: null,
      valueInRelationships: null,
      sharedExperience: null,
      onboardingStep: 0,
      avatar: null,
      photos: [],
      ...over,
    }) as Parameters<typeof mergeDraft>[1];

  it('merges the saved profile over the browser draft where saved values are non-empty', () => {
    const local: WizardDraft = {
      ...emptyDraft(),
      step: 6,
      fullName: 'Local',
      pronouns: 'they/them',
      interests: ['Chess'],
      bio: 'local bio',
    };
    const merged = mergeDraft(local, saved({ fullName: 'Server', pronouns: '  ', interests: [], dob: '1990-05-04', onboardingStep: 4 }));
    expect(merged).toMatchObject({ step: 6, fullName: 'Server', pronouns: 'they/them', interests: ['Chess'], bio: 'local bio' });
    expect(merged.dob).toEqual({ day: 4, month: 5, year: 1990 });
  });

  it('resumes at the furthest saved step when the browser has no draft', () => {
    expect(mergeDraft(null, saved({ onboardingStep: 7 })).step).toBe(7);
    expect(mergeDraft(null, null).step).toBe(0);
  });

  it('revives a stored draft defensively', () => {
    expect(reviveDraft(null)).toBeNull();
    const d = reviveDraft({ step: 99, fullName: 3, lookingFor: ['Dating', 'Marriage'], dob: { day: 'x', month: 2, year: 2000 } });
    expect(d).toMatchObject({ step: 10, fullName: '', lookingFor: ['Dating'], dob: { day: null, month: 2, year: 2000 } });
  });

  it('sends only fields that are valid on their own, with an adult date', () => {
    const d: WizardDraft = {
      ...emptyDraft(),
      fullName: '',
      pronouns: 'p'.repeat(41),
      dob: { day: 1, month: 1, year: 1995 },
      cityRegion: '',
      interests: ['Chess'],
      smallJoy: 'draft',
    };
    const patch = draftToPatch(d, 5);
    expect(patch).not.toHaveProperty('fullName');
    expect(patch).not.toHaveProperty('pronouns');
    expect(patch).toMatchObject({ dob: '1995-01-01', cityRegion: '', interests: ['Chess'], smallJoy: 'draft', step: 5 });
    const young = draftToPatch({ ...d, dob: { day: 1, month: 1, year: new Date().getFullYear() - 10 } }, 2);
    expect(young).not.toHaveProperty('dob');
  });

  it('builds a completion payload the shared schema accepts', () => {
    const d: WizardDraft = {
      ...emptyDraft(),
      fullName: ' Ada ',
      dob: { day: 10, month: 12, year: 1990 },
      genderIdentities: ['Woman'],
      lookingFor: ['Friends'],
      interests: ['Chess'],
      smallJoy: LONG_PROMPT,
      loveToTalkAbout: LONG_PROMPT,
      valueInRelationships: LONG_PROMPT,
      sharedExperience: LONG_PROMPT,
    };
    const body = draftToComplete(d);
    expect(body).toMatchObject({ fullName: 'Ada', dob: '1990-12-10', cityRegion: null, pronouns: null, bio: null });
    expect(completeProfileSchema.safeParse(body).success).toBe(true);
    const bad = completeProfileSchema.safeParse({ ...body, smallJoy: 'short' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('Please write at least 60 characters');
  });
});
