import { ORIENTATIONS_MAX } from '../../../../shared/constants';
import { toggleCapped, toggleSingle } from '../../../../shared/onboarding';
import { PROFILE_MESSAGES } from '../../../../shared/schemas/profile';
import { Button } from '../../../components/ui/button';
import { useGenderOptions, useOrientationOptions } from '../../onboarding';
import { ChipSkeleton, ToggleChip } from '../../../components/ui/chip';
import { EditableSection, Empty } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import { Tags } from './tags';
import type { SectionProps } from './types';

function ListProblem({ onRetry }: { onRetry(): void }) {
  return (
    <div className="flex flex-col items-start gap-2 rounded-xl border border-dashed border-border p-4">
      <p className="text-sm text-muted-foreground">We couldn't load the options just now.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function IdentitySection({ profile, onPreview }: SectionProps) {
  const genders = useGenderOptions();
  const orientations = useOrientationOptions();
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ genderIdentities: p.genderIdentities.slice(0, 1), sexualOrientations: p.sexualOrientations }),
    toInput: (v) => v,
    savedMessage: 'How you identify is saved.',
    onPreview,
  });
  const picked = ed.value.sexualOrientations;
  const full = picked.length >= ORIENTATIONS_MAX;
  const genderError = ed.errors.genderIdentities ?? (ed.value.genderIdentities.length === 0 ? PROFILE_MESSAGES.genderRequired : null);
  return (
    <EditableSection
      id="identity"
      title="Gender and orientation"
      editing={ed.editing}
      saving={ed.saving}
      canSave={ed.value.genderIdentities.length === 1}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={
        <div className="grid gap-3 text-sm">
          <div>
            <p className="mb-1.5 text-muted-foreground">Gender identity</p>
            <Tags items={profile.genderIdentities} empty="Not set" />
          </div>
          <div>
            <p className="mb-1.5 text-muted-foreground">Sexual orientation</p>
            {profile.sexualOrientations.length ? <Tags items={profile.sexualOrientations} /> : <Empty>Not shared</Empty>}
          </div>
        </div>
      }
    >
      <fieldset className="grid gap-2.5">
        <legend className="mb-2.5 text-sm font-medium">Gender identity (pick one)</legend>
        {genders.isPending ? (
          <ChipSkeleton count={8} />
        ) : !genders.data?.length ? (
          <ListProblem onRetry={() => void genders.refetch()} />
        ) : (
          <div className="flex flex-wrap gap-2">
            {genders.data.map((o) => (
              <ToggleChip
                key={o.id}
                selected={ed.value.genderIdentities[0] === o.label}
                onClick={() => ed.set((v) => ({ genderIdentities: toggleSingle(v.genderIdentities, o.label) }))}
              >
                {o.label}
              </ToggleChip>
            ))}
          </div>
        )}
        {genderError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {genderError}
          </p>
        )}
      </fieldset>
      <fieldset className="grid gap-2.5">
        <legend className="mb-2.5 text-sm font-medium">
          Sexual orientation (optional, up to {ORIENTATIONS_MAX}) · {picked.length}/{ORIENTATIONS_MAX}
        </legend>
        {orientations.isPending ? (
          <ChipSkeleton count={8} />
        ) : !orientations.data?.length ? (
          <ListProblem onRetry={() => void orientations.refetch()} />
        ) : (
          <div className="flex flex-wrap gap-2">
            {orientations.data.map((o) => {
              const on = picked.includes(o.label);
              return (
                <ToggleChip
                  key={o.id}
                  selected={on}
                  disabled={full && !on}
                  onClick={() =>
                    ed.set((v) => ({ sexualOrientations: toggleCapped(v.sexualOrientations, o.label, ORIENTATIONS_MAX).list }))
                  }
                >
                  {o.label}
                </ToggleChip>
              );
            })}
          </div>
        )}
        {(full || ed.errors.sexualOrientations) && (
          <p role="status" className="text-sm font-medium text-secondary-foreground">
            {ed.errors.sexualOrientations ?? PROFILE_MESSAGES.orientationLimit}
          </p>
        )}
      </fieldset>
    </EditableSection>
  );
}
