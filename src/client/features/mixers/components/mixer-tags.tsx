import { Heart } from 'lucide-react';
import { cn } from '../../../lib/cn';

/** A mixer's interest tags; the ones the member shares are marked with a heart (and said so to screen readers). */
export function MixerTags({ tags, sharedTags, className }: { tags: string[]; sharedTags: string[]; className?: string }) {
  if (tags.length === 0) return null;
  const shared = new Set(sharedTags.map((t) => t.toLowerCase()));
  return (
    <ul className={cn('flex flex-wrap gap-1.5', className)} aria-label="Interests">
      {tags.map((tag) => {
        const mine = shared.has(tag.toLowerCase());
        return (
          <li
            key={tag}
            className={cn(
              'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs',
              mine ? 'border-primary/30 bg-accent font-semibold text-accent-foreground' : 'border-border text-muted-foreground',
            )}
          >
            {mine && <Heart className="size-3 fill-current" aria-hidden />}
            {tag}
            {mine && <span className="sr-only"> (one of your interests)</span>}
          </li>
        );
      })}
    </ul>
  );
}
