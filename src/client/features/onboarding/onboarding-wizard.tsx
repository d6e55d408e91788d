// Replaced by the onboarding wizard (issue 5).
export function OnboardingWizard() {
  return null;
}
