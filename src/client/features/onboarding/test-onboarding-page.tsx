import { OnboardingWizard } from './onboarding-wizard';

/** /test-onboarding (spec §2, unguarded): the wizard as a preview that saves nothing. */
export default function TestOnboardingPage() {
  return <OnboardingWizard preview />;
}
