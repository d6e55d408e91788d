import { Info } from 'lucide-react';
import { ORIENTATIONS_MAX } from '../../../../shared/constants';
import { toggleCapped, toggleSingle } from '../../../../shared/onboarding';
import { PROFILE_MESSAGES } from '../../../../shared/schemas/profile';
import { Button } from '../../../components/ui/button';
import { useGenderOptions, useOrientationOptions } from '../api';
import { ChipSkeleton, RemovableChip, ToggleChip } from '../../../components/ui/chip';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

function ListProblem({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-border p-5">
      <p className="text-muted-foreground">We couldn't load the options just now.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

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
      {options.isPending ? (
        <ChipSkeleton count={12} />
      ) : !options.data?.length ? (
        <ListProblem onRetry={() => void options.refetch()} />
      ) : (
        <fieldset className="min-w-0">
          <legend className="sr-only">Gender identity</legend>
          <div className="flex flex-wrap gap-2.5">
            {options.data.map((o) => (
              <ToggleChip
                key={o.id}
                selected={selected === o.label}
                onClick={() => update((d) => ({ genderIdentities: toggleSingle(d.genderIdentities, o.label) }))}
              >
                {o.label}
              </ToggleChip>
            ))}
          </div>
        </fieldset>
      )}
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
      <div className="mt-5">
        {options.isPending ? (
          <ChipSkeleton count={12} />
        ) : !options.data?.length ? (
          <ListProblem onRetry={() => void options.refetch()} />
        ) : (
          <fieldset className="min-w-0">
            <legend className="sr-only">Sexual orientation</legend>
            <div className="flex flex-wrap gap-2.5">
              {options.data.map((o) => {
                const on = picked.includes(o.label);
                return (
                  <ToggleChip
                    key={o.id}
                    selected={on}
                    disabled={full && !on}
                    onClick={() =>
                      update((d) => ({ sexualOrientations: toggleCapped(d.sexualOrientations, o.label, ORIENTATIONS_MAX).list }))
                    }
                  >
                    {o.label}
                  </ToggleChip>
                );
              })}
            </div>
          </fieldset>
        )}
      </div>
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
