import { useMutation } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useState } from 'react';
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '../../../shared/safety-texts';
import type { ReportLineInput } from '../../../shared/schemas/safety';
import { Label, Textarea } from '../../components/ui/input';
import { DialogButtons, PanelDialog } from '../../components/ui/panel-dialog';
import { useToast } from '../../components/ui/toast';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';

/** The line a member reports: its id, what it said and who wrote it. */
export interface ReportableLine {
  id: string;
  body: string;
  author: { id: string; firstName: string };
}
/** Where the line was: a mixer (its id) or a private chat (the match id). */
export interface ReportRoom {
  kind: 'mixer' | 'direct';
  id: string;
}

/**
 * "Report this message" (issue 30): the line quoted, a reason from the one list and optional
 * details (POST /api/reports/line). The server freezes the evidence at this moment. Used from the
 * line menu, and pre-filled from "Does this bother you?" (`presetReason`).
 */
export function ReportLineDialog({
  open,
  onOpenChange,
  line,
  room,
  presetReason,
  onReported,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  line: ReportableLine;
  room: ReportRoom;
  presetReason?: ReportReason;
  onReported?: (result: { id: string; hidden: boolean }) => void;
}) {
  const toast = useToast();
  const ids = useId();
  const name = line.author.firstName;
  const [reason, setReason] = useState<ReportReason | ''>(presetReason ?? '');
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (open) {
      setReason(presetReason ?? '');
      setDetails('');
      setErrors({});
    }
  }, [open, presetReason]);
  const report = useMutation({
    mutationFn: (input: ReportLineInput) => api<{ id: string; hidden: boolean }>('/api/reports/line', { method: 'POST', body: input }),
  });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // The schema (and zod) load with the first report, not with every page (issue 33).
    let schema: typeof import('../../../shared/schemas/safety')['reportLineSchema'];
    try {
      schema = (await import('../../../shared/schemas/safety')).reportLineSchema;
    } catch {
      toast({ variant: 'destructive', title: 'Report not sent', description: 'Something went wrong. Please try again.' });
      return;
    }
    const parsed = schema.safeParse({
      kind: room.kind,
      roomId: room.id,
      messageId: line.id,
      reason: reason || undefined,
      details,
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const result = await report.mutateAsync(parsed.data);
      onOpenChange(false);
      onReported?.(result);
      toast({
        title: 'Thanks for telling us',
        description: 'Our team will review it. We keep a copy of the message, even if it is deleted.',
      });
    } catch (err) {
      const message = err instanceof ApiError ? err.message : 'Something went wrong. Please try again.';
      toast({ variant: 'destructive', title: 'Report not sent', description: message });
    }
  };

  return (
    <PanelDialog open={open} onOpenChange={(next) => !report.isPending && onOpenChange(next)} title="Report this message">
      <Dialog.Description className="mt-1 text-sm text-muted-foreground">
        Reports are confidential: {name} won’t know it was you. If someone is in danger, call 999.
      </Dialog.Description>
      <blockquote className="mt-4 rounded-2xl border-l-4 border-primary bg-muted px-4 py-3 text-sm">
        <p className="text-xs font-semibold text-muted-foreground">{name} wrote</p>
        <p className="mt-0.5 line-clamp-4 whitespace-pre-wrap">{line.body}</p>
      </blockquote>
      <form onSubmit={submit} noValidate className="mt-5 grid gap-5">
        <fieldset aria-describedby={errors.reason ? `${ids}-reason-error` : undefined}>
          <legend className="text-sm font-medium">What’s the problem?</legend>
          <div className="mt-2 grid gap-1.5 sm:grid-cols-2">
            {REPORT_REASONS.map((r) => (
              <label
                key={r}
                className="flex cursor-pointer items-center gap-3 rounded-xl border border-border px-3 py-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
              >
                <input
                  type="radio"
                  name={`${ids}-reason`}
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
            className="min-h-20"
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
        <DialogButtons busy={report.isPending} busyLabel="Sending…" label="Send report" />
      </form>
    </PanelDialog>
  );
}

/** State for one report dialog in a list of lines: `reportLine(line)` opens it, `dialog` renders it. */
export function useReportLine(room: ReportRoom, onReported?: (line: ReportableLine, result: { id: string; hidden: boolean }) => void) {
  const [target, setTarget] = useState<{ line: ReportableLine; presetReason?: ReportReason } | null>(null);
  const [open, setOpen] = useState(false);
  const reportLine = (line: ReportableLine, presetReason?: ReportReason) => {
    setTarget({ line, presetReason });
    setOpen(true);
  };
  const dialog = target ? (
    <ReportLineDialog
      open={open}
      onOpenChange={setOpen}
      line={target.line}
      room={room}
      presetReason={target.presetReason}
      onReported={(r) => onReported?.(target.line, r)}
    />
  ) : null;
  return { reportLine, dialog };
}
