import { cn } from '../../lib/cn';

export function Tags({ items, empty, tone = 'muted' }: { items: string[]; empty?: string; tone?: 'muted' | 'accent' }) {
  if (!items.length) return <p className="text-sm italic text-muted-foreground">{empty}</p>;
  return (
    <ul className="flex flex-wrap gap-1.5">
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
    </ul>
  );
}
