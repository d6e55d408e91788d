import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '../../components/ui/spinner';
import { QueryProvider } from '../../lib/query';

// Loaded on demand: the wizard stays out of the initial JavaScript of / and /auth (DESIGN §7).
const Wizard = lazy(() => import('./wizard'));

/** The onboarding wizard the gate shows (spec §2 gate step 4); `preview` saves nothing (/test-onboarding). */
export function OnboardingWizard({ preview = false }: { preview?: boolean }) {
  return (
    <QueryProvider>
      <Suspense fallback={<FullPageSpinner />}>
        <Wizard preview={preview} />
      </Suspense>
    </QueryProvider>
  );
}
