import { describe, expect, it } from 'vitest';
import type { OwnProfile } from '../../../shared/profile-texts';
import { profileCompletion } from './completion';

const answer = 'A long enough answer to pass the sixty character minimum of the prompts, truly.';
const base: OwnProfile = {
  id: 'u1',
  fullName: 'Ada',
  pronouns: null,
  bio: null,
  dob: '1990-01-01',
  genderIdentities: ['Woman'],
  sexualOrientations: [],
  lookingFor: ['Dating'],
  interests: ['Hiking'],
  avatar: null,
  photos: [],
  funFact: null,
  promptAnswer: null,
  smallJoy: answer,
  loveToTalkAbout: answer,
  valueInRelationships: answer,
  sharedExperience: answer,
  cityRegion: null,
  countryCode: null,
  tz: null,
  shareCityRegion: true,
  locationSource: null,
  onboardingCompleted: true,
  onboardingStep: 10,
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('profileCompletion', () => {
  it('counts the checklist and names what is missing', () => {
    const c = profileCompletion(base);
    expect(c.missing.map((m) => m.label)).toEqual(['A profile picture', 'More photos', 'A short bio', 'At least 3 interests', 'Your city']);
    expect(c.percent).toBe(44);
  });

  it('is 100 when everything is there', () => {
    const ref = { key: 'k', url: 'u', thumbUrl: 't' };
    const c = profileCompletion({ ...base, avatar: ref, photos: [ref], bio: 'Hi', interests: ['a', 'b', 'c'], cityRegion: 'Leeds' });
    expect(c.percent).toBe(100);
    expect(c.missing).toEqual([]);
  });

  it('a prompt outside 60-200 characters is not done', () => {
    const c = profileCompletion({ ...base, smallJoy: 'short' });
    expect(c.items.find((i) => i.section === 'prompts')?.done).toBe(false);
  });
});
