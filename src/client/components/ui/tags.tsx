import { cn } from '../../lib/cn';

/**
 * A list of labels as pills (identities, looking-for, interests): on the profile card and the
 * profile page. `more` adds a "+N more" pill; `empty` is said when there is none.
 */
export function Tags({
  items,
  more = 0,
  empty,
  tone = 'muted',
  className,
}: {
  items: string[];
  more?: number;
  empty?: string;
  tone?: 'muted' | 'accent';
  className?: string;
}) {
  if (!items.length && empty !== undefined) return <p className="text-sm italic text-muted-foreground">{empty}</p>;
  return (
    <ul className={cn('flex flex-wrap gap-2', className)}>
      {items.map((item) => (
        <li
          key={item}
          className={cn(
            'rounded-full px-3 py-1 text-sm font-medium',
            tone === 'accent' ? 'bg-accent text-accent-foreground' : 'bg-secondary text-secondary-foreground',
          )}
        >
          {item}
        </li>
      ))}
      {more > 0 && (
        <li className="rounded-full border border-dashed border-border px-3 py-1 text-sm font-medium text-muted-foreground">
          +{more} more
        </li>
      )}
    </ul>
  );
}
