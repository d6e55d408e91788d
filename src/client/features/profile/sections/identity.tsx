import { ORIENTATIONS_MAX } from '../../../../shared/constants';
import { toggleCapped, toggleSingle } from '../../../../shared/onboarding';
import { IDENTITY_MESSAGES, PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { OptionChips, useGenderOptions, useOrientationOptions } from '../../onboarding';
import { EditableSection, Empty } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import { Tags } from '../../../components/ui/tags';
import type { SectionProps } from './types';

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
      <p className="text-sm text-muted-foreground">{IDENTITY_MESSAGES.identityHint}</p>
      <fieldset className="grid gap-2.5">
        <legend className="mb-2.5 text-sm font-medium">Gender identity (pick one)</legend>
        <OptionChips
          compact
          options={genders}
          isSelected={(label) => ed.value.genderIdentities[0] === label}
          onToggle={(label) => ed.set((v) => ({ genderIdentities: toggleSingle(v.genderIdentities, label) }))}
        />
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
        <OptionChips
          compact
          options={orientations}
          isSelected={(label) => picked.includes(label)}
          isDisabled={(label) => full && !picked.includes(label)}
          onToggle={(label) => ed.set((v) => ({ sexualOrientations: toggleCapped(v.sexualOrientations, label, ORIENTATIONS_MAX).list }))}
        />
        {(full || ed.errors.sexualOrientations) && (
          <p role="status" className="text-sm font-medium text-secondary-foreground">
            {ed.errors.sexualOrientations ?? PROFILE_MESSAGES.orientationLimit}
          </p>
        )}
      </fieldset>
    </EditableSection>
  );
}
