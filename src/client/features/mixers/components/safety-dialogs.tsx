import { zodResolver } from '@hookform/resolvers/zod';
import { AlertDialog, Dialog } from 'radix-ui';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { REPORT_DETAILS_MAX, REPORT_REASONS, reportSchema } from '../../../../shared/schemas/safety';
import { Button } from '../../../components/ui/button';
import { Label, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useBlockMember, useReportMember } from '../api';
import { useReturnFocus } from '../../../components/ui/use-return-focus';

const overlay = 'fixed inset-0 z-50 bg-black/45';
const panel =
  'fixed left-1/2 top-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6';

/** "Block Maya?" — hides both members from each other everywhere (the other half's POST /api/blocks). */
export function BlockDialog({
  open,
  onOpenChange,
  member,
  mixerId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  member: { id: string; firstName: string };
  mixerId: string;
}) {
  const toast = useToast();
  const block = useBlockMember(mixerId);
  const returnFocus = useReturnFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={panel} {...returnFocus}>
          <AlertDialog.Title className="font-display text-xl font-bold">Block {member.firstName}?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-muted-foreground">
            You won't see each other in mixers, chats or messages any more, and any fancies between you are cleared. {member.firstName}{' '}
            won't be told.
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={block.isPending}
              onClick={() =>
                block.mutate(member.id, {
                  onSuccess: () => {
                    onOpenChange(false);
                    toast({ title: `${member.firstName} is blocked`, description: "You won't see each other on Fancy any more." });
                  },
                  onError: (err) => toast({ title: 'Could not block', description: err.message, variant: 'destructive' }),
                })
              }
            >
              {block.isPending ? 'Blocking…' : `Block ${member.firstName}`}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

const reportFormSchema = reportSchema.pick({ reason: true, details: true });
type ReportForm = z.input<typeof reportFormSchema>;

/** Reason + details, sent to the admins' queue (the other half's POST /api/reports). */
export function ReportDialog({
  open,
  onOpenChange,
  member,
  mixerId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  member: { id: string; firstName: string };
  mixerId: string;
}) {
  const toast = useToast();
  const report = useReportMember();
  const form = useForm<ReportForm, unknown, z.output<typeof reportFormSchema>>({
    resolver: zodResolver(reportFormSchema),
    defaultValues: { details: '' },
  });
  const details = useWatch({ control: form.control, name: 'details' }) ?? '';
  const errors = form.formState.errors;

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) form.reset({ details: '' });
  };

  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlay} />
        <Dialog.Content className={panel} {...returnFocus}>
          <Dialog.Title className="font-display text-xl font-bold">Report {member.firstName}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted-foreground">
            Reports are confidential: {member.firstName} won't know it was you. Our team reviews every one.
          </Dialog.Description>
          <form
            className="mt-5 flex flex-col gap-5"
            noValidate
            onSubmit={form.handleSubmit((values) =>
              report.mutate(
                { userId: member.id, mixerId, reason: values.reason, details: values.details },
                {
                  onSuccess: () => {
                    close(false);
                    toast({ title: 'Thanks for telling us', description: 'Our team will review your report.' });
                  },
                  onError: (err) => toast({ title: 'Report not sent', description: err.message, variant: 'destructive' }),
                },
              ),
            )}
          >
            <fieldset aria-describedby={errors.reason ? 'report-reason-error' : undefined}>
              <legend className="text-sm font-medium">What's the problem?</legend>
              <div className="mt-2 grid gap-1.5">
                {REPORT_REASONS.map((reason) => (
                  <label
                    key={reason}
                    className="flex cursor-pointer items-center gap-3 rounded-xl border border-border px-3 py-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
                  >
                    <input type="radio" value={reason} {...form.register('reason')} className="size-4 accent-primary" />
                    {reason}
                  </label>
                ))}
              </div>
              {errors.reason && (
                <p id="report-reason-error" role="alert" className="mt-2 text-sm font-medium text-destructive">
                  {errors.reason.message}
                </p>
              )}
            </fieldset>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="report-details">Tell us what happened (optional)</Label>
              <Textarea
                id="report-details"
                rows={4}
                maxLength={REPORT_DETAILS_MAX}
                aria-invalid={Boolean(errors.details)}
                aria-describedby="report-details-count"
                {...form.register('details')}
              />
              <p id="report-details-count" className="text-right text-xs text-muted-foreground tabular-nums">
                {details.length}/{REPORT_DETAILS_MAX}
              </p>
              {errors.details && (
                <p role="alert" className="text-sm font-medium text-destructive">
                  {errors.details.message}
                </p>
              )}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" disabled={report.isPending}>
                {report.isPending ? 'Sending…' : 'Send report'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
