import { AlertDialog, Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason, reportSchema } from '../../../../shared/schemas/safety';
import { Button } from '../../../components/ui/button';
import { Label, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { useBlock, useReport, useUnmatch } from '../api';
import { useReturnFocus } from '../../../components/ui/use-return-focus';

const overlay = 'fixed inset-0 z-50 bg-black/45';
const panel =
  'fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-2xl outline-none';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');

function Confirm({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={panel} {...returnFocus}>
          <AlertDialog.Title className="font-display text-xl font-bold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-muted-foreground">{description}</div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={busy}
              onClick={(e) => {
                e.preventDefault();
                onConfirm();
              }}
            >
              {busy ? busyLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export function UnmatchDialog({
  open,
  onOpenChange,
  matchId,
  name,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  matchId: string;
  name: string;
}) {
  const toast = useToast();
  const unmatch = useUnmatch(matchId);
  return (
    <Confirm
      open={open}
      onOpenChange={onOpenChange}
      title={`Unmatch ${name}?`}
      description={
        <>
          <p>Your conversation ends for both of you. You can still read it, but neither of you can send new messages.</p>
          <p>This can’t be undone.</p>
        </>
      }
      confirmLabel="Unmatch"
      busyLabel="Unmatching…"
      busy={unmatch.isPending}
      onConfirm={() =>
        unmatch.mutate(undefined, {
          onSuccess: () => {
            onOpenChange(false);
            toast({ title: 'Unmatched', description: `You and ${name} are no longer matched.` });
          },
          onError: (err) => toast({ variant: 'destructive', title: 'Error', description: errorText(err) }),
        })
      }
    />
  );
}

export function BlockDialog({
  open,
  onOpenChange,
  matchId,
  userId,
  name,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  matchId: string;
  userId: string;
  name: string;
}) {
  const toast = useToast();
  const block = useBlock(matchId);
  return (
    <Confirm
      open={open}
      onOpenChange={onOpenChange}
      title={`Block ${name}?`}
      description={
        <>
          <p>You won’t see each other in mixers, chats or matches any more, and this conversation ends for both of you.</p>
          <p>We won’t tell {name} that you blocked them.</p>
        </>
      }
      confirmLabel="Block"
      busyLabel="Blocking…"
      busy={block.isPending}
      onConfirm={() =>
        block.mutate(userId, {
          onSuccess: () => {
            onOpenChange(false);
            toast({ title: `${name} blocked`, description: 'You won’t see each other on Fancy any more.' });
          },
          onError: (err) => toast({ variant: 'destructive', title: 'Error', description: errorText(err) }),
        })
      }
    />
  );
}

export function ReportDialog({
  open,
  onOpenChange,
  matchId,
  userId,
  mixerId,
  name,
  alreadyBlocked,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  matchId: string;
  userId: string;
  mixerId?: string | null;
  name: string;
  alreadyBlocked: boolean;
}) {
  const toast = useToast();
  const report = useReport();
  const block = useBlock(matchId);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(!alreadyBlocked);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = useId();
  const busy = report.isPending || block.isPending;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = reportSchema.safeParse({ userId, mixerId: mixerId ?? undefined, reason: reason || undefined, details });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await report.mutateAsync(parsed.data);
      if (alsoBlock && !alreadyBlocked) await block.mutateAsync(userId);
      onOpenChange(false);
      toast({
        title: 'Report sent',
        description:
          alsoBlock && !alreadyBlocked
            ? `Thanks for telling us. Our team will review it, and ${name} is now blocked.`
            : 'Thanks for telling us. Our team will review it.',
      });
    } catch (err) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(err) });
    }
  };

  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlay} />
        <Dialog.Content className={cn(panel, 'max-h-[calc(100dvh-2rem)] overflow-y-auto')} {...returnFocus}>
          <Dialog.Title className="font-display text-xl font-bold">Report {name}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted-foreground">
            Reports are private. Our team reviews every one. If someone is in danger, call 999.
          </Dialog.Description>
          <form onSubmit={submit} noValidate className="mt-5 grid gap-5">
            <fieldset aria-describedby={errors.reason ? `${ids}-reason-error` : undefined}>
              <legend className="text-sm font-medium">What happened?</legend>
              <div className="mt-2 grid gap-1.5">
                {REPORT_REASONS.map((r) => (
                  <label
                    key={r}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-xl border border-border px-3 py-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                    )}
                  >
                    <input
                      type="radio"
                      name="reason"
                      value={r}
                      checked={reason === r}
                      onChange={() => setReason(r)}
                      className="size-4 accent-[var(--primary)]"
                    />
                    {r}
                  </label>
                ))}
              </div>
              {errors.reason && (
                <p id={`${ids}-reason-error`} role="alert" className="mt-2 text-sm font-medium text-destructive">
                  {errors.reason}
                </p>
              )}
            </fieldset>
            <div className="grid gap-1.5">
              <Label htmlFor={`${ids}-details`}>Anything else we should know? (optional)</Label>
              <Textarea
                id={`${ids}-details`}
                value={details}
                onChange={(e) => setDetails(e.target.value)}
                aria-invalid={Boolean(errors.details)}
                aria-describedby={`${ids}-details-count`}
                className="min-h-24"
              />
              <div className="flex justify-between gap-3 text-xs">
                <span role={errors.details ? 'alert' : undefined} className="font-medium text-destructive">
                  {errors.details}
                </span>
                <span
                  id={`${ids}-details-count`}
                  className={cn('tabular-nums', details.trim().length > REPORT_DETAILS_MAX ? 'text-destructive' : 'text-muted-foreground')}
                >
                  {details.trim().length}/{REPORT_DETAILS_MAX}
                </span>
              </div>
            </div>
            {!alreadyBlocked && (
              <label className="flex cursor-pointer items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  checked={alsoBlock}
                  onChange={(e) => setAlsoBlock(e.target.checked)}
                  className="mt-0.5 size-4 accent-[var(--primary)]"
                />
                <span>
                  Also block {name}
                  <span className="block text-xs text-muted-foreground">You won’t see each other anywhere on Fancy.</span>
                </span>
              </label>
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" disabled={busy}>
                {busy ? 'Sending…' : 'Send report'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
