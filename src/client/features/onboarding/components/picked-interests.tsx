import { Info } from 'lucide-react';
import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { cn } from '../../../lib/cn';
import { RemovableChip } from '../../../components/ui/chip';
import type { InterestPicker } from './interest-picker';
import { SuggestionDialog } from './suggestion-dialog';

/** "n/15 selected", the chosen interests as removable chips, "+ Other" and the limit notice (wizard and profile). */
export function PickedInterests({
  picker,
  preview,
  chipsClassName,
}: {
  picker: InterestPicker;
  preview: boolean;
  chipsClassName?: string;
}) {
  const { picked, toggle: onRemove } = picker;
  const full = picked.length >= INTERESTS_MAX_UI;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold" aria-live="polite">
          <span className={cn('tabular-nums', full && 'text-primary')}>
            {picked.length}/{INTERESTS_MAX_UI}
          </span>{' '}
          selected
        </p>
        <SuggestionDialog preview={preview} listed={picker.catalog.data} onPick={picker.pick} />
      </div>
      {picked.length > 0 && (
        <div className={cn('mt-2.5 flex flex-wrap gap-1.5', chipsClassName)}>
          {picked.map((name) => (
            <RemovableChip key={name} label={name} onRemove={() => onRemove(name)} />
          ))}
        </div>
      )}
      {full && (
        <p className="mt-2.5 flex items-center gap-2 text-sm font-medium text-primary" role="status">
          <Info className="size-4 shrink-0" aria-hidden />
          {PROFILE_MESSAGES.interestsMaxNotice}
        </p>
      )}
    </>
  );
}
