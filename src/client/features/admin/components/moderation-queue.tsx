import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Ban, Clock, Eye, EyeOff, MessageSquareOff, ShieldCheck, Timer, VolumeX, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  ACTION_DAYS,
  actionLabel,
  type EvidenceLine,
  type ModerationAction,
  type QueueGroup,
  type QueueReport,
  RULE_KEYS,
  RULES,
  type RuleKey,
  TARGET_HOURS,
} from '../../../../shared/schemas/moderation';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { age, fmtDate, fmtDateTime } from '../format';
import type { IdentityChange } from '../../../../shared/schemas/admin';
import { AdminDialog, DialogFooter } from './dialog';
import { EmptyState, ErrorState, Skeleton } from './states';
import { Pill } from './table';

const first = (name: string | undefined | null) => name?.trim().split(/\s+/)[0] || 'the member';

/** "Waited 3 h of 1 h" — how long against the target, turning red when overdue. */
function Waiting({ report }: { report: QueueReport }) {
  return (
    <Pill tone={report.overdue ? 'danger' : report.severity === 0 ? 'warning' : 'muted'} data-overdue={report.overdue || undefined}>
      <Clock className="mr-1 size-3" aria-hidden />
      {report.overdue ? 'Overdue · ' : ''}waited {age(report.createdAt).replace(' ago', '')} of {TARGET_HOURS[report.severity]} h
    </Pill>
  );
}

function Line({ line, reported }: { line: EvidenceLine; reported?: boolean }) {
  return (
    <li className={cn('rounded-xl px-3 py-2 text-sm', reported ? 'bg-destructive/10 ring-2 ring-destructive/40' : 'bg-muted')}>
      <p className="text-xs font-semibold">
        {line.authorName}
        {reported && <span className="ml-2 font-semibold text-destructive">Reported line</span>}
      </p>
      <p className="whitespace-pre-wrap">{line.body}</p>
      <time dateTime={line.createdAt} className="text-xs text-muted-foreground">
        {fmtDateTime(line.createdAt)}
      </time>
    </li>
  );
}

/** The frozen evidence: the profile as it was, the line and the 10 lines before and after. */
function Evidence({ report }: { report: QueueReport }) {
  const ev = report.evidence;
  if (!ev) return <p className="text-sm text-muted-foreground">No evidence was kept with this report.</p>;
  const lines = [...ev.before, ...(ev.line ? [ev.line] : []), ...ev.after];
  return (
    <div className="grid gap-3">
      <p className="text-xs text-muted-foreground">Frozen {fmtDateTime(ev.frozenAt)}: what members see may have changed since.</p>
      {ev.profile && (
        <div className="flex gap-3 rounded-xl border border-border p-3">
          {ev.photoUrl ? (
            <img src={ev.photoUrl} alt={`${ev.profile.name} when reported`} className="size-16 shrink-0 rounded-lg object-cover" />
          ) : (
            <div className="grid size-16 shrink-0 place-items-center rounded-lg bg-muted text-xs text-muted-foreground">No photo</div>
          )}
          <div className="min-w-0 text-sm">
            <p className="font-semibold">{ev.profile.name}</p>
            <p className="whitespace-pre-wrap text-muted-foreground">{ev.profile.bio || 'No bio.'}</p>
            {ev.profile.promptAnswer && <p className="mt-1 whitespace-pre-wrap text-xs">{ev.profile.promptAnswer}</p>}
          </div>
        </div>
      )}
      {lines.length > 0 && (
        <ol className="grid max-h-96 gap-1.5 overflow-y-auto" aria-label="Lines around the report">
          {lines.map((l) => (
            <Line key={l.id} line={l} reported={l.id === ev.line?.id} />
          ))}
        </ol>
      )}
    </div>
  );
}

type Acting = { group: QueueGroup; report: QueueReport; action: ModerationAction };

