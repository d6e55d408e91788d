/**
 * The onboarding feature's public surface (decision 025): the wizard and its "finish later"
 * flag for the gates and home, and what the profile page shares with the wizard to edit the
 * same fields: the catalog (interests, genders, orientations), the photo uploads and the
 * picked-interests list.
 */
export {
  fetchOwnProfile,
  genderOptionsQuery,
  interestsQuery,
  orientationOptionsQuery,
  removePhoto,
  uploadAvatar,
  uploadPhotos,
  useGenderOptions,
  useInterests,
  useOrientationOptions,
} from './api';
export { BioField } from './components/bio-field';
export { InterestCatalogue, InterestFilters, useInterestPicker } from './components/interest-picker';
export { OptionChips } from './components/option-chips';
export { PickedInterests } from './components/picked-interests';
export { isOnboardingDeferred, resumeOnboarding } from './deferred';
export { OnboardingWizard } from './onboarding-wizard';
