// zod/mini like the auth schemas: small in the client bundle, the same rules on the server.
import { z } from 'zod/mini';
import { memberTextChecks } from './text';
import {
  BIO_MAX,
  CITY_REGION_MAX,
  INTERESTS_MAX_UI,
  LOOKING_FOR_MAX,
  LOOKING_FOR_OPTIONS,
  ORIENTATIONS_MAX,
  PHOTOS_MAX_SCHEMA,
  PROMPT_MAX,
  PROMPT_MIN,
  PRONOUNS_MAX,
} from '../constants';
import { fullNameSchema } from './auth';
import {
  type DateParts,
  dobProblem,
  PROFILE_MESSAGES,
  parseDob,
  SUGGESTION_MAX_CHARS,
  SUGGESTION_MAX_LINES,
  todayParts,
} from '../profile-texts';
import './zod-defaults';

export * from '../profile-texts';
export { fullNameSchema };

export const pronounsSchema = z
  .string()
  .check(...memberTextChecks(), z.trim(), z.maxLength(PRONOUNS_MAX, PROFILE_MESSAGES.pronounsTooLong));

/** Day (1-31), month (1-12), year (1900 to this year minus 18), and an adult (spec §5). */
export function dobPartsSchema(today: DateParts = todayParts()) {
  const part = z.int({ error: PROFILE_MESSAGES.dobRequired });
  return z.object({ day: part, month: part, year: part }).check(
    z.superRefine((v, ctx) => {
      const problem = dobProblem(v, today);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: v });
    }),
  );
}

/** The stored form ("YYYY-MM-DD", `p_dob`), validated as a real adult date of birth. */
export const dobStringSchema = z.string({ error: PROFILE_MESSAGES.dobRequired }).check(
  z.superRefine((value, ctx) => {
    const parts = parseDob(value);
    const problem = parts ? dobProblem(parts) : PROFILE_MESSAGES.dobRequired;
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  }),
);

const unique = <T>(list: T[]) => [...new Set(list)];
const uniqueList = (schema: z.ZodMiniType<string[], string[]>) =>
  z.pipe(
    schema,
    z.transform((l: string[]) => unique(l)),
  );
const atLeastOne = (message: string) => z.minLength(1, message);

const optionLabel = z
  .string()
  .check(...memberTextChecks(), z.trim(), z.minLength(1, PROFILE_MESSAGES.optionUnknown), z.maxLength(60, PROFILE_MESSAGES.optionUnknown));

/** Spec §5: up to 5 in the schema; the step permits one. */
export const genderIdentitiesSchema = uniqueList(z.array(optionLabel).check(z.maxLength(5, PROFILE_MESSAGES.genderTooMany)));
export const requiredGenderIdentitiesSchema = uniqueList(
  z.array(optionLabel).check(z.maxLength(5, PROFILE_MESSAGES.genderTooMany), atLeastOne(PROFILE_MESSAGES.genderRequired)),
);

export const sexualOrientationsSchema = uniqueList(
  z.array(optionLabel).check(z.maxLength(ORIENTATIONS_MAX, PROFILE_MESSAGES.orientationLimit)),
);

const lookingForOption = z.enum(LOOKING_FOR_OPTIONS, { error: PROFILE_MESSAGES.lookingForRequired });
export const lookingForDraftSchema = z.array(lookingForOption).check(z.maxLength(LOOKING_FOR_MAX, PROFILE_MESSAGES.lookingForTooMany));
export const lookingForSchema = z
  .array(lookingForOption)
  .check(z.maxLength(LOOKING_FOR_MAX, PROFILE_MESSAGES.lookingForTooMany), atLeastOne(PROFILE_MESSAGES.lookingForRequired));

const interestName = z
  .string()
  .check(
    ...memberTextChecks(),
    z.trim(),
    z.minLength(1, PROFILE_MESSAGES.interestUnknown),
    z.maxLength(60, PROFILE_MESSAGES.interestUnknown),
  );
const INTERESTS_TOO_MANY = `${PROFILE_MESSAGES.interestsMaxToastTitle}: ${PROFILE_MESSAGES.interestsMaxToast}`;
export const interestsDraftSchema = uniqueList(z.array(interestName).check(z.maxLength(INTERESTS_MAX_UI, INTERESTS_TOO_MANY)));
export const interestsSchema = uniqueList(
  z.array(interestName).check(z.maxLength(INTERESTS_MAX_UI, INTERESTS_TOO_MANY), atLeastOne(PROFILE_MESSAGES.interestsRequired)),
);

/** One of the four prompts: 60-200 characters (spec §5). */
export const promptSchema = z
  .string({ error: PROFILE_MESSAGES.promptTooShort })
  .check(
    ...memberTextChecks('multiline'),
    z.trim(),
    z.minLength(PROMPT_MIN, PROFILE_MESSAGES.promptTooShort),
    z.maxLength(PROMPT_MAX, PROFILE_MESSAGES.promptTooLong),
  );
