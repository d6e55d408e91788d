import { RotateCw } from 'lucide-react';
import type { ReplyQuote } from '../../../shared/realtime/line-extras';
import { cn } from '../../lib/cn';

/** A line the server has not confirmed yet, or one that failed (its text kept). */
export interface PendingLine {
  /** The client's key for this line: the same on every retry, so it is never sent twice. */
  clientKey: string;
  body: string;
  createdAt: string;
  status: 'sending' | 'failed';
  error?: string;
  replyTo?: ReplyQuote | null;
  /** Participants the line mentions (mixer chat). */
  mentions?: string[];
  /** "Send anyway" after Are you sure? (issue 30). */
  confirmed?: boolean;
}

/** "Sending…" under a pending line, or why it failed and **Retry**. */
export function PendingStatus({ line, onRetry, className }: { line: PendingLine; onRetry: () => void; className?: string }) {
  if (line.status === 'sending') {
    return <p className={cn('mt-1 pr-1 text-right text-xs text-muted-foreground', className)}>Sending…</p>;
  }
  return (
    <p role="alert" className={cn('mt-1 flex items-center justify-end gap-2 pr-1 text-xs font-medium text-destructive', className)}>
      {line.error ?? 'Not sent.'}
      <button
        type="button"
        onClick={onRetry}
        className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-primary underline-offset-2 hover:underline"
      >
        <RotateCw className="size-3" aria-hidden /> Retry
      </button>
    </p>
  );
}
