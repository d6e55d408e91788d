import { AlertDialog } from 'radix-ui';
import { Button } from './button';
import { dialogOverlay, dialogPanel } from './panel-dialog';
import { useReturnFocus } from './use-return-focus';
import { cn } from '../../lib/cn';

/**
 * A confirmation for something that cannot be undone (or signs devices out). The confirm
 * button stays disabled while `canConfirm` is false and shows `busyLabel` while working.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busyLabel,
  busy = false,
  canConfirm = true,
  destructive = false,
  onConfirm,
  initialFocus,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  canConfirm?: boolean;
  destructive?: boolean;
  onConfirm(): void;
  /** The field to focus on opening (e.g. a password); otherwise Radix focuses Cancel. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  children?: React.ReactNode;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlay} />
        <AlertDialog.Content
          onOpenAutoFocus={(e) => {
            if (initialFocus?.current) {
              e.preventDefault();
              initialFocus.current.focus();
            }
          }}
          {...returnFocus}
          className={cn(dialogPanel, 'grid gap-4')}
        >
          <AlertDialog.Title className="font-display text-xl font-bold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="grid gap-2 text-sm text-muted-foreground">{description}</div>
          </AlertDialog.Description>
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (canConfirm && !busy) onConfirm();
            }}
          >
            {children}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button variant="outline" disabled={busy}>
                  Cancel
                </Button>
              </AlertDialog.Cancel>
              <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={!canConfirm || busy}>
                {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
