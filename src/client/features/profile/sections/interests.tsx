import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { InterestCatalogue, InterestFilters, PickedInterests, useInterestPicker } from '../../onboarding';
import { EditableSection } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import { Tags } from '../../../components/ui/tags';
import type { SectionProps } from './types';

/** Interests, by the wizard's rules: search, categories, 1 to 15 picks, "+ Other" suggestions. */
export function InterestsSection({ profile, onPreview }: SectionProps) {
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ interests: p.interests }),
    toInput: (v) => v,
    savedMessage: 'Your interests are saved.',
    onPreview,
  });
  const picker = useInterestPicker(ed.value.interests, (next) => ed.set((v) => ({ interests: next(v.interests) })));
  const { picked } = picker;
  const error = ed.errors.interests ?? (picked.length === 0 ? PROFILE_MESSAGES.interestsRequired : null);

  return (
    <EditableSection
      id="interests"
      title="Interests"
      description={`Up to ${INTERESTS_MAX_UI}: they're how we suggest mixers worth joining.`}
      editing={ed.editing}
      saving={ed.saving}
      canSave={picked.length >= 1 && picked.length <= INTERESTS_MAX_UI}
      onEdit={ed.start}
      onCancel={() => {
        picker.reset();
        ed.cancel();
      }}
      onSave={() => void ed.save()}
      view={<Tags items={profile.interests} tone="accent" empty="No interests yet" />}
    >
      <div className="rounded-xl border border-border p-3">
        <PickedInterests picker={picker} preview={false} />
        {error && (
          <p role="alert" className="mt-2.5 text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
      <InterestFilters picker={picker} id="edit-interest-search" compact />
      <div className="max-h-96 overflow-y-auto rounded-xl border border-border p-3">
        <InterestCatalogue picker={picker} compact />
      </div>
    </EditableSection>
  );
}
