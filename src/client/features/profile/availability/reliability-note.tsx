import { ShieldCheck } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { useReliability } from './api';

/**
 * "You came to 5 of your last 6 mixers" — the member's own record, kindly, with why it exists.
 * Nothing at all while there is no record (or it can't be loaded: it is never urgent).
 */
export function ReliabilityNote({ className }: { className?: string }) {
  const reliability = useReliability();
  const note = reliability.data?.note;
  if (!note) return null;
  return (
    <div
      className={cn('flex items-start gap-3 rounded-xl border border-success/30 bg-success/10 p-3 text-sm', className)}
      data-testid="reliability-note"
    >
      <ShieldCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
      <div>
        <p className="font-semibold">{note}</p>
        <p className="mt-0.5 text-muted-foreground">
          Only you can see this. We use it for one thing: members who come along get first pick of seats.
        </p>
      </div>
    </div>
  );
}
