import { CircleAlert, CircleCheck, Heart, PartyPopper, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { LOOKING_FOR_MAX, LOOKING_FOR_OPTIONS, type LookingFor } from '../../../../shared/constants';
import { PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { cn } from '../../../lib/cn';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

const DETAILS: Record<LookingFor, { text: string; icon: typeof Heart }> = {
  Dating: { text: 'Looking for romantic connections', icon: Heart },
  Friends: { text: 'Want to meet new friends and build platonic relationships', icon: UsersRound },
  Casual: { text: 'Open to casual connections and fun meetups', icon: PartyPopper },
};

/** The step shows the schema message with a trailing period (spec §5). */
const PICK_ONE = `${PROFILE_MESSAGES.lookingForRequired}.`;

/** Step 6 (spec §2): Dating, Friends, Casual — 1 to 3. */
export function LookingForStep({ draft, update, back, next }: StepProps) {
  const [error, setError] = useState<string | null>(null);
  const toggle = (option: LookingFor) => {
    const on = draft.lookingFor.includes(option);
    const list = on ? draft.lookingFor.filter((x) => x !== option) : [...draft.lookingFor, option].slice(0, LOOKING_FOR_MAX);
    update({ lookingFor: list });
    setError(list.length === 0 ? PICK_ONE : null);
  };
  return (
    <StepFrame
      title="What are you looking for?"
      description="Pick as many as feel right. It helps us suggest the mixers you'll enjoy."
      actions={{
        onBack: back,
        onContinue: () => {
          if (draft.lookingFor.length === 0) setError(PICK_ONE);
          else next();
        },
      }}
    >
      <fieldset className="min-w-0">
        <legend className="sr-only">Looking for</legend>
        <div className="grid gap-3">
          {LOOKING_FOR_OPTIONS.map((option) => {
            const { text, icon: Icon } = DETAILS[option];
            const on = draft.lookingFor.includes(option);
            return (
              <button
                key={option}
                type="button"
                aria-pressed={on}
                onClick={() => toggle(option)}
                className={cn(
                  'flex w-full items-center gap-4 rounded-2xl border-2 bg-card p-4 text-left transition-colors sm:p-5',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  on ? 'border-primary bg-accent/50' : 'border-border hover:border-primary/40',
                )}
              >
                <span
                  className={cn(
                    'flex size-12 shrink-0 items-center justify-center rounded-2xl',
                    on ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
                  )}
                >
                  <Icon className="size-6" aria-hidden />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-lg font-bold">{option}</span>
                  <span className="block text-sm text-muted-foreground">{text}</span>
                </span>
                <CircleCheck
                  className={cn('size-6 shrink-0 transition-opacity', on ? 'text-primary opacity-100' : 'opacity-0')}
                  aria-hidden
                />
              </button>
            );
          })}
        </div>
      </fieldset>
      <div className="mt-4 min-h-12">
        {error && (
          <p role="alert" className="flex items-center gap-2.5 rounded-2xl bg-destructive/10 px-4 py-3 font-semibold text-destructive">
            <CircleAlert className="size-5 shrink-0" aria-hidden />
            {error}
          </p>
        )}
      </div>
    </StepFrame>
  );
}
