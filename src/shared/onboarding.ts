/**
 * Pure rules of the onboarding wizard (spec §2 "Onboarding wizard", §4, §5): steps and
 * progress, the date-of-birth lists, counters, the draft and how it merges with the saved
 * profile. Shared by the client (and its tests); no DOM, no Node.
 */
import {
  BIO_MAX,
  DOB_YEAR_SPAN,
  FULL_NAME_MAX,
  INTERESTS_MAX_UI,
  type LookingFor,
  MIN_AGE,
  PROMPT_MAX,
  PROMPT_MIN,
  PRONOUNS_MAX,
} from './constants';
import {
  ageOn,
  type DateParts,
  daysInMonth,
  dobProblem,
  formatDob,
  nameHasLetter,
  type OwnProfile,
  PROFILE_MESSAGES,
  PROMPT_FIELDS,
  parseDob,
  type PromptField,
  todayParts,
} from './profile-texts';
import type { CompleteProfileInput } from './schemas/profile';

export const WIZARD_STEP_KEYS = [
  'welcome',
  'about',
  'dob',
  'gender',
  'orientation',
  'looking-for',
  'interests',
  'location',
  'photos',
  'bio',
  'preview',
] as const;
export type WizardStepKey = (typeof WIZARD_STEP_KEYS)[number];
export const LAST_STEP = WIZARD_STEP_KEYS.length - 1;

/** Progress percent per step (spec §2): 9, 18, … 90, 100. */
const PERCENTS = [9, 18, 27, 36, 45, 54, 63, 72, 81, 90, 100] as const;

export function progressPercent(step: number): number {
  return PERCENTS[clampStep(step)];
}

export const clampStep = (step: number) => Math.min(LAST_STEP, Math.max(0, Math.trunc(Number.isFinite(step) ? step : 0)));

/** "Step N of 11". */
export const stepLabel = (step: number) => `Step ${clampStep(step) + 1} of ${WIZARD_STEP_KEYS.length}`;

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Year list: 100 years, starting 18 years before the current year and going back (spec §2 step 3). */
export function yearOptions(today: DateParts = todayParts()): number[] {
  const first = today.year - MIN_AGE;
  return Array.from({ length: DOB_YEAR_SPAN }, (_, i) => first - i);
}

/** Day list for the chosen month and year (1..28/29/30/31). */
export function dayOptions(month: number | null, year: number | null): number[] {
  return Array.from({ length: daysInMonth(month, year) }, (_, i) => i + 1);
}

export interface DobDraft {
  day: number | null;
  month: number | null;
  year: number | null;
}

/** Sets one part of the date; the day is clamped to the month's length (spec §4). */
export function setDobPart(dob: DobDraft, part: keyof DobDraft, value: number | null): DobDraft {
  const next = { ...dob, [part]: value };
  if (next.day && next.month) next.day = Math.min(next.day, daysInMonth(next.month, next.year));
  return next;
}

/** The date step's state: complete, age, and the message to show (spec §2 step 3, §5). */
export function dobStatus(dob: DobDraft, today: DateParts = todayParts()): { valid: boolean; age: number | null; error: string | null } {
  if (!dob.day || !dob.month || !dob.year) return { valid: false, age: null, error: null };
  const parts = { day: dob.day, month: dob.month, year: dob.year };
  const problem = dobProblem(parts, today);
  return problem ? { valid: false, age: null, error: problem } : { valid: true, age: ageOn(parts, today), error: null };
}

export const greatAgeMessage = (age: number) => `Great! You're ${age} years old.`;

/** Age from a stored "YYYY-MM-DD" date of birth, or null. */
export function ageFromDob(dob: string | null | undefined, today: DateParts = todayParts()): number | null {
  const parts = parseDob(dob);
  return parts ? ageOn(parts, today) : null;
}

/** A prompt's counter: error-coloured outside 60-200, "(min 60)" below the minimum (spec §5). */
export function promptStatus(text: string): { length: number; tooShort: boolean; tooLong: boolean; ok: boolean } {
  const length = text.trim().length;
  const tooShort = length < PROMPT_MIN;
  const tooLong = length > PROMPT_MAX;
  return { length, tooShort, tooLong, ok: !tooShort && !tooLong };
}

