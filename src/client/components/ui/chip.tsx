import { Check, X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A toggle chip (aria-pressed). "Soft-disabled" chips stay focusable so a refused pick can explain itself. */
export function ToggleChip({
  selected,
  softDisabled = false,
  className,
  children,
  ...props
}: ComponentProps<'button'> & { selected: boolean; softDisabled?: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      aria-disabled={softDisabled || props.disabled || undefined}
      className={cn(
        'inline-flex min-h-10 items-center gap-1.5 rounded-full border px-4 py-2 text-sm font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-45',
        selected
          ? 'border-primary bg-primary text-primary-foreground shadow-sm hover:bg-primary/90'
          : 'border-border bg-card text-foreground hover:border-primary/50 hover:bg-accent/60',
        softDisabled && !selected && 'opacity-45 hover:border-border hover:bg-card',
        className,
      )}
      {...props}
    >
      {selected && <Check className="size-3.5 shrink-0" aria-hidden />}
      {children}
    </button>
  );
}

/** A chip showing a picked value with a remove button. */
export function RemovableChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <span className="inline-flex min-h-9 items-center gap-1 rounded-full bg-accent py-1 pr-1 pl-3.5 text-sm font-medium text-accent-foreground">
      {label}
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${label}`}
        className="flex size-7 items-center justify-center rounded-full hover:bg-primary/15 focus-visible:outline-2 focus-visible:outline-ring"
      >
        <X className="size-3.5" aria-hidden />
      </button>
    </span>
  );
}

/** Placeholder chips while a list loads (fixed sizes, so nothing jumps). */
export function ChipSkeleton({ count = 8 }: { count?: number }) {
  const widths = ['w-20', 'w-24', 'w-16', 'w-28', 'w-20', 'w-32', 'w-24', 'w-16'];
  return (
    <div className="flex flex-wrap gap-2.5" aria-hidden>
      {Array.from({ length: count }, (_, i) => (
        <span key={i} className={cn('h-10 animate-pulse rounded-full bg-muted', widths[i % widths.length])} />
      ))}
    </div>
  );
}
