import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { ChipSkeleton, ToggleChip } from '../../../components/ui/chip';
import { cn } from '../../../lib/cn';
import type { CatalogOption } from '../api';

/**
 * A catalogue list (gender identities, orientations) as toggle chips, with its loading and
 * failed states: the wizard's steps 4 and 5 and the profile page's identity section. The
 * caller's <fieldset> names the group; `compact` is the profile page's size.
 */
export function OptionChips({
  options,
  isSelected,
  isDisabled,
  onToggle,
  compact = false,
}: {
  options: UseQueryResult<CatalogOption[]>;
  isSelected: (label: string) => boolean;
  isDisabled?: (label: string) => boolean;
  onToggle: (label: string) => void;
  compact?: boolean;
}) {
  if (options.isPending) return <ChipSkeleton count={compact ? 8 : 12} />;
  if (!options.data?.length) {
    return (
      <div
        className={cn(
          'flex flex-col items-start border border-dashed border-border',
          compact ? 'gap-2 rounded-xl p-4' : 'gap-3 rounded-2xl p-5',
        )}
      >
        <p className={cn('text-muted-foreground', compact && 'text-sm')}>We couldn't load the options just now.</p>
        <Button variant="outline" size="sm" onClick={() => void options.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className={cn('flex flex-wrap', compact ? 'gap-2' : 'gap-2.5')}>
      {options.data.map((o) => (
        <ToggleChip key={o.id} selected={isSelected(o.label)} disabled={isDisabled?.(o.label)} onClick={() => onToggle(o.label)}>
          {o.label}
        </ToggleChip>
      ))}
    </div>
  );
}
