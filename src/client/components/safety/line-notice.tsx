import { EyeOff, Flag, ShieldCheck, TriangleAlert } from 'lucide-react';
import { createContext, type ReactNode, useContext, useState } from 'react';
import type { SafetyFlag } from '../../../shared/safety/flags';
import { GUARD_MESSAGES } from '../../../shared/guard-texts';
import { cn } from '../../lib/cn';
import { ReportDialog } from './safety-dialogs';

/**
 * Before harm (issue 30), the receiver's side of a line: collapsed when it was sent after "Are
 * you sure?" ("Does this bother you?" with Show and Report), collapsed when it holds one of the
 * member's hidden words ("Hidden by your word filter — show"), a scam warning with Report above a
 * money line, and a calm note above contact details in a private chat (once per conversation).
 */

/** The line a report is about, for a report-a-line dialog to pre-fill. */
export interface ReportableLine {
  id: string;
  body: string;
  sender: { id: string; firstName: string };
  /** The mixer (group chat) or the match (private chat) it was said in. */
  mixerId?: string | null;
  matchId?: string | null;
  flag: SafetyFlag | null;
}

/**
 * Who opens the report for a line. The report-a-line dialog (issue 30, "Report a line") provides
 * it around a chat; without one, the member report dialog opens for the line's author.
 */
export const LineReportContext = createContext<((line: ReportableLine) => void) | null>(null);

function useReportLine() {
  const provided = useContext(LineReportContext);
  const [fallback, setFallback] = useState<ReportableLine | null>(null);
  const dialog = fallback && (
    <ReportDialog open onOpenChange={(o) => !o && setFallback(null)} member={fallback.sender} mixerId={fallback.mixerId ?? null} />
  );
  return { report: provided ?? setFallback, dialog };
}

const noticeBox = 'rounded-2xl border px-3.5 py-2 text-sm leading-snug';

/**
 * Wraps the body of someone else's line. `children` is the line as it would show; it is shown
 * as is when nothing applies.
 */
export function LineNotice({
  line,
  collapsed,
  children,
  className,
}: {
  line: ReportableLine;
  /**
   * Why the line shows collapsed, as the chat's `collapsedReason` decides (the screen reader's
   * announcer follows the same rule): `abuse` and `words` fold here.
   */
  collapsed: string | null;
  children: ReactNode;
  className?: string;
}) {
  const [shown, setShown] = useState(false);
  const { report, dialog } = useReportLine();
  const reportButton = (label: string) => (
    <button
      type="button"
      onClick={() => report(line)}
      className="inline-flex min-h-9 items-center gap-1 rounded-full px-2 font-semibold text-destructive underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
    >
      <Flag className="size-3.5" aria-hidden />
      {label}
    </button>
  );
  const showButton = (
    <button
      type="button"
      onClick={() => setShown(true)}
      className="inline-flex min-h-9 items-center rounded-full px-2 font-semibold underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
    >
      Show
    </button>
  );

  if (collapsed === 'abuse' && !shown) {
    return (
      <div data-testid="line-collapsed" className={cn(noticeBox, 'border-border bg-muted text-muted-foreground', className)}>
        <p className="flex items-center gap-1.5 font-medium text-foreground">
          <EyeOff className="size-4 shrink-0" aria-hidden /> {GUARD_MESSAGES.collapsedAbuse}
        </p>
        <p className="text-xs">This line from {line.sender.firstName} may be hurtful.</p>
        <div className="mt-1 flex flex-wrap gap-1">
          {showButton}
          {reportButton('Report')}
        </div>
        {dialog}
      </div>
    );
  }
  if (collapsed === 'words' && !shown) {
    return (
      <p
        data-testid="line-hidden-words"
        className={cn(noticeBox, 'flex items-center gap-1 border-border bg-muted text-muted-foreground', className)}
      >
        <EyeOff className="size-4 shrink-0" aria-hidden /> {GUARD_MESSAGES.hiddenByWords} — {showButton}
      </p>
    );
  }
  return (
    <>
      {line.flag === 'abuse' && (
        <p className="mb-1 flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
          {GUARD_MESSAGES.collapsedAbuse} {reportButton('Report')}
        </p>
      )}
      {children}
      {dialog}
    </>
  );
}

/** Above a money line in a private chat: the scam warning, with one tap to report. */
export function ScamWarning({ line }: { line: ReportableLine }) {
  const { report, dialog } = useReportLine();
  return (
    <div
      role="note"
      data-testid="scam-warning"
      className="my-2 rounded-2xl border border-amber-300 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <p className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{GUARD_MESSAGES.scamWarning}</span>
      </p>
      <button
        type="button"
        onClick={() => report(line)}
        className="mt-1 ml-6 inline-flex min-h-9 items-center gap-1 font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring"
      >
        <Flag className="size-3.5" aria-hidden /> Report {line.sender.firstName}
      </button>
      {dialog}
    </div>
  );
}

/** Above the first line with contact details in a private chat's first 72 hours. */
export function ContactNote() {
  return (
    <p
      role="note"
      data-testid="contact-note"
      className="my-2 flex items-start gap-2 rounded-2xl border border-border bg-muted px-3.5 py-2.5 text-sm text-muted-foreground"
    >
      <ShieldCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <span>{GUARD_MESSAGES.contactNote}</span>
    </p>
  );
}