/** While drafting, a prompt may be short, never too long. */
export const promptDraftSchema = z
  .string()
  .check(...memberTextChecks('multiline'), z.trim(), z.maxLength(PROMPT_MAX, PROFILE_MESSAGES.promptTooLong));

export const bioSchema = z.string().check(...memberTextChecks('multiline'), z.trim(), z.maxLength(BIO_MAX, PROFILE_MESSAGES.bioTooLong));

/** A city name; empty becomes null (spec §7 draft update). */
export const cityRegionSchema = z.nullable(
  z.pipe(
    z.string().check(...memberTextChecks(), z.trim(), z.maxLength(CITY_REGION_MAX, PROFILE_MESSAGES.cityTooLong)),
    z.transform((v: string) => (v === '' ? null : v)),
  ),
);

/** Storage keys of uploaded photos (never URLs): `{userId}/avatar.webp` or `{userId}/photos/{random}.webp`. */
const storageKey = z
  .string()
  .check(z.maxLength(200, 'Unknown photo'), z.regex(/^[A-Za-z0-9_-]+\/(avatar|photos\/[A-Za-z0-9_-]+)\.webp$/, 'Unknown photo'));
export const photosSchema = uniqueList(z.array(storageKey).check(z.maxLength(PHOTOS_MAX_SCHEMA, PROFILE_MESSAGES.photosTooMany)));

/** Optional text: trimmed, empty becomes null. */
const nullableText = (schema: z.ZodMiniType<string, string>) =>
  z.nullable(
    z.pipe(
      schema,
      z.transform((v: string) => (v ? v : null)),
    ),
  );
const legacyText = nullableText(
  z.string().check(...memberTextChecks('multiline'), z.trim(), z.maxLength(PROMPT_MAX, PROFILE_MESSAGES.promptTooLong)),
);

/**
 * Draft update (spec §7): any subset of the fields, each checked on its own; nothing is
 * required yet. `step` records the furthest wizard step reached (0..10).
 */
export const profileDraftSchema = z.partial(
  z.strictObject({
    fullName: fullNameSchema,
    pronouns: nullableText(pronounsSchema),
    bio: nullableText(bioSchema),
    dob: z.nullable(dobStringSchema),
    genderIdentities: genderIdentitiesSchema,
    sexualOrientations: sexualOrientationsSchema,
    lookingFor: lookingForDraftSchema,
    interests: interestsDraftSchema,
    cityRegion: cityRegionSchema,
    avatarUrl: z.nullable(storageKey),
    photos: photosSchema,
    funFact: legacyText,
    promptAnswer: legacyText,
    smallJoy: nullableText(promptDraftSchema),
    loveToTalkAbout: nullableText(promptDraftSchema),
    valueInRelationships: nullableText(promptDraftSchema),
    sharedExperience: nullableText(promptDraftSchema),
    step: z.int().check(z.gte(0), z.lte(10)),
  }),
);
export type ProfileDraftInput = z.input<typeof profileDraftSchema>;
export type ProfileDraft = z.output<typeof profileDraftSchema>;

/** Completion (`onboarding_upsert_profile`): every rule of spec §5 at once. */
export const completeProfileSchema = z.strictObject({
  fullName: fullNameSchema,
  pronouns: z.optional(nullableText(pronounsSchema)),
  bio: z.optional(nullableText(bioSchema)),
  dob: dobStringSchema,
  genderIdentities: requiredGenderIdentitiesSchema,
  sexualOrientations: z._default(sexualOrientationsSchema, []),
  lookingFor: lookingForSchema,
  interests: interestsSchema,
  cityRegion: z.optional(cityRegionSchema),
  avatarUrl: z.optional(z.nullable(storageKey)),
  photos: z._default(photosSchema, []),
  funFact: z.optional(legacyText),
  promptAnswer: z.optional(legacyText),
  smallJoy: promptSchema,
  loveToTalkAbout: promptSchema,
  valueInRelationships: promptSchema,
  sharedExperience: promptSchema,
});
export type CompleteProfileInput = z.input<typeof completeProfileSchema>;
export type CompleteProfile = z.output<typeof completeProfileSchema>;

/** Location (spec §7 `set_location`): a city. Never coordinates. */
export const setLocationSchema = z.object({
  cityRegion: z
    .string()
    .check(
      ...memberTextChecks(),
      z.trim(),
      z.minLength(1, 'Please choose your city'),
      z.maxLength(CITY_REGION_MAX, PROFILE_MESSAGES.cityTooLong),
    ),
});

export const interestSuggestionSchema = z.object({
  interests: z
    .array(
      z
        .string()
        .check(
          ...memberTextChecks(),
          z.trim(),
          z.minLength(1, PROFILE_MESSAGES.suggestionRequired),
          z.maxLength(SUGGESTION_MAX_CHARS, PROFILE_MESSAGES.suggestionTooLong),
        ),
    )
    .check(z.minLength(1, PROFILE_MESSAGES.suggestionRequired), z.maxLength(SUGGESTION_MAX_LINES, PROFILE_MESSAGES.suggestionTooMany)),
});
