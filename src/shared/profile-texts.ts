/**
 * The profile's texts, limits and small rules without zod (issue 33): what member pages show and
 * count on every page (messages, prompts, dates of birth, suggestions). `schemas/profile.ts`
 * re-exports them beside the schemas that check the same rules; a page that only shows them does
 * not load zod.
 */
import { CITY_REGION_MAX, MIN_AGE, PRONOUNS_MAX } from './constants';

/** A name others can read and say: at least one letter, of any script (not only emoji or digits). */
export const NAME_NEEDS_LETTER = 'Please use at least one letter in your name';
export const nameHasLetter = (name: string) => /\p{L}/u.test(name);

/**
 * Who a member is, as seat plans read it (issue 32): gender identity, and orientation with what
 * they are looking for. After onboarding each may change IDENTITY_CHANGE_LIMIT.changes times in
 * IDENTITY_CHANGE_LIMIT.days days; every change is in the audit log and on the member's admin page.
 */
export const IDENTITY_CHANGE_LIMIT = { changes: 2, days: 30 } as const;
export const IDENTITY_KINDS = ['gender', 'orientation'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];
/** The audit action of each kind of change. */
export const IDENTITY_AUDIT_ACTIONS: Record<IdentityKind, string> = {
  gender: 'profile.gender_identity',
  orientation: 'profile.orientation',
};

export const IDENTITY_MESSAGES = {
  genderLimit:
    "You've already changed your gender identity twice in the last 30 days. You can change it again later — or contact support if something is wrong.",
  orientationLimit:
    "You've already changed your orientation or what you're looking for twice in the last 30 days. You can change them again later — or contact support if something is wrong.",
  /** Shown where a member edits these on /profile. */
  identityHint:
    "Your gender identity can change twice in 30 days, and your orientation twice (together with what you're looking for). A seat you hold in an upcoming mixer that no longer fits is given up, and we'll tell you.",
  lookingForHint:
    "What you're looking for can change twice in 30 days (together with your orientation). A seat you hold in an upcoming mixer that no longer fits is given up, and we'll tell you.",
  seatLeftTitle: 'You left a mixer',
  seatLeft: (title: string, side: string) =>
    `Your profile changed, so you no longer fit the ${side} seats of "${title}". We've given up your place so it can go to someone it fits.`,
  invitationDeclinedTitle: 'Invitation declined',
  invitationDeclined: (title: string, side: string) =>
    `Your profile changed, so the seat held for you in "${title}" (for ${side}) no longer fits. We've declined the invitation for you.`,
} as const;

/** Spec §5 messages, word for word, in one place. */
export const PROFILE_MESSAGES = {
  nameRequired: 'Please enter your name',
  nameTooLong: 'Name is too long',
  nameNeedsLetter: NAME_NEEDS_LETTER,
  pronounsTooLong: `Pronouns can be at most ${PRONOUNS_MAX} characters`,
  dobRequired: 'Please select your date of birth.',
  underAge: 'You need to be at least 18.',
  genderRequired: 'Please choose how you identify',
  genderTooMany: 'You can select up to 5 gender identities.',
  orientationLimit: 'You can select up to 5 options. Remove one to add another.',
  lookingForRequired: 'Please pick at least one option',
  lookingForTooMany: 'You can pick up to 3 options',
  interestsRequired: 'Please pick at least one interest',
  interestsMaxToastTitle: 'Maximum reached',
  interestsMaxToast: 'You can select up to 15 interests.',
  interestsMaxNotice: "You've reached the maximum of 15 interests! Remove some to select others.",
  interestUnknown: 'Please choose interests from the list',
  optionUnknown: 'Please choose from the list',
  promptTooShort: 'Please write at least 60 characters',
  promptTooLong: 'Keep it under 200 characters',
  bioTooLong: "That's a bit long — keep it under 800 characters.",
  cityTooLong: `City name can be at most ${CITY_REGION_MAX} characters`,
  photosTooMany: 'You can add up to 9 photos',
  fileTooLarge: 'File is too large. Please use files under 5MB.',
  suggestionRequired: 'Please enter at least one interest',
  suggestionTooLong: 'Keep each interest under 50 characters',
  suggestionTooMany: 'You can suggest up to 10 interests at a time',
  suggestionListed: 'That interest is already in the list. Pick it there instead.',
} as const;

/** "name.jpg: File is too large. Please use files under 5MB." — the per-file message of spec §5. */
/**
 * The photo formats uploads take (judged by their bytes on the server: modules/profiles/images.ts;
 * iPhone HEIC/HEIF photos are decoded there too). The pickers say it in these words.
 */
