import type { LucideIcon } from 'lucide-react';
import { RotateCw } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

/** A friendly empty state with one clear next step. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children: React.ReactNode;
  action?: { label: string; to: string };
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center px-6 py-12 text-center', className)}>
      <span className="flex size-16 items-center justify-center rounded-3xl bg-accent text-accent-foreground">
        <Icon className="size-8" aria-hidden />
      </span>
      <h2 className="mt-5 font-display text-xl font-bold">{title}</h2>
      <div className="mt-2 max-w-sm text-sm text-muted-foreground">{children}</div>
      {action && (
        <Button asChild className="mt-6">
          <Link to={action.to}>{action.label}</Link>
        </Button>
      )}
    </div>
  );
}

export function ErrorState({ message, onRetry, className }: { message: string; onRetry: () => void; className?: string }) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 px-6 py-10 text-center', className)}>
      <p className="font-medium">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw aria-hidden /> Try again
      </Button>
    </div>
  );
}
