import { BIO_MAX } from '../../../../shared/constants';
import { Label, Textarea } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';

/** The optional bio with its n/800 counter and error, the same in the wizard (step 10) and on the profile page. */
export function BioField({
  id,
  value,
  onChange,
  error,
  compact = false,
}: {
  id: string;
  value: string;
  onChange: (bio: string) => void;
  error: string | null | undefined;
  /** The profile page's smaller label and box. */
  compact?: boolean;
}) {
  const length = value.trim().length;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className={compact ? undefined : 'text-base font-semibold'}>
        Bio <span className={cn('text-sm text-muted-foreground', compact ? 'font-normal' : 'font-medium')}>(optional)</span>
      </Label>
      <Textarea
        id={id}
        rows={6}
        placeholder="Weekday: spreadsheets. Weekend: sea swims, sourdough and hunting down the best flat white in town."
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-count`}
        className={cn('resize-y', compact ? 'min-h-36' : 'min-h-40')}
      />
      <div id={`${id}-count`} className="flex items-start justify-between gap-3 text-sm">
        <span className="font-medium text-destructive" role={error ? 'alert' : undefined}>
          {error}
        </span>
        <span className={cn('shrink-0 tabular-nums', error ? 'font-semibold text-destructive' : 'text-muted-foreground')}>
          {length}/{BIO_MAX}
        </span>
      </div>
    </div>
  );
}
