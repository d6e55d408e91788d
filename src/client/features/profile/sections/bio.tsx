import { BIO_MAX } from '../../../../shared/constants';
import { bioError } from '../../../../shared/onboarding';
import { Label, Textarea } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
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
  const length = ed.value.bio.trim().length;
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
          <p className="whitespace-pre-line break-words text-sm leading-relaxed">{profile.bio}</p>
        ) : (
          <Empty>No bio yet — a line or two is plenty.</Empty>
        )
      }
    >
      <div className="grid gap-1.5">
        <Label htmlFor="edit-bio">
          Bio <span className="text-sm font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Textarea
          id="edit-bio"
          rows={6}
          value={ed.value.bio}
          placeholder="Weekday: spreadsheets. Weekend: sea swims, sourdough and hunting down the best flat white in town."
          onChange={(e) => ed.set({ bio: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby="edit-bio-count"
          className="min-h-36 resize-y"
        />
        <div id="edit-bio-count" className="flex items-start justify-between gap-3 text-sm">
          <span className="font-medium text-destructive" role={error ? 'alert' : undefined}>
            {error}
          </span>
          <span className={cn('shrink-0 tabular-nums', error ? 'font-semibold text-destructive' : 'text-muted-foreground')}>
            {length}/{BIO_MAX}
          </span>
        </div>
      </div>
    </EditableSection>
  );
}
