import { Info } from 'lucide-react';
import { ORIENTATIONS_MAX } from '../../../../shared/constants';
import { toggleCapped, toggleSingle } from '../../../../shared/onboarding';
import { PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { useGenderOptions, useOrientationOptions } from '../api';
import { RemovableChip } from '../../../components/ui/chip';
import { OptionChips } from '../components/option-chips';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 4 (spec §2): one gender identity; choosing the selected one again clears it. */
export function GenderStep({ draft, update, back, next }: StepProps) {
  const options = useGenderOptions();
  const selected = draft.genderIdentities[0];
  return (
    <StepFrame
      title="How do you identify?"
      description="Pick the one that fits you best. You can change it any time."
      actions={{
        onBack: back,
        onContinue: next,
        continueDisabled: draft.genderIdentities.length !== 1,
        hint: draft.genderIdentities.length === 0 ? 'Choose one option to continue.' : undefined,
      }}
    >
      <fieldset className="min-w-0">
        <legend className="sr-only">Gender identity</legend>
        <OptionChips
          options={options}
          isSelected={(label) => selected === label}
          onToggle={(label) => update((d) => ({ genderIdentities: toggleSingle(d.genderIdentities, label) }))}
        />
      </fieldset>
    </StepFrame>
  );
}

/** Step 5 (spec §2): up to 5 orientations, removable chips, skippable. */
export function OrientationStep({ draft, update, back, next }: StepProps) {
  const options = useOrientationOptions();
  const picked = draft.sexualOrientations;
  const full = picked.length >= ORIENTATIONS_MAX;
  return (
    <StepFrame
      title="What's your sexual orientation?"
      description="Choose up to 5 that feel right — or skip this one for now."
      actions={{ onBack: back, onContinue: next }}
    >
      <div className="min-h-11" aria-live="polite">
        {picked.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="mr-1 text-sm font-semibold text-muted-foreground">
              Your picks ({picked.length}/{ORIENTATIONS_MAX}):
            </span>
            {picked.map((label) => (
              <RemovableChip
                key={label}
                label={label}
                onRemove={() => update((d) => ({ sexualOrientations: d.sexualOrientations.filter((x) => x !== label) }))}
              />
            ))}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing picked yet — that's fine too.</p>
        )}
      </div>
      <fieldset className="mt-5 min-w-0">
        <legend className="sr-only">Sexual orientation</legend>
        <OptionChips
          options={options}
          isSelected={(label) => picked.includes(label)}
          isDisabled={(label) => full && !picked.includes(label)}
          onToggle={(label) => update((d) => ({ sexualOrientations: toggleCapped(d.sexualOrientations, label, ORIENTATIONS_MAX).list }))}
        />
      </fieldset>
      <div className="mt-5 min-h-12">
        {full && (
          <p
            className="flex items-center gap-2 rounded-2xl bg-secondary px-4 py-3 text-sm font-medium text-secondary-foreground"
            role="status"
          >
            <Info className="size-4 shrink-0" aria-hidden />
            {PROFILE_MESSAGES.orientationLimit}
          </p>
        )}
      </div>
    </StepFrame>
  );
}
