import { useMutation } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '../../../shared/safety-texts';
import type { ReportInput } from '../../../shared/schemas/safety';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Label, Textarea } from '../ui/input';
import { useToast } from '../ui/toast';
import { DialogButtons, PanelDialog } from '../ui/panel-dialog';

/**
 * The one set of safety dialogs (block, report, unmatch) for every place a member can act on
 * another: a mixer's participant list, a conversation, the matches page. Each feature passes
 * its own request (its mutation refreshes that feature's lists); the texts and checks are here.
 */

type Member = { id: string; firstName: string };

/** Runs a request and tells the dialog whether it is still working. */
export type SafetyAction<T = void> = { run: (input: T) => Promise<unknown>; busy: boolean };

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');

/** "Block Maya?": hides both members from each other everywhere (POST /api/blocks). */
export function BlockDialog({
  open,
  onOpenChange,
  member,
  block,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  member: Member;
  block: SafetyAction<string>;
}) {
  const toast = useToast();
  const name = member.firstName;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Block ${name}?`}
      description={
        <>
          <p>
            You won’t see each other in mixers, chats or messages any more: any fancies between you are cleared and your conversation
            disappears for {name}. You keep it, read-only, in case you want to report something.
          </p>
          <p>We won’t tell {name} that you blocked them.</p>
        </>
      }
      confirmLabel={`Block ${name}`}
      busyLabel="Blocking…"
      busy={block.busy}
      destructive
      onConfirm={() =>
        block.run(member.id).then(
          () => {
            onOpenChange(false);
            toast({ title: `${name} is blocked`, description: 'You won’t see each other on Fancy any more.' });
          },
          (err) => toast({ variant: 'destructive', title: 'Could not block', description: errorText(err) }),
        )
      }
    />
  );
}

/** "Unmatch Callum?": ends the conversation; it stays readable for you only (POST /api/matches/:id/unmatch, issue 30). */
export function UnmatchDialog({
  open,
  onOpenChange,
  name,
  unmatch,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  name: string;
  unmatch: SafetyAction;
}) {
  const toast = useToast();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Unmatch ${name}?`}
      description={
        <>
          <p>Your conversation ends and disappears for {name}. You can still read it, but neither of you can send new messages.</p>
          <p>This can’t be undone.</p>
        </>
      }
      confirmLabel="Unmatch"
      busyLabel="Unmatching…"
      busy={unmatch.busy}
      destructive
      onConfirm={() =>
        unmatch.run().then(
          () => {
            onOpenChange(false);
            toast({ title: 'Unmatched', description: `You and ${name} are no longer matched.` });
          },
          (err) => toast({ variant: 'destructive', title: 'Could not unmatch', description: errorText(err) }),
        )
      }
    />
  );
}

/**
 * Reason + details, sent to the admins' queue (POST /api/reports, the same from everywhere). With `block`, it offers to
 * block the member too (ticked by default); without it (already blocked), it does not.
 */
export function ReportDialog({
  open,
  onOpenChange,
  member,
  mixerId,
  block,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  member: Member;
  mixerId?: string | null;
  block?: SafetyAction<string>;
}) {
  const toast = useToast();
  const name = member.firstName;
  const report = useMutation({
    mutationFn: (input: ReportInput) => api<{ id: string }>('/api/reports', { method: 'POST', body: input }),
  });
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(Boolean(block));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = useId();
  const busy = report.isPending || Boolean(block?.busy);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // The schema (and zod) load with the first report, not with every page (issue 33).
    let schema: typeof import('../../../shared/schemas/safety')['reportSchema'];
    try {
      schema = (await import('../../../shared/schemas/safety')).reportSchema;
    } catch (err) {
      toast({ variant: 'destructive', title: 'Report not sent', description: errorText(err) });
      return;
    }
    const parsed = schema.safeParse({ userId: member.id, mixerId: mixerId ?? undefined, reason: reason || undefined, details });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    const blocking = Boolean(block && alsoBlock);
    try {
      await report.mutateAsync(parsed.data);
      if (blocking) await block?.run(member.id);
      onOpenChange(false);
      toast({
        title: 'Thanks for telling us',
        description: blocking ? `Our team will review your report, and ${name} is now blocked.` : 'Our team will review your report.',
      });
    } catch (err) {
      toast({ variant: 'destructive', title: 'Report not sent', description: errorText(err) });
    }
  };

  return (
    <PanelDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)} title={`Report ${name}`}>
      <Dialog.Description className="mt-1 text-sm text-muted-foreground">
        Reports are confidential: {name} won’t know it was you. Our team reviews every one. If someone is in danger, call 999.
      </Dialog.Description>
      <form onSubmit={submit} noValidate className="mt-5 grid gap-5">
        <fieldset aria-describedby={errors.reason ? `${ids}-reason-error` : undefined}>
          <legend className="text-sm font-medium">What’s the problem?</legend>
          <div className="mt-2 grid gap-1.5">
            {REPORT_REASONS.map((r) => (
              <label
                key={r}
                className="flex cursor-pointer items-center gap-3 rounded-xl border border-border px-3 py-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
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
          <Label htmlFor={`${ids}-details`}>Tell us what happened (optional)</Label>
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
        {block && (
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
        <DialogButtons busy={busy} busyLabel="Sending…" label="Send report" />
      </form>
    </PanelDialog>
  );
}

/** A TanStack mutation as a dialog's action. */
export function asAction<T>(mutation: { mutateAsync: (input: T) => Promise<unknown>; isPending: boolean }): SafetyAction<T> {
  return { run: (input) => mutation.mutateAsync(input), busy: mutation.isPending };
}
