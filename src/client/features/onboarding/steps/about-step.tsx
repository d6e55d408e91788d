import { useState } from 'react';
import { canContinue, nameError, pronounsError } from '../../../../shared/onboarding';
import { describedBy, Field, Input } from '../../../components/ui/input';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 2 (spec §2): full name (required, 30) and pronouns (optional, 40). */
export function AboutStep({ draft, update, back, next }: StepProps) {
  const [touched, setTouched] = useState(false);
  const nameMessage = nameError(draft.fullName);
  const showName = nameMessage && (touched || draft.fullName.length > 0);
  const pronounsMessage = pronounsError(draft.pronouns);
  return (
    <StepFrame
      title="Who are we talking to?"
      description="The name you'd like people to see in mixers. Pronouns are up to you."
      actions={{ onBack: back, onContinue: next, continueDisabled: !canContinue('about', draft) }}
    >
      <form
        className="grid gap-6"
        onSubmit={(e) => {
          e.preventDefault();
          if (canContinue('about', draft)) next();
        }}
      >
        <Field id="fullName" label="Full Name" error={showName ? nameMessage : undefined}>
          <Input
            id="fullName"
            autoComplete="name"
            placeholder="Your full name"
            className="h-12 text-base md:text-base"
            value={draft.fullName}
            aria-invalid={Boolean(showName)}
            aria-describedby={showName ? 'fullName-error' : undefined}
            aria-required
            onBlur={() => setTouched(true)}
            onChange={(e) => update({ fullName: e.target.value })}
          />
        </Field>
        <Field id="pronouns" label="Pronouns (optional)" error={pronounsMessage ?? undefined} hint="Help others know how to refer to you">
          <Input
            id="pronouns"
            placeholder="e.g., they/them, she/her, he/him"
            className="h-12 text-base md:text-base"
            value={draft.pronouns}
            aria-invalid={Boolean(pronounsMessage)}
            aria-describedby={describedBy('pronouns', pronounsMessage ?? undefined, true)}
            onChange={(e) => update({ pronouns: e.target.value })}
          />
        </Field>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </form>
    </StepFrame>
  );
}
