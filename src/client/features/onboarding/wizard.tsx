import { Eye, LogIn } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { COMPLETION_REDIRECT_MS } from '../../../shared/constants';
import { draftToComplete, WIZARD_STEP_KEYS } from '../../../shared/onboarding';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FullPageSpinner, Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { useAuth } from '../../lib/auth';
import { completeProfile } from './api';
import { WizardHeader } from './components/wizard-header';
import { setOnboardingDeferred } from './deferred';
import { AboutStep } from './steps/about-step';
import { BioStep } from './steps/bio-step';
import { DobStep } from './steps/dob-step';
import { GenderStep, OrientationStep } from './steps/identity-steps';
import { InterestsStep } from './steps/interests-step';
import { LocationStep } from './steps/location-step';
import { LookingForStep } from './steps/looking-for-step';
import { PhotosStep } from './steps/photos-step';
import { PreviewStep } from './steps/preview-step';
import type { StepProps } from './steps/types';
import { WelcomeStep } from './steps/welcome-step';
import { clearLocalDraft, useWizardDraft } from './use-wizard-draft';

const STEPS = {
  welcome: WelcomeStep,
  about: AboutStep,
  dob: DobStep,
  gender: GenderStep,
  orientation: OrientationStep,
  'looking-for': LookingForStep,
  interests: InterestsStep,
  location: LocationStep,
  photos: PhotosStep,
  bio: BioStep,
} satisfies Record<Exclude<(typeof WIZARD_STEP_KEYS)[number], 'preview'>, (p: StepProps) => React.ReactNode>;

function Backdrop({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-dvh bg-[radial-gradient(ellipse_80%_50%_at_50%_-10%,var(--accent),transparent)] bg-no-repeat">{children}</div>
  );
}

/** Spec §2: inside the wizard without a session. */
function LoginPrompt() {
  return (
    <Backdrop>
      <main className="flex min-h-dvh items-center justify-center px-4">
        <Card className="w-full max-w-sm p-8 text-center">
          <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
            <LogIn className="size-7" aria-hidden />
          </span>
          <h1 className="mt-5 font-display text-2xl font-extrabold">Please log in to continue.</h1>
          <Button asChild size="lg" className="mt-6 w-full">
            <Link to="/auth/login">Go to Login</Link>
          </Button>
        </Card>
      </main>
    </Backdrop>
  );
}

/**
 * The onboarding wizard (spec §2 "Onboarding wizard (11 steps)", §4). `preview` (/test-onboarding,
 * unguarded) saves nothing and needs no account: signed out it runs all the same, signed in it
 * neither reads nor writes the member's profile.
 */
export default function Wizard({ preview = false }: { preview?: boolean }) {
  const auth = useAuth();
  if (preview) return <WizardBody userId={null} preview />;
  if (auth.isLoading && !auth.user) return <FullPageSpinner />;
  if (!auth.user) return <LoginPrompt />;
  return <WizardBody userId={auth.user.id} preview={false} />;
}

function WizardBody({ userId, preview }: { userId: string | null; preview: boolean }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const toast = useToast();
  const { draft, photos, update, setPhotoRefs, flush } = useWizardDraft(userId, preview);
  const [leaving, setLeaving] = useState(false);
  const [completing, setCompleting] = useState(false);
  const step = draft?.step ?? 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new step starts at the top
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [step]);

  const back = () => update((d) => ({ step: d.step - 1 }));
  const next = () => update((d) => ({ step: d.step + 1 }));

  const saveLater = async () => {
    if (preview) {
      toast({ title: 'Preview mode', description: 'Nothing is saved in the preview.' });
      return;
    }
    setLeaving(true);
    await flush();
    setOnboardingDeferred(true);
    navigate('/home');
  };

  const logout = async () => {
    await flush();
    try {
      await auth.logout();
    } catch {
      return;
    }
    navigate('/auth/login', { replace: true });
  };

  const complete = async () => {
    if (!draft) return;
    if (preview) {
      toast({
        title: 'That was a preview',
        description: 'Nothing was saved. Your real profile is created in the wizard after you sign up.',
      });
      return;
    }
    setCompleting(true);
    try {
      await flush();
      await completeProfile(draftToComplete(draft));
    } catch (err) {
      console.warn('Completing the profile failed', err);
      toast({ title: 'Something went wrong', description: 'Please try again.', variant: 'destructive' });
      setCompleting(false);
      return;
    }
    toast({ title: 'Welcome to Fancy! ✨', description: "Your profile is ready. Let's find your perfect mixers!" });
    setOnboardingDeferred(false);
    if (userId) clearLocalDraft(userId);
    setTimeout(() => window.location.assign('/home'), COMPLETION_REDIRECT_MS);
  };

  const key = WIZARD_STEP_KEYS[step];
  const props: StepProps | null = draft ? { draft, update, back, next, preview, photos, setPhotoRefs } : null;
  let body: React.ReactNode;
  if (!props) {
    body = (
      <div className="flex min-h-80 items-center justify-center">
        <Spinner label="Loading your profile" className="[&_svg]:size-9" />
      </div>
    );
  } else if (key === 'preview') {
    body = <PreviewStep {...props} completing={completing} onComplete={() => void complete()} />;
  } else {
    const Step = STEPS[key];
    body = <Step {...props} />;
  }

  return (
    <Backdrop>
      <WizardHeader
        step={step}
        onSaveLater={() => void saveLater()}
        // Signed out (the preview), there is nothing to log out of: the header offers to sign up instead.
        onLogout={auth.user ? () => void logout() : undefined}
        signedOut={!auth.user && !auth.isLoading}
        saving={leaving}
      />
      {preview && (
        <aside aria-label="Preview mode" className="border-b border-secondary bg-secondary/70 text-secondary-foreground">
          <p className="mx-auto flex max-w-3xl items-center gap-2 px-4 py-2.5 text-sm font-medium sm:px-6">
            <Eye className="size-4 shrink-0" aria-hidden />
            Preview mode — nothing you enter here is saved.
          </p>
        </aside>
      )}
      <main className="px-4 pt-8 pb-16 sm:px-6 sm:pt-12" key={step}>
        {body}
      </main>
    </Backdrop>
  );
}
