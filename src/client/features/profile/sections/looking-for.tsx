import { LOOKING_FOR_MAX, LOOKING_FOR_OPTIONS, type LookingFor } from '../../../../shared/constants';
import { IDENTITY_MESSAGES, PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { ToggleChip } from '../../../components/ui/chip';
import { EditableSection } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import { Tags } from '../../../components/ui/tags';
import type { SectionProps } from './types';

const DETAILS: Record<LookingFor, string> = {
  Dating: 'Looking for romantic connections',
  Friends: 'Want to meet new friends and build platonic relationships',
  Casual: 'Open to casual connections and fun meetups',
};

/** The wizard shows the schema message with a trailing period (spec §5). */
const PICK_ONE = `${PROFILE_MESSAGES.lookingForRequired}.`;

export function LookingForSection({ profile, onPreview }: SectionProps) {
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ lookingFor: p.lookingFor as LookingFor[] }),
    toInput: (v) => v,
    savedMessage: "What you're looking for is saved.",
    onPreview,
  });
  const list = ed.value.lookingFor;
  const error = ed.errors.lookingFor ?? (list.length === 0 ? PICK_ONE : null);
  return (
    <EditableSection
      id="looking-for"
      title="Looking for"
      editing={ed.editing}
      saving={ed.saving}
      canSave={list.length > 0}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={<Tags items={profile.lookingFor} tone="accent" empty="Not set" />}
    >
      <p className="text-sm text-muted-foreground">{IDENTITY_MESSAGES.lookingForHint}</p>
      <fieldset>
        <legend className="mb-2.5 text-sm font-medium">Pick up to {LOOKING_FOR_MAX}</legend>
        <div className="grid gap-2">
          {LOOKING_FOR_OPTIONS.map((option) => {
            const on = list.includes(option);
            return (
              <ToggleChip
                key={option}
                selected={on}
                className="justify-start rounded-2xl px-4 py-3 text-left"
                onClick={() => ed.set((v) => ({ lookingFor: on ? v.lookingFor.filter((x) => x !== option) : [...v.lookingFor, option] }))}
              >
                <span>
                  <span className="block font-semibold">{option}</span>
                  <span className="block text-xs font-normal opacity-80">{DETAILS[option]}</span>
                </span>
              </ToggleChip>
            );
          })}
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </EditableSection>
  );
}
