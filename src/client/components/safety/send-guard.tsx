import { AlertDialog } from 'radix-ui';
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { dialogOverlay, dialogPanel } from '../ui/panel-dialog';
import { useReturnFocus } from '../ui/use-return-focus';

/**
 * Before harm (issue 30), the sender's side: a line the server held (422 `held`: contact details
 * or money in a mixer) is explained under the composer with the text kept; a line that needs a
 * second look (428 `confirm_needed`) opens "Are you sure?" with Edit or Send anyway; slow mode's
 * 429 is said in place too. The server decides; this only shows what it said.
 */
export type GuardOutcome = { kind: 'held' | 'slow'; message: string } | { kind: 'confirm'; message: string; body: string } | null;

/** What a failed send means for the composer, or null when it is not one of these (toast it as before). */
export function guardOutcome(err: unknown, body: string): GuardOutcome {
  if (!(err instanceof ApiError)) return null;
  if (err.code === 'held') return { kind: 'held', message: err.message };
  if (err.code === 'confirm_needed') return { kind: 'confirm', message: err.message, body };
  if (err.code === 'rate_limited') return { kind: 'slow', message: err.message };
  return null;
}

export function useSendGuard() {
  const [outcome, setOutcome] = useState<GuardOutcome>(null);
  return { outcome, setOutcome, clear: () => setOutcome(null) };
}

/** The held line's reason, shown above the composer while the text is still in it. */
export function HeldNotice({ outcome, className }: { outcome: GuardOutcome; className?: string }) {
  if (!outcome || outcome.kind === 'confirm') return null;
  return (
    <p
      role="alert"
      data-testid="held-notice"
      className={cn(
        'mb-2 flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100',
        className,
      )}
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{outcome.message}</span>
    </p>
  );
}

/** "Are you sure?": Edit goes back to the text; Send anyway sends it with `confirmed: true`. */
export function AreYouSureDialog({
  outcome,
  onEdit,
  onSendAnyway,
  busy = false,
}: {
  outcome: GuardOutcome;
  onEdit(): void;
  onSendAnyway(body: string): void;
  busy?: boolean;
}) {
  const open = outcome?.kind === 'confirm';
  const returnFocus = useReturnFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && !busy && onEdit()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlay} />
        <AlertDialog.Content {...returnFocus} className={cn(dialogPanel, 'grid gap-4')}>
          <AlertDialog.Title className="font-display text-xl font-bold">Are you sure?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="grid gap-2 text-sm text-muted-foreground">
              <p>{outcome?.kind === 'confirm' ? outcome.message : ''}</p>
              {outcome?.kind === 'confirm' && (
                <blockquote className="rounded-xl border-l-4 border-border bg-muted px-3 py-2 text-foreground">{outcome.body}</blockquote>
              )}
              <p>If you send it anyway, others see it folded away and can report it.</p>
            </div>
          </AlertDialog.Description>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="default" disabled={busy}>
                Edit
              </Button>
            </AlertDialog.Cancel>
            <Button variant="outline" disabled={busy} onClick={() => outcome?.kind === 'confirm' && onSendAnyway(outcome.body)}>
              Send anyway
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