function ReportItem({ group, report, onAct }: { group: QueueGroup; report: QueueReport; onAct: (a: Acting) => void }) {
  const member = group.member;
  const hasLine = Boolean(report.evidence?.line);
  const act = (action: ModerationAction) => onAct({ group, report, action });
  return (
    <article
      data-testid="report-card"
      aria-labelledby={`report-${report.id}`}
      className="grid gap-3 border-t border-border p-4 first:border-t-0 sm:p-5"
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={`report-${report.id}`} className="flex flex-wrap items-center gap-2 font-semibold">
          {report.reason}
          {report.severity === 0 && <Pill tone="danger">Severe</Pill>}
          {report.lineHidden && (
            <Pill tone="warning">
              <EyeOff className="mr-1 size-3" aria-hidden /> Hidden while we check
            </Pill>
          )}
        </h4>
        <Waiting report={report} />
      </header>
      <p className="text-sm text-muted-foreground">
        By {report.reporter?.name ?? 'a deleted account'} · {fmtDateTime(report.createdAt)}
        {report.room && ` · ${report.room.kind === 'mixer' ? `in ${report.room.title}` : 'in a private chat'}`}
      </p>
      <blockquote className="border-l-4 border-primary/40 pl-3 text-sm">
        {report.details ? (
          <p className="whitespace-pre-wrap">{report.details}</p>
        ) : (
          <p className="text-muted-foreground">No details given.</p>
        )}
      </blockquote>
      <Evidence report={report} />
      <footer className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => act('dismiss')}>
          {report.lineHidden ? <Eye aria-hidden /> : <X aria-hidden />} {report.lineHidden ? 'Dismiss and restore' : 'Dismiss'}
        </Button>
        {hasLine && (
          <Button size="sm" variant="outline" onClick={() => act('remove')}>
            <MessageSquareOff aria-hidden /> Remove line
          </Button>
        )}
        {member && (
          <>
            <Button size="sm" variant="secondary" onClick={() => act('warn')}>
              <AlertTriangle aria-hidden /> Warn
            </Button>
            {member.role !== 'admin' && (
              <>
                <Button size="sm" variant="secondary" onClick={() => act('mute')}>
                  <VolumeX aria-hidden /> Mute
                </Button>
                <Button size="sm" variant="destructive" onClick={() => act('suspend')}>
                  <Timer aria-hidden /> Suspend
                </Button>
                <Button size="sm" variant="destructive" onClick={() => act('ban')}>
                  <Ban aria-hidden /> Ban
                </Button>
              </>
            )}
          </>
        )}
      </footer>
    </article>
  );
}

const IDENTITY_KIND_LABEL: Record<IdentityChange['kind'], string> = { gender: 'Gender', orientation: 'Orientation' };

/** The member's latest changes of gender identity and orientation/looking-for (issue 32): admins only. */
function IdentityChanges({ changes }: { changes: IdentityChange[] }) {
  if (!changes.length) return null;
  return (
    <dd className="mt-1">
      <span className="text-xs font-medium text-muted-foreground">Recent identity changes</span>
      <ul className="mt-0.5 grid gap-0.5 text-xs">
        {changes.map((c) => (
          <li key={`${c.kind}-${c.at}`}>
            <span className="font-medium">{IDENTITY_KIND_LABEL[c.kind]}:</span> {c.from} → {c.to}{' '}
            <span className="text-muted-foreground">· {fmtDate(c.at)}</span>
          </li>
        ))}
      </ul>
    </dd>
  );
}

