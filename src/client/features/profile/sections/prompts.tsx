import { PROMPT_MAX, PROMPT_MIN } from '../../../../shared/constants';
import { promptStatus } from '../../../../shared/onboarding';
import { PROMPTS, type PromptField } from '../../../../shared/profile-texts';
import { Label, Textarea } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { EditableSection, Empty } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import type { SectionProps } from './types';

type Prompts = Record<PromptField, string>;

export function PromptsSection({ profile, onPreview }: SectionProps) {
  const ed = useSectionEditor<Prompts>({
    profile,
    from: (p) => Object.fromEntries(PROMPTS.map(({ field }) => [field, p[field] ?? ''])) as Prompts,
    toInput: (v) => v,
    savedMessage: 'Your prompts are saved.',
    onPreview,
  });
  const allOk = PROMPTS.every(({ field }) => promptStatus(ed.value[field]).ok);
  return (
    <EditableSection
      id="prompts"
      title="Prompts"
      description={`Your take on four prompts, ${PROMPT_MIN}–${PROMPT_MAX} characters each.`}
      editing={ed.editing}
      saving={ed.saving}
      canSave={allOk}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={
        <dl className="grid gap-3">
          {PROMPTS.map(({ field, label }) => (
            <div key={field} className="rounded-xl bg-muted/70 p-3">
              <dt className="text-xs font-bold tracking-wide text-primary uppercase">{label}</dt>
              <dd className="mt-1 text-sm leading-relaxed">{profile[field] || <Empty>Not answered yet</Empty>}</dd>
            </div>
          ))}
        </dl>
      }
    >
      {PROMPTS.map(({ field, label, placeholder }) => {
        const id = `edit-${field}`;
        const s = promptStatus(ed.value[field]);
        const serverError = ed.errors[field];
        const bad = Boolean(serverError) || (s.length > 0 && !s.ok);
        return (
          <div key={field} className="grid gap-1.5">
            <Label htmlFor={id}>{label}</Label>
            <Textarea
              id={id}
              rows={3}
              maxLength={PROMPT_MAX}
              placeholder={placeholder}
              value={ed.value[field]}
              onChange={(e) => ed.set({ [field]: e.target.value.slice(0, PROMPT_MAX) } as Partial<Prompts>)}
              aria-invalid={bad}
              aria-describedby={`${id}-count`}
              className="min-h-24 resize-y"
            />
            <p
              id={`${id}-count`}
              className={cn(
                'flex justify-between gap-3 text-xs font-medium',
                s.ok && !serverError ? 'text-success' : s.length === 0 ? 'text-muted-foreground' : 'text-destructive',
              )}
            >
              <span role={serverError ? 'alert' : undefined}>{serverError}</span>
              <span className="tabular-nums">
                {s.length}/{PROMPT_MAX}
                {s.tooShort && <span className="ml-1">(min {PROMPT_MIN})</span>}
              </span>
            </p>
          </div>
        );
      })}
      {!allOk && (
        <p className="text-sm text-muted-foreground">
          Answer all four ({PROMPT_MIN}–{PROMPT_MAX} characters each) to save.
        </p>
      )}
    </EditableSection>
  );
}
