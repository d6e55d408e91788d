import { Eye } from 'lucide-react';
import { BIO_MAX } from '../../../../shared/constants';
import { bioError } from '../../../../shared/onboarding';
import { Card } from '../../../components/ui/card';
import { Label, Textarea } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { Avatar } from '../../../components/ui/avatar';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 10 (spec §2, §5): optional bio, n/800 counter, live preview, "Preview your profile". */
export function BioStep({ draft, update, back, next, photos }: StepProps) {
  const error = bioError(draft.bio);
  const length = draft.bio.trim().length;
  const name = draft.fullName.trim() || 'You';
  const avatar = draft.avatarKey ? photos[draft.avatarKey] : undefined;
  return (
    <StepFrame
      title="Anything else you'd like to say?"
      description="A short bio is optional — a line or two about you is plenty."
      actions={{ onBack: back, onContinue: next, continueLabel: 'Preview your profile', continueDisabled: Boolean(error) }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="bio" className="text-base font-semibold">
          Bio <span className="text-sm font-medium text-muted-foreground">(optional)</span>
        </Label>
        <Textarea
          id="bio"
          rows={6}
          placeholder="Weekday: spreadsheets. Weekend: sea swims, sourdough and hunting down the best flat white in town."
          value={draft.bio}
          onChange={(e) => update({ bio: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby="bio-count"
          className="min-h-40 resize-y"
        />
        <div id="bio-count" className="flex items-start justify-between gap-3 text-sm">
          <span className="font-medium text-destructive" role={error ? 'alert' : undefined}>
            {error}
          </span>
          <span className={cn('shrink-0 tabular-nums', error ? 'font-semibold text-destructive' : 'text-muted-foreground')}>
            {length}/{BIO_MAX}
          </span>
        </div>
      </div>

      <div className="mt-8">
        <p className="flex items-center gap-2 text-xs font-bold tracking-wider text-muted-foreground uppercase">
          <Eye className="size-4" aria-hidden />
          Live preview
        </p>
        <Card className="mt-3 flex gap-4 p-5" aria-live="polite">
          <Avatar name={name} src={avatar?.thumbUrl} className="size-14 text-xl" />
          <div className="min-w-0 flex-1">
            <p className="font-bold">{name}</p>
            <p className={cn('mt-1 text-sm leading-relaxed break-words whitespace-pre-line', !length && 'text-muted-foreground italic')}>
              {length ? draft.bio.trim() : 'Your bio will appear here.'}
            </p>
          </div>
        </Card>
      </div>
    </StepFrame>
  );
}
