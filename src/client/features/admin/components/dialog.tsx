import { type ComponentProps, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { describedBy, Field, Textarea } from '../../../components/ui/input';
import type { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { SheetDialog } from '../../../components/ui/sheet-dialog';

/** A centred dialog (a sheet from the bottom on phones) with a title, description and a scrollable body. */
export function AdminDialog({ children, ...props }: ComponentProps<typeof SheetDialog>) {
  return (
    <SheetDialog {...props}>
      <div className="overflow-y-auto px-5 pt-4 sm:px-6">{children}</div>
    </SheetDialog>
  );
}

export function DialogFooter({ children }: { children: React.ReactNode }) {
  return (
    <div className="sticky bottom-0 -mx-5 mt-2 flex flex-col-reverse gap-2 border-t border-border bg-card px-5 py-3 sm:-mx-6 sm:flex-row sm:justify-end sm:px-6">
      {children}
    </div>
  );
}

/**
 * A confirmation with a reason: for actions the member is told about (the reason is required),
 * or internal notes (optional). Keeps the dialog open and shows the server's message on failure.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  reasonLabel = 'Reason',
  reasonHint,
  required = true,
  placeholder,
  confirmLabel,
  destructive,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: React.ReactNode;
  reasonLabel?: string;
  reasonHint?: React.ReactNode;
  required?: boolean;
  placeholder?: string;
  confirmLabel: string;
  destructive?: boolean;
  /** Resolves when done (the dialog closes); rejects with an ApiError to show its message. */
  onConfirm: (reason: string) => Promise<unknown>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (open) {
      setReason('');
      setError(undefined);
    }
  }, [open]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    if (required && text.length === 0) return setError('Please give a reason — the member will read it.');
    if (required && text.length < 5) return setError('Please write at least 5 characters.');
    setPending(true);
    setError(undefined);
    try {
      await onConfirm(text);
      onOpenChange(false);
    } catch (err) {
      setError(err instanceof ApiError ? (err.fields.reason ?? err.message) : 'Something went wrong. Please try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <AdminDialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)} title={title} description={description}>
      <form onSubmit={submit} noValidate className="grid gap-4">
        {children}
        <Field id={`${id}-reason`} label={required ? reasonLabel : `${reasonLabel} (optional)`} error={error} hint={reasonHint}>
          <Textarea
            id={`${id}-reason`}
            value={reason}
            maxLength={1000}
            placeholder={placeholder}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy(`${id}-reason`, error, reasonHint)}
            aria-required={required}
            onChange={(e) => setReason(e.target.value)}
            className="min-h-24"
          />
        </Field>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Keep as is
          </Button>
          <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
            {pending ? 'Working…' : confirmLabel}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}

/** A failed save: the server's field messages go next to the fields; anything else becomes a toast. */
export function showSaveError(
  err: unknown,
  setErrors: (fields: Record<string, string>) => void,
  toast: ReturnType<typeof useToast>,
  title: string,
) {
  if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
  else toast({ title, description: err instanceof ApiError ? err.message : 'Please try again.', variant: 'destructive' });
}