/** The first `n` items and how many more there are ("+N more" on the preview card). */
export function takeWithRest<T>(list: readonly T[], n: number): { shown: T[]; rest: number } {
  return { shown: list.slice(0, n), rest: Math.max(0, list.length - n) };
}

/** Toggles an item in a list with a cap; at the cap adding is refused. */
export function toggleCapped<T>(list: readonly T[], item: T, max: number): { list: T[]; refused: boolean } {
  if (list.includes(item)) return { list: list.filter((x) => x !== item), refused: false };
  if (list.length >= max) return { list: [...list], refused: true };
  return { list: [...list, item], refused: false };
}

/** Gender is a single choice: choosing the selected option again clears it (spec §2 step 4). */
export const toggleSingle = (current: readonly string[], option: string): string[] => (current[0] === option ? [] : [option]);

export interface WizardDraft {
  step: number;
  fullName: string;
  pronouns: string;
  dob: DobDraft;
  genderIdentities: string[];
  sexualOrientations: string[];
  lookingFor: LookingFor[];
  interests: string[];
  cityRegion: string;
  avatarKey: string | null;
  photoKeys: string[];
  smallJoy: string;
  loveToTalkAbout: string;
  valueInRelationships: string;
  sharedExperience: string;
  bio: string;
}

export function emptyDraft(): WizardDraft {
  return {
    step: 0,
    fullName: '',
    pronouns: '',
    dob: { day: null, month: null, year: null },
    genderIdentities: [],
    sexualOrientations: [],
    lookingFor: [],
    interests: [],
    cityRegion: '',
    avatarKey: null,
    photoKeys: [],
    smallJoy: '',
    loveToTalkAbout: '',
    valueInRelationships: '',
    sharedExperience: '',
    bio: '',
  };
}

/** Reads a draft kept in browser storage, tolerating old or damaged values. */
export function reviveDraft(raw: unknown): WizardDraft | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const base = emptyDraft();
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
  const dob = (r.dob && typeof r.dob === 'object' ? r.dob : {}) as Record<string, unknown>;
  return {
    ...base,
    step: clampStep(typeof r.step === 'number' ? r.step : 0),
    fullName: str(r.fullName),
    pronouns: str(r.pronouns),
    dob: { day: num(dob.day), month: num(dob.month), year: num(dob.year) },
    genderIdentities: strs(r.genderIdentities),
    sexualOrientations: strs(r.sexualOrientations),
    lookingFor: strs(r.lookingFor).filter((x): x is LookingFor => x === 'Dating' || x === 'Friends' || x === 'Casual'),
    interests: strs(r.interests),
    cityRegion: str(r.cityRegion),
    avatarKey: typeof r.avatarKey === 'string' ? r.avatarKey : null,
    photoKeys: strs(r.photoKeys),
    smallJoy: str(r.smallJoy),
    loveToTalkAbout: str(r.loveToTalkAbout),
    valueInRelationships: str(r.valueInRelationships),
    sharedExperience: str(r.sharedExperience),
    bio: str(r.bio),
  };
}

type SavedProfile = Pick<
  OwnProfile,
  | 'fullName'
  | 'pronouns'
  | 'bio'
  | 'dob'
  | 'genderIdentities'
  | 'sexualOrientations'
  | 'lookingFor'
  | 'interests'
  | 'cityRegion'
  | 'smallJoy'
  | 'loveToTalkAbout'
  | 'valueInRelationships'
  | 'sharedExperience'
  | 'onboardingStep'
> & { avatar: { key: string } | null; photos: { key: string }[] };

const filled = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * On entry the saved profile is merged with the local draft: non-empty saved values win
 * (spec §4). The step is the draft's, else the furthest step the server recorded.
 */
