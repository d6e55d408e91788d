import { bioError } from '../../../../shared/onboarding';
import { BioField } from '../../onboarding';
import { EditableSection, Empty } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import type { SectionProps } from './types';

export function BioSection({ profile, onPreview }: SectionProps) {
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ bio: p.bio ?? '' }),
    toInput: (v) => ({ bio: v.bio }),
    savedMessage: 'Your bio is saved.',
    onPreview,
  });
  const error = ed.errors.bio ?? bioError(ed.value.bio);
  return (
    <EditableSection
      id="bio"
      title="Bio"
      editing={ed.editing}
      saving={ed.saving}
      canSave={!error}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={
        profile.bio ? (
          <p className="whitespace-pre-line text-sm leading-relaxed">{profile.bio}</p>
        ) : (
          <Empty>No bio yet — a line or two is plenty.</Empty>
        )
      }
    >
      <BioField id="edit-bio" value={ed.value.bio} onChange={(bio) => ed.set({ bio })} error={error} compact />
    </EditableSection>
  );
}
