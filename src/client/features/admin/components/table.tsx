import type { ComponentProps } from 'react';
import { cn } from '../../../lib/cn';

/** A dense table that scrolls sideways inside its card on narrow screens. */
export function Table({ className, caption, children, ...props }: ComponentProps<'table'> & { caption?: React.ReactNode }) {
  return (
    // A named group, not a section: a section with a name is a landmark, and the card around a
    // table is often a section named the same (axe's landmark-unique).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll region must be reachable by keyboard
    // biome-ignore lint/a11y/useSemanticElements: a scroll box around a table, not a set of form fields
    <div role="group" className="w-full overflow-x-auto" tabIndex={0} aria-label={typeof caption === 'string' ? caption : undefined}>
      <table className={cn('w-full border-collapse text-left text-sm [&>tbody>tr:last-child>td]:border-b-0', className)} {...props}>
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn(
        'whitespace-nowrap border-b border-border bg-muted/50 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5',
        className,
      )}
      {...props}
    />
  );
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return (
    <td
      className={cn('border-b border-border px-3 py-2.5 align-top first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5', className)}
      {...props}
    />
  );
}

export function Pill({
  tone = 'muted',
  className,
  ...props
}: ComponentProps<'span'> & { tone?: 'muted' | 'primary' | 'success' | 'warning' | 'danger' }) {
  const tones = {
    muted: 'bg-muted text-muted-foreground',
    primary: 'bg-accent text-accent-foreground',
    success: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
    warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    danger: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  };
  return (
    <span
      className={cn('inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold', tones[tone], className)}
      {...props}
    />
  );
}
