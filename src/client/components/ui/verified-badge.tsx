import { BadgeCheck } from 'lucide-react';
import { cn } from '../../lib/cn';

/** The verified badge shown beside a member's name (issue 21). */
export function VerifiedBadge({ className, label = true }: { className?: string; label?: boolean }) {
  return (
    <span
      className={cn('inline-flex items-center gap-1 rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary', className)}
      title="Verified: a live selfie matched their profile photo"
    >
      <BadgeCheck className="size-3.5" aria-hidden />
      {label ? 'Verified' : <span className="sr-only">Verified</span>}
    </span>
  );
}