export const PHOTO_FORMATS = 'JPEG, PNG, WebP, GIF, HEIC (iPhone) or AVIF';
/** The file pickers' `accept`: any image, and iPhone photos where the system gives .heic files no image type. */
export const PHOTO_ACCEPT = 'image/*,.heic,.heif';

export const fileTooLargeMessage = (fileName: string) => `${fileName}: ${PROFILE_MESSAGES.fileTooLarge}`;

/** A calendar date in parts. */
export interface DateParts {
  day: number;
  month: number;
  year: number;
}

/** Today's date in local parts; callers pass a fixed date in tests. */
export function todayParts(now = new Date()): DateParts {
  return { day: now.getDate(), month: now.getMonth() + 1, year: now.getFullYear() };
}

export const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1-12); February follows the year, and has 29 days while no year is chosen. */
export function daysInMonth(month: number | null | undefined, year?: number | null): number {
  if (!month) return 31;
  if (month === 2) return year ? (isLeapYear(year) ? 29 : 28) : 29;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whole years between a date of birth and today. */
export function ageOn(dob: DateParts, today: DateParts = todayParts()): number {
  let age = today.year - dob.year;
  if (today.month < dob.month || (today.month === dob.month && today.day < dob.day)) age--;
  return age;
}

export const MIN_BIRTH_YEAR = 1900;

/** The message for a date of birth, or null when it is a real date of an adult (spec §5). */
export function dobProblem(d: Partial<DateParts>, today: DateParts = todayParts()): string | null {
  const { day, month, year } = d;
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  if (!int(day) || !int(month) || !int(year)) return PROFILE_MESSAGES.dobRequired;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(month, year) || year < MIN_BIRTH_YEAR) return PROFILE_MESSAGES.dobRequired;
  if (year > today.year || ageOn({ day, month, year }, today) < MIN_AGE) return PROFILE_MESSAGES.underAge;
  return null;
}

export const formatDob = (d: DateParts) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function parseDob(value: string | null | undefined): DateParts | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

export const PROMPT_FIELDS = ['smallJoy', 'loveToTalkAbout', 'valueInRelationships', 'sharedExperience'] as const;
export type PromptField = (typeof PROMPT_FIELDS)[number];

/** The four prompts of the photos step, in order, with their labels (spec §2 step 9). */
export const PROMPTS: readonly { field: PromptField; label: string; placeholder: string }[] = [
  {
    field: 'smallJoy',
    label: 'A small joy that matters to me',
    placeholder: 'The first coffee on a slow Sunday, before the flat wakes up…',
  },
  {
    field: 'loveToTalkAbout',
    label: 'A topic I love to talk about',
    placeholder: 'Ask me about the best chippy on the coast and clear your afternoon…',
  },
  {
    field: 'valueInRelationships',
    label: 'Something I value in relationships',
    placeholder: 'Being able to be silly together, and honest when it counts…',
  },
  {
    field: 'sharedExperience',
    label: 'An experience I would like to share with someone',
    placeholder: 'Wild swimming in the Lakes, then a long pub lunch by the fire…',
  },
];

export const SUGGESTION_MAX_LINES = 10;
export const SUGGESTION_MAX_CHARS = 50;

/**
 * Suggestions are grouped, and compared with the interests already listed, by this key: trimmed,
 * lower-case, inner whitespace collapsed (in SQL: `suggestionKeySql`, server/lib/sql.ts).
 */
export const suggestionKey = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Spec §5: the text is trimmed and each non-empty line is one suggestion. */
export function parseSuggestionLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The member's own profile as the API returns it: photos as keys plus signed URLs. */
export interface PhotoRef {
  key: string;
  url: string;
  thumbUrl: string;
}

export interface OwnProfile {
  id: string;
  fullName: string | null;
  pronouns: string | null;
  bio: string | null;
  dob: string | null;
  genderIdentities: string[];
  sexualOrientations: string[];
  lookingFor: string[];
  interests: string[];
  avatar: PhotoRef | null;
  photos: PhotoRef[];
  funFact: string | null;
  promptAnswer: string | null;
  smallJoy: string | null;
  loveToTalkAbout: string | null;
  valueInRelationships: string | null;
  sharedExperience: string | null;
  cityRegion: string | null;
  countryCode: string | null;
  tz: string | null;
  shareCityRegion: boolean;
  locationSource: string | null;
  onboardingCompleted: boolean;
  onboardingStep: number;
  updatedAt: string;
}
