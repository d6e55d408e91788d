import { AlertTriangle, type LucideIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';

/** Loading failed: what happened and a retry. */
export function ErrorState({ error, onRetry, className }: { error: unknown; onRetry: () => void; className?: string }) {
  const message = error instanceof ApiError ? error.message : 'Something went wrong while loading.';
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 px-4 py-10 text-center', className)}>
      <span className="flex size-11 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <AlertTriangle className="size-5" aria-hidden />
      </span>
      <div>
        <p className="font-semibold">We couldn't load this</p>
        <p className="text-sm text-muted-foreground">{message}</p>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function EmptyState({ icon: Icon, title, text, className }: { icon: LucideIcon; title: string; text?: string; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center gap-2 px-4 py-10 text-center', className)}>
      <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon className="size-5" aria-hidden />
      </span>
      <p className="font-semibold">{title}</p>
      {text && <p className="max-w-md text-sm text-muted-foreground">{text}</p>}
    </div>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden className={cn('block animate-pulse rounded-md bg-muted', className)} />;
}

/** Placeholder rows while a table loads. */
export function TableSkeleton({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" className="grid gap-3 p-4 sm:p-5">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4">
          <Skeleton className="h-4 w-1/4" />
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-4 flex-1" />
        </div>
      ))}
    </div>
  );
}

/** "Show more" under a paginated list (TanStack infinite query). */
export function ShowMore({
  query,
  label = 'Show more',
  variant = 'ghost',
  className = 'p-3 text-center',
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label?: string;
  variant?: 'ghost' | 'outline';
  className?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <div className={className}>
      <Button variant={variant} size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? 'Loading…' : label}
      </Button>
    </div>
  );
}

/**
 * A list's states before its rows: placeholder rows while loading, the error with a retry
 * (`quietError`: nothing, where the page already says it), the empty state, then the rows.
 */
export function ListStates({
  query,
  loading,
  rows,
  isEmpty,
  empty,
  quietError = false,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  loading: string;
  rows?: number;
  isEmpty: boolean;
  empty: React.ReactNode;
  quietError?: boolean;
  children: React.ReactNode;
}) {
  if (query.isPending) return <TableSkeleton rows={rows} label={loading} />;
  if (query.isError) return quietError ? null : <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return isEmpty ? empty : children;
}
