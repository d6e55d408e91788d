import { RefreshCw } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { Card } from './card';

/**
 * Something failed to load: what it was, the reason when there is one, and Try again. In a card
 * of its own (a list's place on a page), or `bare` inside a panel or section that is already one.
 */
export function LoadError({
  title,
  error,
  onRetry,
  bare = false,
  small = false,
  className,
}: {
  title: string;
  error?: unknown;
  onRetry: () => unknown;
  bare?: boolean;
  /** A line in a section rather than a list's place. */
  small?: boolean;
  className?: string;
}) {
  const Frame = bare ? 'div' : Card;
  return (
    <Frame role="alert" className={cn('flex flex-col items-start', small ? 'gap-2' : 'gap-3', !bare && 'p-5', className)}>
      <p className={small ? 'text-sm' : 'font-medium'}>{title}</p>
      {error instanceof Error && error.message && <p className="text-sm text-muted-foreground">{error.message}</p>}
      <Button variant="outline" size="sm" onClick={() => void onRetry()}>
        <RefreshCw aria-hidden /> Try again
      </Button>
    </Frame>
  );
}
