import { Eye } from 'lucide-react';
import { bioError } from '../../../../shared/onboarding';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { Avatar } from '../../../components/ui/avatar';
import { BioField } from '../components/bio-field';
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
      <BioField id="bio" value={draft.bio} onChange={(bio) => update({ bio })} error={error} />

      <div className="mt-8">
        <p className="flex items-center gap-2 text-xs font-bold tracking-wider text-muted-foreground uppercase">
          <Eye className="size-4" aria-hidden />
          Live preview
        </p>
        <Card className="mt-3 flex gap-4 p-5" aria-live="polite">
          <Avatar name={name} src={avatar?.thumbUrl} className="size-14 text-xl" />
          <div className="min-w-0 flex-1">
            <p className="font-bold">{name}</p>
            <p className={cn('mt-1 text-sm leading-relaxed whitespace-pre-line', !length && 'text-muted-foreground italic')}>
              {length ? draft.bio.trim() : 'Your bio will appear here.'}
            </p>
          </div>
        </Card>
      </div>
    </StepFrame>
  );
}
