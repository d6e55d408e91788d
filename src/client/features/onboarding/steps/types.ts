import type { WizardDraft } from '../../../../shared/onboarding';
import type { PhotoRef } from '../../../../shared/profile-texts';
import type { WizardDraftState } from '../use-wizard-draft';

export interface StepProps {
  draft: WizardDraft;
  update: WizardDraftState['update'];
  back: () => void;
  next: () => void;
  preview: boolean;
  photos: Record<string, PhotoRef>;
  setPhotoRefs: WizardDraftState['setPhotoRefs'];
}
