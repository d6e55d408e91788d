/**
 * The wizard's draft as a draft update (spec §7), checked field by field with the schema the server
 * uses. Apart from `onboarding.ts`, which every member page can use without loading zod (issue 33).
 */
import { clampStep, dobStatus, type WizardDraft } from './onboarding';
import { formatDob } from './profile-texts';
import { type ProfileDraftInput, profileDraftSchema } from './schemas/profile';

/** The draft as a draft update (spec §7): every field that is valid on its own, nothing else. */
export function draftToPatch(draft: WizardDraft, furthestStep: number): ProfileDraftInput {
  const status = dobStatus(draft.dob);
  const candidate: Record<string, unknown> = {
    fullName: draft.fullName,
    pronouns: draft.pronouns,
    bio: draft.bio,
    genderIdentities: draft.genderIdentities,
    sexualOrientations: draft.sexualOrientations,
    lookingFor: draft.lookingFor,
    interests: draft.interests,
    cityRegion: draft.cityRegion,
    smallJoy: draft.smallJoy,
    loveToTalkAbout: draft.loveToTalkAbout,
    valueInRelationships: draft.valueInRelationships,
    sharedExperience: draft.sharedExperience,
    step: clampStep(furthestStep),
  };
  if (status.valid && draft.dob.day && draft.dob.month && draft.dob.year) {
    candidate.dob = formatDob({ day: draft.dob.day, month: draft.dob.month, year: draft.dob.year });
  }
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (profileDraftSchema.safeParse({ [key]: value }).success) patch[key] = value;
  }
  return patch as ProfileDraftInput;
}