export function mergeDraft(local: WizardDraft | null, saved: SavedProfile | null): WizardDraft {
  const d = local ?? { ...emptyDraft(), step: saved ? clampStep(saved.onboardingStep) : 0 };
  if (!saved) return d;
  const text = (s: string | null | undefined, l: string) => (filled(s) ? s : l);
  const list = <T>(s: T[] | null | undefined, l: T[]) => (s && s.length > 0 ? [...s] : l);
  const savedDob = parseDob(saved.dob);
  return {
    step: d.step,
    fullName: text(saved.fullName, d.fullName),
    pronouns: text(saved.pronouns, d.pronouns),
    dob: savedDob ? { ...savedDob } : d.dob,
    genderIdentities: list(saved.genderIdentities, d.genderIdentities),
    sexualOrientations: list(saved.sexualOrientations, d.sexualOrientations),
    lookingFor: list(
      saved.lookingFor.filter((x): x is LookingFor => ['Dating', 'Friends', 'Casual'].includes(x)),
      d.lookingFor,
    ),
    interests: list(saved.interests, d.interests),
    cityRegion: text(saved.cityRegion, d.cityRegion),
    avatarKey: saved.avatar?.key ?? d.avatarKey,
    // Photos live on the server (uploads and removals go straight there): its list is the truth.
    photoKeys: saved.photos.map((p) => p.key),
    smallJoy: text(saved.smallJoy, d.smallJoy),
    loveToTalkAbout: text(saved.loveToTalkAbout, d.loveToTalkAbout),
    valueInRelationships: text(saved.valueInRelationships, d.valueInRelationships),
    sharedExperience: text(saved.sharedExperience, d.sharedExperience),
    bio: text(saved.bio, d.bio),
  };
}

/** The whole profile for completion (`onboarding_upsert_profile`). */
export function draftToComplete(draft: WizardDraft): CompleteProfileInput {
  const { day, month, year } = draft.dob;
  return {
    fullName: draft.fullName.trim(),
    pronouns: draft.pronouns.trim() || null,
    bio: draft.bio.trim() || null,
    dob: day && month && year ? formatDob({ day, month, year }) : '',
    genderIdentities: draft.genderIdentities,
    sexualOrientations: draft.sexualOrientations,
    lookingFor: draft.lookingFor,
    interests: draft.interests,
    cityRegion: draft.cityRegion.trim() || null,
    avatarUrl: draft.avatarKey,
    photos: draft.photoKeys,
    smallJoy: draft.smallJoy.trim(),
    loveToTalkAbout: draft.loveToTalkAbout.trim(),
    valueInRelationships: draft.valueInRelationships.trim(),
    sharedExperience: draft.sharedExperience.trim(),
  };
}

export const nameError = (name: string): string | null =>
  name.trim() === ''
    ? PROFILE_MESSAGES.nameRequired
    : name.trim().length > FULL_NAME_MAX
      ? PROFILE_MESSAGES.nameTooLong
      : !nameHasLetter(name)
        ? PROFILE_MESSAGES.nameNeedsLetter
        : null;

export const pronounsError = (pronouns: string): string | null =>
  pronouns.trim().length > PRONOUNS_MAX ? PROFILE_MESSAGES.pronounsTooLong : null;

export const bioError = (bio: string): string | null => (bio.trim().length > BIO_MAX ? PROFILE_MESSAGES.bioTooLong : null);

export const promptsReady = (draft: Pick<WizardDraft, PromptField>) => PROMPT_FIELDS.every((f) => promptStatus(draft[f]).ok);

/** Whether a step's Continue moves on (spec §2, §5). */
export function canContinue(step: WizardStepKey, draft: WizardDraft): boolean {
  switch (step) {
    case 'about':
      return !nameError(draft.fullName) && !pronounsError(draft.pronouns);
    case 'dob':
      return dobStatus(draft.dob).valid;
    case 'gender':
      return draft.genderIdentities.length === 1;
    case 'looking-for':
      return draft.lookingFor.length >= 1 && draft.lookingFor.length <= 3;
    case 'interests':
      return draft.interests.length >= 1 && draft.interests.length <= INTERESTS_MAX_UI;
    case 'photos':
      return promptsReady(draft);
    case 'bio':
      return !bioError(draft.bio);
    default:
      return true;
  }
}
