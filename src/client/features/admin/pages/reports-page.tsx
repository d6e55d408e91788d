import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { AlertTriangle, Ban, CheckCircle2, Clock, Flag, MessageCircle, ShieldCheck, UserRound, UsersRound, X } from 'lucide-react';
import { useState } from 'react';
import type { AdminReport, IdentityChange, ReportAction, SuspendedMember } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { ReasonDialog } from '../components/dialog';
import { EmptyState, ErrorState, ShowMore, Skeleton, ListStates } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { age, ageHours, fmtDate, fmtDateTime, fmtWhen, plural } from '../format';
import { cursorPages } from '../../../lib/query';

const OUTCOME: Record<AdminReport['status'], { label: string; tone: 'muted' | 'warning' | 'danger' | 'primary' }> = {
  open: { label: 'Open', tone: 'primary' },
  dismissed: { label: 'Dismissed', tone: 'muted' },
  warned: { label: 'Warned', tone: 'warning' },
  suspended: { label: 'Suspended', tone: 'danger' },
  actioned: { label: 'Action taken', tone: 'danger' },
};

const first = (name: string) => name.trim().split(/\s+/)[0] || 'the member';
/** A member who deleted their account leaves their reports behind, without a name. */
const DELETED = 'A deleted account';
const reportedName = (r: AdminReport) => r.reported?.name ?? DELETED;
const reportedFirst = (r: AdminReport): string => (r.reported ? first(r.reported.name) : 'the member');

