import { describe, expect, it } from 'vitest';
import {
  ageOn,
  bioSchema,
  daysInMonth,
  dobPartsSchema,
  dobStringSchema,
  fileTooLargeMessage,
  fullNameSchema,
  interestSuggestionSchema,
  interestsSchema,
  isLeapYear,
  lookingForSchema,
  parseSuggestionLines,
  PROFILE_MESSAGES,
  profileDraftSchema,
  promptSchema,
  pronounsSchema,
  requiredGenderIdentitiesSchema,
  sexualOrientationsSchema,
} from './profile';

const TODAY = { day: 1, month: 3, year: 2026 };
const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error?.issues[0]?.message);

describe('spec §5 rules and messages', () => {
  it('full_name: 1 to 30', () => {
    expect(message(fullNameSchema.safeParse(''))).toBe('Please enter your name');
    expect(message(fullNameSchema.safeParse('   '))).toBe('Please enter your name');
    expect(message(fullNameSchema.safeParse('x'.repeat(31)))).toBe('Name is too long');
    expect(fullNameSchema.parse('  Ada  ')).toBe('Ada');
    // A name needs a letter, of any script: emoji, digits or marks alone are not one.
    for (const name of ['🔥🔥', '123', '!!! ...', '👩‍❤️‍👨'])
      expect(message(fullNameSchema.safeParse(name))).toBe(PROFILE_MESSAGES.nameNeedsLetter);
    for (const name of ['Zoë 🔥', 'Łukasz', '李娜', 'Siân', 'محمد', 'J']) expect(fullNameSchema.safeParse(name).success).toBe(true);
  });

  it('pronouns: up to 40, optional', () => {
    expect(pronounsSchema.safeParse('x'.repeat(40)).success).toBe(true);
    expect(pronounsSchema.safeParse('x'.repeat(41)).success).toBe(false);
    expect(profileDraftSchema.parse({ pronouns: '  ' })).toEqual({ pronouns: null });
    expect(profileDraftSchema.parse({ pronouns: null })).toEqual({ pronouns: null });
  });

  it('dob: real date, 1900 to this year minus 18, adult', () => {
    const s = dobPartsSchema(TODAY);
    expect(s.safeParse({ day: 1, month: 3, year: 2008 }).success).toBe(true);
    expect(message(s.safeParse({ day: 2, month: 3, year: 2008 }))).toBe('You need to be at least 18.');
    expect(message(s.safeParse({ day: 1, month: 1, year: 2015 }))).toBe('You need to be at least 18.');
    expect(message(s.safeParse({ day: 29, month: 2, year: 1999 }))).toBe('Please select your date of birth.');
    expect(s.safeParse({ day: 29, month: 2, year: 1996 }).success).toBe(true);
    expect(message(s.safeParse({ day: 32, month: 1, year: 1990 }))).toBe('Please select your date of birth.');
    expect(message(s.safeParse({ day: 1, month: 13, year: 1990 }))).toBe('Please select your date of birth.');
    expect(message(s.safeParse({ day: 1, month: 1, year: 1899 }))).toBe('Please select your date of birth.');
    expect(message(s.safeParse({ day: null, month: 1, year: 1990 }))).toBe('Please select your date of birth.');
    expect(message(dobStringSchema.safeParse('01/02/1990'))).toBe('Please select your date of birth.');
    expect(dobStringSchema.safeParse('1990-02-01').success).toBe(true);
  });

  it('leap years and month lengths', () => {
    expect([1900, 2000, 2004, 2023].map(isLeapYear)).toEqual([false, true, true, false]);
    expect(daysInMonth(2, 2024)).toBe(29);
    expect(daysInMonth(2, 2100)).toBe(28);
    expect(daysInMonth(9, 2024)).toBe(30);
    expect(ageOn({ day: 29, month: 2, year: 2008 }, { day: 28, month: 2, year: 2026 })).toBe(17);
    expect(ageOn({ day: 29, month: 2, year: 2008 }, { day: 1, month: 3, year: 2026 })).toBe(18);
  });

  it('gender: one required, up to 5 in the schema; orientations up to 5', () => {
    expect(requiredGenderIdentitiesSchema.safeParse([]).success).toBe(false);
    expect(requiredGenderIdentitiesSchema.safeParse(['Woman']).success).toBe(true);
    expect(message(sexualOrientationsSchema.safeParse(['a', 'b', 'c', 'd', 'e', 'f']))).toBe(
      'You can select up to 5 options. Remove one to add another.',
    );
    expect(sexualOrientationsSchema.safeParse([]).success).toBe(true);
  });

  it('looking_for: 1 to 3 of Dating, Friends, Casual', () => {
    expect(message(lookingForSchema.safeParse([]))).toBe('Please pick at least one option');
    expect(lookingForSchema.safeParse(['Dating', 'Friends', 'Casual']).success).toBe(true);
    expect(lookingForSchema.safeParse(['Dating', 'Friends', 'Casual', 'Dating']).success).toBe(false);
    expect(lookingForSchema.safeParse(['Romance']).success).toBe(false);
  });

  it('interests: 1 to 15', () => {
    expect(interestsSchema.safeParse([]).success).toBe(false);
    expect(interestsSchema.safeParse(Array.from({ length: 15 }, (_, i) => `i${i}`)).success).toBe(true);
    expect(message(interestsSchema.safeParse(Array.from({ length: 16 }, (_, i) => `i${i}`)))).toBe(
      'Maximum reached: You can select up to 15 interests.',
    );
  });

  it('prompts: 60 to 200', () => {
    expect(message(promptSchema.safeParse('x'.repeat(59)))).toBe('Please write at least 60 characters');
    expect(promptSchema.safeParse('x'.repeat(60)).success).toBe(true);
    expect(promptSchema.safeParse('x'.repeat(200)).success).toBe(true);
    expect(message(promptSchema.safeParse('x'.repeat(201)))).toBe('Keep it under 200 characters');
    // Surrounding spaces do not count.
    expect(promptSchema.safeParse(`   ${'x'.repeat(58)}   `).success).toBe(false);
  });

  it('bio: up to 800', () => {
    expect(bioSchema.safeParse('b'.repeat(800)).success).toBe(true);
    expect(message(bioSchema.safeParse('b'.repeat(801)))).toBe("That's a bit long — keep it under 800 characters.");
  });

  it('draft: empty city becomes null; unknown fields are refused', () => {
    expect(profileDraftSchema.parse({ cityRegion: '   ' })).toEqual({ cityRegion: null });
    expect(profileDraftSchema.safeParse({ onboardingCompleted: true }).success).toBe(false);
    expect(profileDraftSchema.safeParse({ photos: ['https://evil.example/x.jpg'] }).success).toBe(false);
  });

  it('suggestions: trimmed non-empty lines, 1-10 of 1-50 characters', () => {
    expect(parseSuggestionLines('  Kite surfing \n\n  \nUrban beekeeping\r\n')).toEqual(['Kite surfing', 'Urban beekeeping']);
    expect(interestSuggestionSchema.safeParse({ interests: ['a'.repeat(50)] }).success).toBe(true);
    expect(interestSuggestionSchema.safeParse({ interests: ['a'.repeat(51)] }).success).toBe(false);
    expect(interestSuggestionSchema.safeParse({ interests: Array(11).fill('x') }).success).toBe(false);
    expect(interestSuggestionSchema.safeParse({ interests: [] }).success).toBe(false);
  });

  it('upload message names the file', () => {
    expect(fileTooLargeMessage('beach.jpg')).toBe('beach.jpg: File is too large. Please use files under 5MB.');
  });
});
