import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { AlertTriangle, ArrowRight, Flag, Heart, History, Lightbulb, type LucideIcon, Sparkles, UserPlus, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { AUDIT_ACTION_LABELS, type AuditEntry, auditActorName, type OperatorWarning } from '../../../../shared/schemas/admin';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { EmptyState, ErrorState, ShowMore, Skeleton, ListStates } from '../components/states';
import { Table, Td, Th } from '../components/table';
import { age, fmtDateTime, fmtNumber } from '../format';
import { cursorPages } from '../../../lib/query';

interface Figure {
  label: string;
  value: number | undefined;
  sub?: React.ReactNode;
}

function StatCard({
  icon: Icon,
  title,
  figures,
  to,
  linkLabel,
  alert,
}: {
  icon: LucideIcon;
  title: string;
  figures: Figure[];
  to: string;
  linkLabel: string;
  alert?: boolean;
}) {
  return (
    <Card className={cn('flex min-w-0 flex-col p-4 sm:p-5', alert && 'border-primary/50 ring-1 ring-primary/30')}>
      <div className="flex items-center gap-2.5">
        <span
          className={cn(
            'flex size-9 items-center justify-center rounded-xl bg-accent text-accent-foreground',
            alert && 'bg-primary text-primary-foreground',
          )}
        >
          <Icon className="size-[18px]" aria-hidden />
        </span>
        <h2 className="text-sm font-semibold">{title}</h2>
      </div>
      <dl className={cn('mt-4 grid flex-1 gap-x-4 gap-y-3', figures.length > 1 ? 'grid-cols-2' : 'grid-cols-1')}>
        {figures.map((f) => (
          <div key={f.label} className="min-w-0">
            <dt className="truncate text-xs text-muted-foreground">{f.label}</dt>
            <dd className="text-2xl font-extrabold tabular-nums">
              {f.value === undefined ? (
                <>
                  <Skeleton className="mt-1 h-7 w-12" />
                  <span className="sr-only">Loading</span>
                </>
              ) : (
                fmtNumber(f.value)
              )}
            </dd>
            {f.sub && <dd className="truncate text-xs text-muted-foreground">{f.sub}</dd>}
          </div>
        ))}
      </dl>
      <Link to={to} className="mt-4 inline-flex items-center gap-1 self-start text-sm font-semibold text-primary hover:underline">
        {linkLabel} <ArrowRight className="size-3.5" aria-hidden />
      </Link>
    </Card>
  );
}

const pct = (part: number | undefined, whole: number | undefined) =>
  part === undefined || !whole ? undefined : `${Math.round((part / whole) * 100)}% of members`;

function describeDetails(entry: AuditEntry): string {
  if (!entry.details) return entry.target ?? '';
  try {
    const d = JSON.parse(entry.details) as Record<string, unknown>;
    const parts = [d.title, d.name ?? d.text, d.label, d.code, d.category, d.reason, d.note].filter(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    return [...new Set(parts)].join(' · ') || (entry.target ?? '');
  } catch {
    return entry.details;
  }
}

function ActivityLog() {
  const audit = useInfiniteQuery({
    queryKey: adminKeys.audit,
    queryFn: ({ pageParam }) => adminApi.audit(pageParam),
    ...cursorPages,
  });
  const items = audit.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Section title="Admin activity" description="Every admin action: who, what and when." id="admin-activity">
      <ListStates
        query={audit}
        loading="Loading admin activity"
        rows={4}
        isEmpty={items.length === 0}
        empty={
          <EmptyState
            icon={History}
            title="No admin actions yet"
            text="Approvals, mixer changes, campaigns and report decisions will be listed here."
          />
        }
      >
        <Table caption="Admin activity">
          <thead>
            <tr>
              <Th>When</Th>
              <Th>Who</Th>
              <Th>What</Th>
              <Th>Details</Th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr key={e.id}>
                <Td className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={e.createdAt} title={fmtDateTime(e.createdAt)}>
                    {fmtDateTime(e.createdAt)}
                  </time>
                </Td>
                <Td className="whitespace-nowrap">{auditActorName(e)}</Td>
                <Td className="whitespace-nowrap font-medium">{AUDIT_ACTION_LABELS[e.action] ?? e.action}</Td>
                <Td className="min-w-56 max-w-md truncate text-muted-foreground" title={describeDetails(e)}>
                  {describeDetails(e)}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        <ShowMore query={audit} label="Show older" />
      </ListStates>
    </Section>
  );
}

/** Configuration the operator chose that leaves something off (e.g. mail kept in the outbox). */
function OperatorWarnings({ warnings }: { warnings: OperatorWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="mb-4 space-y-3">
      {warnings.map((w) => (
        <div
          key={w.code}
          role="alert"
          className="flex gap-3 rounded-xl border border-amber-500/50 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
          <div className="min-w-0">
            <p className="font-semibold">{w.title}</p>
            <p className="text-sm">{w.text}</p>
          </div>
        </div>
      ))}
    </div>
  );
}

export default function AdminOverviewPage() {
  const q = useQuery({ queryKey: adminKeys.overview, queryFn: adminApi.overview, refetchInterval: 60_000 });
  const o = q.data;
  return (
    <AdminPage title="Overview" description="How Fancy is doing right now. Figures are live; days are UTC.">
      {o?.warnings && <OperatorWarnings warnings={o.warnings} />}
      {q.isError && !o ? (
        <Card>
          <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <StatCard
            icon={Flag}
            title="Reports"
            alert={Boolean(o?.reports.open)}
            figures={[
              {
                label: 'Open reports',
                value: o?.reports.open,
                sub: o?.reports.oldestOpenAt ? `Oldest waiting ${age(o.reports.oldestOpenAt)}` : o ? 'Queue is clear' : undefined,
              },
              { label: 'Suspended members', value: o?.members.suspended },
            ]}
            to="/admin/reports"
            linkLabel="Review reports"
          />
          <StatCard
            icon={UsersRound}
            title="Members"
            figures={[
              { label: 'Total', value: o?.members.total },
              { label: 'Verified', value: o?.members.verified, sub: pct(o?.members.verified, o?.members.total) },
              { label: 'Onboarded', value: o?.members.onboarded, sub: pct(o?.members.onboarded, o?.members.total) },
              { label: 'Active today', value: o?.activeToday },
            ]}
            to="/admin/metrics"
            linkLabel="See the funnel"
          />
          <StatCard
            icon={UserPlus}
            title="New sign-ups"
            figures={[
              { label: 'Today', value: o?.signups.today },
              { label: 'Last 7 days', value: o?.signups.last7Days },
            ]}
            to="/admin/campaigns"
            linkLabel="By campaign"
          />
          <StatCard
            icon={Sparkles}
            title="Mixers"
            figures={[
              { label: 'Live now', value: o?.mixers.live },
              { label: 'Upcoming', value: o?.mixers.upcoming },
            ]}
            to="/admin/mixers"
            linkLabel="Manage mixers"
          />
          <StatCard
            icon={Heart}
            title="Last 7 days"
            figures={[
              { label: 'Matches', value: o?.last7Days.matches },
              { label: 'Private messages', value: o?.last7Days.directMessages },
              { label: 'Mixer chat messages', value: o?.last7Days.chatMessages },
            ]}
            to="/admin/metrics"
            linkLabel="Daily figures"
          />
          <StatCard
            icon={Lightbulb}
            title="Interest suggestions"
            alert={Boolean(o?.suggestions.pending)}
            figures={[{ label: 'Waiting for a decision', value: o?.suggestions.pending }]}
            to="/admin/interest-suggestions"
            linkLabel="Review suggestions"
          />
        </div>
      )}
      <div className="mt-6">
        <ActivityLog />
      </div>
    </AdminPage>
  );
}
