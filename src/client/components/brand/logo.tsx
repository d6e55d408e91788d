import { Heart } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';

export function Logo({ to = '/', className, compact = false }: { to?: string; className?: string; compact?: boolean }) {
  return (
    <Link
      to={to}
      className={cn('inline-flex items-center gap-2 font-display text-xl font-extrabold tracking-tight text-foreground', className)}
      aria-label="Fancy home"
    >
      <span className="flex size-8 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-sm">
        <Heart className="size-4 fill-current" aria-hidden />
      </span>
      {!compact && <span>Fancy</span>}
    </Link>
  );
}