function ContextLines({ report }: { report: AdminReport }) {
  const hasChat = report.mixerMessages.length > 0;
  const hasDms = report.directMessages.length > 0;
  if (!hasChat && !hasDms) {
    return <p className="text-sm text-muted-foreground">No messages between them or from {reportedFirst(report)} in that mixer.</p>;
  }
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      {hasChat && (
        <div>
          <h4 className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            <UsersRound className="size-3.5" aria-hidden /> {reportedFirst(report)} in the mixer chat
          </h4>
          <ol className="grid gap-1.5">
            {report.mixerMessages.map((m) => (
              <li key={m.id} className="rounded-xl bg-muted px-3 py-2 text-sm">
                <p className="whitespace-pre-wrap break-words">{m.body}</p>
                <time dateTime={m.createdAt} className="text-xs text-muted-foreground">
                  {fmtDateTime(m.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        </div>
      )}
      {hasDms && (
        <div>
          <h4 className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            <MessageCircle className="size-3.5" aria-hidden /> Private messages between them
          </h4>
          <ol className="grid gap-1.5">
            {report.directMessages.map((m) => (
              <li key={m.id} className={cn('rounded-xl px-3 py-2 text-sm', m.fromReported ? 'bg-destructive/10' : 'bg-muted')}>
                <p className="text-xs font-semibold">
                  {m.fromReported ? reportedFirst(report) : first(report.reporter?.name ?? 'Reporter')}
                </p>
                <p className="whitespace-pre-wrap break-words">{m.body}</p>
                <time dateTime={m.createdAt} className="text-xs text-muted-foreground">
                  {fmtDateTime(m.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

function ReportCard({ report, onAction }: { report: AdminReport; onAction: (r: AdminReport, a: ReportAction) => void }) {
  const hours = ageHours(report.createdAt);
  const r = report.reported;
  const name = reportedName(report);
  return (
    <Card className="overflow-hidden" data-testid="report-card">
      <article aria-labelledby={`report-${report.id}`}>
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-border bg-muted/40 px-4 py-3 sm:px-5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`report-${report.id}`} className="font-semibold">
              {report.reason}
            </h3>
            <span className="text-sm text-muted-foreground">
              about <span className="font-medium text-foreground">{name}</span>
            </span>
          </div>
          <Pill tone={hours >= 24 ? 'danger' : hours >= 4 ? 'warning' : 'muted'}>
            <Clock className="mr-1 size-3" aria-hidden />
            <span className="sr-only">Waiting </span>
            {age(report.createdAt)}
            {age(report.createdAt) === 'just now' ? '' : ' old'}
          </Pill>
        </header>
        <div className="grid gap-4 p-4 sm:p-5 lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
          <dl className="grid content-start gap-3 text-sm">
            <div>
              <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Reported member</dt>
              <dd className="font-medium">
                {name} {r?.suspended && <Pill tone="danger">Suspended</Pill>}
              </dd>
              {r ? (
                <>
                  <dd className="break-all text-xs text-muted-foreground">{r.email}</dd>
                  <dd className="text-xs text-muted-foreground">
                    Joined {fmtDate(r.joinedAt)} · {plural(r.reportsTotal, 'report')} · {plural(r.warnings, 'warning')}
                  </dd>
                  <IdentityChanges changes={r.identityChanges ?? []} />
                </>
              ) : (
                <dd className="text-xs text-muted-foreground">
                  They deleted their account after this report, so it can only be dismissed.
                </dd>
              )}
            </div>
            <div>
              <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Reported by</dt>
              <dd>{report.reporter ? report.reporter.name : DELETED}</dd>
              <dd className="text-xs text-muted-foreground">{fmtDateTime(report.createdAt)}</dd>
            </div>
            {report.mixer && (
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">In the mixer</dt>
                <dd>{report.mixer.title}</dd>
                <dd className="text-xs text-muted-foreground">
                  {fmtWhen(report.mixer.startsAt)} · {report.mixer.status}
                </dd>
              </div>
            )}
          </dl>
          <div className="grid content-start gap-4">
            <blockquote className="border-l-4 border-primary/40 pl-3 text-sm">
              {report.details ? (
                <p className="whitespace-pre-wrap break-words">{report.details}</p>
              ) : (
                <p className="text-muted-foreground">No details given.</p>
              )}
            </blockquote>
            <ContextLines report={report} />
          </div>
        </div>
        <footer className="flex flex-col-reverse gap-2 border-t border-border px-4 py-3 sm:flex-row sm:justify-end sm:px-5">
          <Button size="sm" variant="outline" onClick={() => onAction(report, 'dismiss')}>
            <X aria-hidden /> Dismiss
          </Button>
          {r && (
            <>
              <Button size="sm" variant="secondary" onClick={() => onAction(report, 'warn')}>
                <AlertTriangle aria-hidden /> Warn
              </Button>
              <Button size="sm" variant="destructive" onClick={() => onAction(report, 'suspend')} disabled={r.suspended}>
                <Ban aria-hidden /> Suspend
              </Button>
            </>
          )}
        </footer>
      </article>
    </Card>
  );
}

const DIALOG: Record<
  ReportAction,
  (r: AdminReport) => { title: string; description: string; label: string; hint: string; confirm: string }
> = {
  dismiss: (r) => ({
    title: 'Dismiss this report?',
    description: `No action against ${r.reported ? r.reported.name : 'the member'}. ${r.reporter ? `${first(r.reporter.name)} is told by email, with your note.` : ''}`,
    label: 'Note for the reporter',
    hint: 'e.g. what you checked and why it is within our guidelines.',
    confirm: 'Dismiss report',
  }),
  warn: (r) => ({
    title: `Warn ${reportedName(r)}?`,
    description: `${reportedFirst(r)} gets a warning by email and in the app, with your reason. The reporter hears that we took action.`,
    label: `Reason for ${reportedFirst(r)}`,
    hint: `${reportedFirst(r)} reads this.`,
    confirm: 'Send warning',
  }),
  suspend: (r) => ({
    title: `Suspend ${reportedName(r)}?`,
    description: `${reportedFirst(r)} is signed out everywhere at once and can't sign in until you lift the suspension. Their other open reports close too, and everyone involved is told.`,
    label: `Reason for ${reportedFirst(r)}`,
    hint: `${reportedFirst(r)} reads this in the suspension email.`,
    confirm: 'Suspend member',
  }),
};

const DONE: Record<ReportAction, (r: AdminReport) => { title: string; description: string }> = {
  dismiss: () => ({ title: 'Report dismissed', description: 'The reporter has been told.' }),
  warn: (r) => ({ title: 'Warning sent', description: `${reportedName(r)} has been warned by email.` }),
  suspend: (r) => ({ title: 'Member suspended', description: `${reportedName(r)} is signed out and can no longer sign in.` }),
};

function SuspendedList() {
  const toast = useToast();
  const q = useQuery({ queryKey: adminKeys.suspended, queryFn: adminApi.suspended });
  const [lifting, setLifting] = useState<SuspendedMember | null>(null);
  const unsuspend = useAdminMutation(({ id, reason }: { id: string; reason: string }) => adminApi.unsuspend(id, reason));
  const members = q.data?.members ?? [];
  return (
    <Section title="Suspended members" description="They cannot sign in. Lifting a suspension tells them by email." id="suspended-members">
      <ListStates
        query={q}
        loading="Loading suspended members"
        rows={2}
        isEmpty={members.length === 0}
        empty={<EmptyState icon={ShieldCheck} title="Nobody is suspended" />}
      >
        <Table caption="Suspended members">
          <thead>
            <tr>
              <Th>Member</Th>
              <Th>Reason</Th>
              <Th>Since</Th>
              <Th>By</Th>
              <Th className="text-right">Action</Th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id} data-testid="suspended-row">
                <Td className="min-w-44">
                  <p className="font-medium">{m.name}</p>
                  <p className="break-all text-xs text-muted-foreground">{m.email}</p>
                </Td>
                <Td className="min-w-56">{m.reason ?? '—'}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">{fmtDateTime(m.suspendedAt)}</Td>
                <Td className="whitespace-nowrap">{m.suspendedBy ?? '—'}</Td>
                <Td className="text-right">
                  <Button size="sm" variant="outline" onClick={() => setLifting(m)} aria-label={`Unsuspend ${m.name}`}>
                    <CheckCircle2 aria-hidden /> Unsuspend
                  </Button>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </ListStates>
      <ReasonDialog
        open={Boolean(lifting)}
        onOpenChange={(o) => !o && setLifting(null)}
        title={lifting ? `Lift ${lifting.name}'s suspension?` : 'Lift suspension'}
        description="They can sign in again straight away and are told by email, with your reason."
        reasonLabel="Reason for the member"
        placeholder="e.g. Appeal accepted: the photos were theirs."
        confirmLabel="Lift suspension"
        onConfirm={async (reason) => {
          if (!lifting) return;
          const name = lifting.name;
          await unsuspend.mutateAsync({ id: lifting.id, reason });
          toast({ title: 'Suspension lifted', description: `${name} can sign in again and has been told.` });
        }}
      />
    </Section>
  );
}

function HandledReports() {
  const q = useInfiniteQuery({
    queryKey: adminKeys.reports('resolved'),
    queryFn: ({ pageParam }) => adminApi.reports('resolved', pageParam),
    ...cursorPages,
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Section title="Handled reports" description="Latest decisions first." id="handled-reports">
      <ListStates
        query={q}
        loading="Loading handled reports"
        isEmpty={items.length === 0}
        empty={<EmptyState icon={Flag} title="No handled reports yet" />}
      >
        <Table caption="Handled reports">
          <thead>
            <tr>
              <Th>Decided</Th>
              <Th>Member</Th>
              <Th>Report</Th>
              <Th>Outcome</Th>
              <Th>Reason given</Th>
              <Th>By</Th>
            </tr>
          </thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id}>
                <Td className="whitespace-nowrap text-muted-foreground">{fmtDateTime(r.resolvedAt)}</Td>
                <Td className="whitespace-nowrap font-medium">{reportedName(r)}</Td>
                <Td className="min-w-40">
                  {r.reason}
                  <span className="block text-xs text-muted-foreground">by {r.reporter?.name ?? 'a deleted account'}</span>
                </Td>
                <Td>
                  <Pill tone={OUTCOME[r.status].tone}>{OUTCOME[r.status].label}</Pill>
                </Td>
                <Td className="min-w-56">{r.resolution ?? '—'}</Td>
                <Td className="whitespace-nowrap">{r.resolvedBy ?? '—'}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
        <ShowMore query={q} label="Show older" />
      </ListStates>
    </Section>
  );
}

export default function AdminReportsPage() {
  const toast = useToast();
  const [tab, setTab] = useState<'open' | 'resolved'>('open');
  const [acting, setActing] = useState<{ report: AdminReport; action: ReportAction } | null>(null);
  const open = useInfiniteQuery({
    queryKey: adminKeys.reports('open'),
    queryFn: ({ pageParam }) => adminApi.reports('open', pageParam),
    ...cursorPages,
    refetchInterval: 60_000,
  });
  const resolve = useAdminMutation(({ id, action, reason }: { id: string; action: ReportAction; reason: string }) =>
    adminApi.resolveReport(id, { action, reason }),
  );
  const items = open.data?.pages.flatMap((p) => p.items) ?? [];
  const dialog = acting ? DIALOG[acting.action](acting.report) : null;

  return (
    <AdminPage
      title="Reports"
      description="Member reports, oldest first. Every decision is told to the people involved and kept in the admin log."
    >
      <fieldset className="mb-4 inline-flex rounded-full bg-muted p-1">
        <legend className="sr-only">Which reports</legend>
        {(
          [
            ['open', `Open${open.data ? ` (${items.length}${open.hasNextPage ? '+' : ''})` : ''}`],
            ['resolved', 'Handled'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            aria-pressed={tab === key}
            onClick={() => setTab(key)}
            className={cn(
              'h-9 rounded-full px-4 text-sm font-semibold text-muted-foreground',
              tab === key && 'bg-card text-foreground shadow-sm',
            )}
          >
            {label}
          </button>
        ))}
      </fieldset>

      {tab === 'open' ? (
        <div className="grid gap-4">
          {open.isPending ? (
            <div role="status" className="grid gap-4">
              <span className="sr-only">Loading reports</span>
              {[0, 1].map((i) => (
                <Card key={i} className="p-5">
                  <Skeleton className="h-5 w-52" />
                  <Skeleton className="mt-4 h-24 w-full" />
                </Card>
              ))}
            </div>
          ) : open.isError ? (
            <Card>
              <ErrorState error={open.error} onRetry={() => void open.refetch()} />
            </Card>
          ) : items.length === 0 ? (
            <Card>
              <EmptyState
                icon={ShieldCheck}
                title="No open reports — nice."
                text="When a member reports someone, it shows up here with the messages around it."
              />
            </Card>
          ) : (
            <>
              {items.map((r) => (
                <ReportCard key={r.id} report={r} onAction={(report, action) => setActing({ report, action })} />
              ))}
              <ShowMore query={open} label="Show more reports" variant="outline" className="text-center" />
            </>
          )}
        </div>
      ) : (
        <HandledReports />
      )}
      <div className="mt-6">
        <SuspendedList />
      </div>

      <ReasonDialog
        open={Boolean(acting)}
        onOpenChange={(o) => !o && setActing(null)}
        title={dialog?.title ?? ''}
        description={dialog?.description}
        reasonLabel={dialog?.label}
        reasonHint={dialog?.hint}
        confirmLabel={dialog?.confirm ?? 'Confirm'}
        destructive={acting?.action === 'suspend'}
        onConfirm={async (reason) => {
          if (!acting) return;
          const { report, action } = acting;
          await resolve.mutateAsync({ id: report.id, action, reason });
          toast(DONE[action](report));
        }}
      >
        {acting && (
          <p className="flex items-center gap-2 rounded-xl bg-muted px-3 py-2 text-sm">
            <UserRound className="size-4 shrink-0" aria-hidden /> {acting.report.reason} · reported {age(acting.report.createdAt)}
            {age(acting.report.createdAt) === 'just now' ? '' : ' ago'}
          </p>
        )}
      </ReasonDialog>
    </AdminPage>
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
          <li key={`${c.kind}-${c.at}`} className="break-words">
            <span className="font-medium">{IDENTITY_KIND_LABEL[c.kind]}:</span> {c.from} → {c.to}{' '}
            <span className="text-muted-foreground">· {fmtDate(c.at)}</span>
          </li>
        ))}
      </ul>
    </dd>
  );
}
