import { Dialog } from 'radix-ui';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { useReturnFocus } from './use-return-focus';

/** The dimmed page behind a centred dialog, and the dialog's panel (alert dialogs use them too). */
export const dialogOverlay = 'fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]';
export const dialogPanel =
  'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6';

/**
 * A centred dialog with a form in it (report someone, set up two-step verification): the
 * title, then `children` (its Dialog.Description and form). Focus goes back where it came from.
 */
export function PanelDialog({
  open,
  onOpenChange,
  title,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  className?: string;
  children: React.ReactNode;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialogOverlay} />
        <Dialog.Content className={cn(dialogPanel, className)} {...returnFocus}>
          <Dialog.Title className="font-display text-xl font-bold">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * Cancel (closes the dialog) and the form's submit button, which says what it is doing;
 * `disabled` holds the submit back while the form cannot be sent yet.
 */
export function DialogButtons({
  busy,
  busyLabel,
  label,
  disabled = false,
  className,
}: {
  busy: boolean;
  busyLabel: string;
  label: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>
      <Dialog.Close asChild>
        <Button variant="outline" disabled={busy}>
          Cancel
        </Button>
      </Dialog.Close>
      <Button type="submit" disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}
