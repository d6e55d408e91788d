// /profile: editing a profile after onboarding. Kept apart from settings.ts, which the login
// page imports, so the profile rules stay out of the sign-in bundle. zod/mini like the others.
import { z } from 'zod/mini';
import { fullNameSchema } from './auth';
import {
  bioSchema,
  cityRegionSchema,
  interestsSchema,
  lookingForSchema,
  promptSchema,
  pronounsSchema,
  requiredGenderIdentitiesSchema,
  sexualOrientationsSchema,
} from './profile';
import './zod-defaults';

export const PROFILE_EDIT_MESSAGES = {
  dobBySupport: 'Your date of birth can only be changed by our support team.',
  notEditable: "That can't be changed here",
  photoUnknown: 'That photo is no longer on your profile. Please reload the page.',
  orderMismatch: 'Your photos changed meanwhile. Please reload the page and try again.',
} as const;

const trimmedOrNull = (schema: z.ZodMiniType<string, string>) =>
  z.nullable(
    z.pipe(
      schema,
      z.transform((v: string) => v || null),
    ),
  );

/**
 * PATCH /api/me/profile: any subset of the sections of /profile, each by the completion rules
 * of the wizard (a finished profile stays finished). Not here: date of birth (support only),
 * photos (their own endpoints), and anything that is not the member's own profile content.
 */
export const profileEditSchema = z.partial(
  z.strictObject(
    {
      fullName: fullNameSchema,
      pronouns: trimmedOrNull(pronounsSchema),
      bio: trimmedOrNull(bioSchema),
      genderIdentities: requiredGenderIdentitiesSchema,
      sexualOrientations: sexualOrientationsSchema,
      lookingFor: lookingForSchema,
      interests: interestsSchema,
      cityRegion: cityRegionSchema,
      smallJoy: promptSchema,
      loveToTalkAbout: promptSchema,
      valueInRelationships: promptSchema,
      sharedExperience: promptSchema,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? (issue as { keys?: string[] }).keys?.includes('dob')
            ? PROFILE_EDIT_MESSAGES.dobBySupport
            : PROFILE_EDIT_MESSAGES.notEditable
          : undefined,
    },
  ),
);
export type ProfileEditInput = z.input<typeof profileEditSchema>;
export type ProfileEdit = z.output<typeof profileEditSchema>;

const photoKey = z.string().check(z.maxLength(200, PROFILE_EDIT_MESSAGES.photoUnknown));

/** PUT /api/me/profile/photos: the same photos in a new order. */
export const reorderPhotosSchema = z.object({ order: z.array(photoKey).check(z.maxLength(20, PROFILE_EDIT_MESSAGES.orderMismatch)) });

/** POST /api/me/profile/photos/main: this photo becomes the profile picture (the old picture takes its place). */
export const mainPhotoSchema = z.object({ key: photoKey });
