import { CircleAlert, PartyPopper } from 'lucide-react';
import { useMemo } from 'react';
import { dayOptions, dobStatus, greatAgeMessage, MONTHS, setDobPart, yearOptions } from '../../../../shared/onboarding';
import { Label } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

const selectClass =
  'h-12 w-full appearance-none rounded-xl border border-input bg-card bg-[length:1rem] bg-[right_0.75rem_center] bg-no-repeat px-3.5 pr-9 text-base text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive';
const chevron = `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%236a5877' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E")`;

/** Step 3 (spec §2, §4): Day, Month, Year lists; the day list follows month and year; adults only. */
export function DobStep({ draft, update, back, next }: StepProps) {
  const years = useMemo(() => yearOptions(), []);
  const days = dayOptions(draft.dob.month, draft.dob.year);
  const status = dobStatus(draft.dob);
  const set = (part: 'day' | 'month' | 'year', raw: string) => update((d) => ({ dob: setDobPart(d.dob, part, raw ? Number(raw) : null) }));
  const invalid = Boolean(status.error);

  const select = (part: 'day' | 'month' | 'year', label: string, options: { value: number; label: string }[]) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`dob-${part}`}>{label}</Label>
      <select
        id={`dob-${part}`}
        className={selectClass}
        style={{ backgroundImage: chevron }}
        value={draft.dob[part] ?? ''}
        aria-invalid={invalid}
        aria-describedby="dob-status"
        onChange={(e) => set(part, e.target.value)}
      >
        <option value="">{label}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <StepFrame
      title="When's your birthday?"
      description="Fancy is for adults 18 and over. Other members only ever see your age, never your birthday."
      actions={{ onBack: back, onContinue: next, continueDisabled: !status.valid }}
    >
      <fieldset className="min-w-0">
        <legend className="sr-only">Date of birth</legend>
        <div className="grid grid-cols-[1fr_1.6fr_1.2fr] gap-3 sm:gap-4">
          {select(
            'day',
            'Day',
            days.map((d) => ({ value: d, label: String(d) })),
          )}
          {select(
            'month',
            'Month',
            MONTHS.map((m, i) => ({ value: i + 1, label: m })),
          )}
          {select(
            'year',
            'Year',
            years.map((y) => ({ value: y, label: String(y) })),
          )}
        </div>
      </fieldset>
      <div id="dob-status" className="mt-5 min-h-14" aria-live="polite">
        {status.valid && status.age !== null && (
          <p className="flex items-center gap-2.5 rounded-2xl bg-success/10 px-4 py-3 font-semibold text-success">
            <PartyPopper className="size-5 shrink-0" aria-hidden />
            {greatAgeMessage(status.age)}
          </p>
        )}
        {status.error && (
          <p
            role="alert"
            className={cn('flex items-center gap-2.5 rounded-2xl bg-destructive/10 px-4 py-3 font-semibold text-destructive')}
          >
            <CircleAlert className="size-5 shrink-0" aria-hidden />
            {status.error}
          </p>
        )}
      </div>
    </StepFrame>
  );
}