function GroupCard({ group, onAct }: { group: QueueGroup; onAct: (a: Acting) => void }) {
  const name = group.member?.name ?? 'A deleted account';
  return (
    <Card className={cn('overflow-hidden', group.overdue && 'ring-2 ring-destructive/60')} data-testid="queue-group">
      <section aria-label={`Reports about ${name}`}>
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-border bg-muted/40 px-4 py-3 sm:px-5">
          <div className="min-w-0">
            <h2 className="font-semibold">
              {group.member ? (
                <Link to={`/admin/members/${encodeURIComponent(group.member.id)}`} className="underline-offset-4 hover:underline">
                  {name}
                </Link>
              ) : (
                name
              )}
            </h2>
            <p className="break-all text-xs text-muted-foreground">
              {group.member?.email ?? 'They deleted their account after the report: the evidence stays.'}
            </p>
            {group.member && (
              <dl>
                <IdentityChanges changes={group.member.identityChanges ?? []} />
              </dl>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {group.overdue && (
              <Pill tone="danger">
                <AlertTriangle className="mr-1 size-3" aria-hidden /> Overdue
              </Pill>
            )}
            <Pill tone="muted">
              {group.reports.length} open · {group.earlierReports} earlier
            </Pill>
          </div>
        </header>
        {group.history.length > 0 && (
          <div className="border-b border-border px-4 py-2 text-xs sm:px-5">
            <span className="font-semibold text-muted-foreground">Earlier actions: </span>
            {group.history.slice(0, 5).map((h, i) => (
              <span key={`${h.at}-${i}`} className={cn(h.reversed && 'line-through')}>
                {i > 0 && ' · '}
                {actionLabel(h.action)} ({h.rule ? (RULES[h.rule as RuleKey] ?? h.rule) : '—'}, {fmtDateTime(h.at)})
              </span>
            ))}
          </div>
        )}
        {group.reports.map((r) => (
          <ReportItem key={r.id} group={group} report={r} onAct={onAct} />
        ))}
      </section>
    </Card>
  );
}

const VERB: Record<ModerationAction, string> = {
  dismiss: 'Dismiss',
  remove: 'Remove line',
  warn: 'Send warning',
  mute: 'Mute in mixers',
  suspend: 'Suspend member',
  ban: 'Ban member',
};

/** One decision: the rule broken (from the list the Terms explain), the length, and whether the line goes too. */
function ActDialog({ acting, onClose }: { acting: Acting | null; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const [rule, setRule] = useState<RuleKey | ''>('');
  const [days, setDays] = useState<1 | 7 | 30>(7);
  const [removeLine, setRemoveLine] = useState(true);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const act = useAdminMutation((v: { id: string; body: Parameters<typeof adminApi.act>[1] }) => adminApi.act(v.id, v.body));
  useEffect(() => {
    if (acting) {
      setRule('');
      setDays(7);
      setRemoveLine(true);
      setNote('');
      setError(undefined);
    }
  }, [acting]);
  if (!acting) return null;
  const { action, report, group } = acting;
  const who = first(group.member?.name);
  const hasLine = Boolean(report.evidence?.line);
  const timed = action === 'mute' || action === 'suspend';
  const needsRule = action !== 'dismiss';
  const withLine = hasLine && action !== 'dismiss' && action !== 'remove';
  const description =
    action === 'dismiss'
      ? `No action against ${who}.${report.lineHidden ? ' The hidden line comes back for everyone.' : ''} The reporter hears we found no breach.`
      : action === 'remove'
        ? 'The line disappears from every member’s view; the evidence keeps it. Both are told.'
        : action === 'mute'
          ? `${who} can read mixers but not write, join or be invited.`
          : action === 'suspend'
            ? `${who} is signed out at once and cannot sign in until the suspension ends.`
            : action === 'ban'
              ? `${who}’s account ends and the e-mail address cannot register again.`
              : `${who} is told which rule and which line.`;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (needsRule && !rule) return setError('Choose the rule that was broken');
    try {
      await act.mutateAsync({
        id: report.id,
        body: {
          action,
          ...(rule ? { rule } : {}),
          ...(timed ? { days } : {}),
          removeLine: withLine && removeLine,
          note,
        },
      });
      toast({
        title: action === 'dismiss' ? 'Report dismissed' : `${actionLabel(action, timed ? days : null)}: done`,
        description: 'Everyone involved has been told.',
      });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    }
  };

  return (
    <AdminDialog
      open
      onOpenChange={(o) => !o && !act.isPending && onClose()}
      title={`${VERB[action]}${action === 'dismiss' ? ' this report' : ''}?`}
      description={description}
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        {needsRule && (
          <fieldset>
            <legend className="text-sm font-medium">Rule broken</legend>
            <div className="mt-2 grid gap-1.5 sm:grid-cols-2">
              {RULE_KEYS.map((k) => (
                <label
                  key={k}
                  className="flex cursor-pointer items-center gap-2 rounded-xl border border-border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                >
                  <input
                    type="radio"
                    name={`${id}-rule`}
                    value={k}
                    checked={rule === k}
                    onChange={() => setRule(k)}
                    className="size-4 accent-[var(--primary)]"
                  />
                  {RULES[k]}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {timed && (
          <fieldset>
            <legend className="text-sm font-medium">For how long</legend>
            <div className="mt-2 flex gap-2">
              {ACTION_DAYS.map((d) => (
                <label
                  key={d}
                  className="flex cursor-pointer items-center gap-2 rounded-full border border-border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                >
                  <input
                    type="radio"
                    name={`${id}-days`}
                    checked={days === d}
                    onChange={() => setDays(d)}
                    className="size-4 accent-[var(--primary)]"
                  />
                  {d} {d === 1 ? 'day' : 'days'}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {withLine && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={removeLine}
              onChange={(e) => setRemoveLine(e.target.checked)}
              className="size-4 accent-[var(--primary)]"
            />
            Also remove the reported line
          </label>
        )}
        <Field id={`${id}-note`} label="Note for the log (optional)" error={error}>
          <Textarea id={`${id}-note`} value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} className="min-h-16" />
        </Field>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={act.isPending}>
            Keep as is
          </Button>
          <Button type="submit" variant={action === 'ban' || action === 'suspend' ? 'destructive' : 'default'} disabled={act.isPending}>
            {act.isPending ? 'Working…' : VERB[action]}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}

/** The moderation queue (issue 30): grouped per reported member, most severe first, then oldest. */
export function ModerationQueue() {
  const q = useQuery({ queryKey: adminKeys.queue, queryFn: adminApi.queue, refetchInterval: 60_000 });
  const [acting, setActing] = useState<Acting | null>(null);
  const groups = q.data?.groups ?? [];
  const overdue = groups.filter((g) => g.overdue).length;
  return (
    <div className="grid gap-4">
      {q.isPending ? (
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading reports</span>
          {[0, 1].map((i) => (
            <Card key={i} className="p-5">
              <Skeleton className="h-5 w-52" />
              <Skeleton className="mt-4 h-24 w-full" />
            </Card>
          ))}
        </div>
      ) : q.isError ? (
        <Card>
          <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        </Card>
      ) : groups.length === 0 ? (
        <Card>
          <EmptyState
            icon={ShieldCheck}
            title="No open reports — nice."
            text="When a member reports someone, it shows up here with the evidence kept at that moment."
          />
        </Card>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" role="status">
            {groups.length} {groups.length === 1 ? 'member' : 'members'} reported
            {overdue > 0 && <span className="font-semibold text-destructive"> · {overdue} overdue</span>}. Targets: 1 hour for threats,
            under-18s, child safety and danger; 24 hours for the rest.
          </p>
          {groups.map((g) => (
            <GroupCard key={g.member?.id ?? g.reports[0].id} group={g} onAct={setActing} />
          ))}
        </>
      )}
      <ActDialog acting={acting} onClose={() => setActing(null)} />
    </div>
  );
}
