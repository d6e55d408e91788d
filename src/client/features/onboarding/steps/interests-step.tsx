import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { InterestCatalogue, InterestFilters, useInterestPicker } from '../components/interest-picker';
import { PickedInterests } from '../components/picked-interests';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 7 (spec §2, §5): search, category chips, grouped list, 1-15 picks, "+ Other" suggestions. */
export function InterestsStep({ draft, update, back, next, preview }: StepProps) {
  const picker = useInterestPicker(draft.interests, (next) => update((d) => ({ interests: next(d.interests) })));
  const { picked } = picker;

  return (
    <StepFrame
      wide
      title="What are you into?"
      description="Pick up to 15 things you love. They're how we match you with mixers worth joining."
      actions={{
        onBack: back,
        onContinue: next,
        continueDisabled: picked.length < 1 || picked.length > INTERESTS_MAX_UI,
        hint: picked.length === 0 ? 'Pick at least one interest to continue.' : undefined,
      }}
    >
      <div className="grid gap-4">
        <InterestFilters picker={picker} id="interest-search" />
      </div>

      <div
        data-testid="interests-summary"
        className="sticky top-[var(--wizard-header-h,7.25rem)] z-10 -mx-4 mt-5 border-y border-border bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-2xl sm:border"
      >
        <PickedInterests picker={picker} preview={preview} chipsClassName="max-h-28 overflow-y-auto" />
      </div>

      <div className="mt-6 min-h-64">
        <InterestCatalogue picker={picker} />
      </div>
    </StepFrame>
  );
}
