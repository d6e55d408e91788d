import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CheckCircle2, Flag, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import type { AdminReport, SuspendedMember } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { ReasonDialog } from '../components/dialog';
import { AppealsQueue } from '../components/appeals-queue';
import { ModerationQueue } from '../components/moderation-queue';
import { EmptyState, ShowMore, ListStates } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { fmtDateTime } from '../format';
import { cursorPages } from '../../../lib/query';

const OUTCOME: Record<AdminReport['status'], { label: string; tone: 'muted' | 'warning' | 'danger' | 'primary' }> = {
  open: { label: 'Open', tone: 'primary' },
  dismissed: { label: 'Dismissed', tone: 'muted' },
  warned: { label: 'Warned', tone: 'warning' },
  suspended: { label: 'Suspended', tone: 'danger' },
  actioned: { label: 'Action taken', tone: 'danger' },
};

/** A member who deleted their account leaves their reports behind, without a name. */
const DELETED = 'A deleted account';
const reportedName = (r: AdminReport) => r.reported?.name ?? DELETED;

function SuspendedList() {
  const toast = useToast();
  const q = useQuery({ queryKey: adminKeys.suspended, queryFn: adminApi.suspended });
  const [lifting, setLifting] = useState<SuspendedMember | null>(null);
  const lift = useAdminMutation(({ actionId, reason }: { actionId: string; reason: string }) => adminApi.liftSuspension(actionId, reason));
  const members = q.data?.members ?? [];
  return (
    <Section
      title="Suspended members"
      description="They cannot sign in until the suspension ends. Lifting one reverses the decision and tells them by email; an admin other than the one who suspended them does it."
      id="suspended-members"
    >
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
              <Th>Rule</Th>
              <Th>Since</Th>
              <Th>Until</Th>
              <Th>By</Th>
              <Th className="text-right">Action</Th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.actionId} data-testid="suspended-row">
                <Td className="min-w-44">
                  <p className="font-medium">{m.name}</p>
                  <p className="break-all text-xs text-muted-foreground">{m.email}</p>
                </Td>
                <Td className="min-w-48">{m.rule}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">{fmtDateTime(m.suspendedAt)}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">{fmtDateTime(m.endsAt)}</Td>
                <Td className="whitespace-nowrap">{m.suspendedBy ?? 'A former admin'}</Td>
                <Td className="text-right">
                  {m.liftable ? (
                    <Button size="sm" variant="outline" onClick={() => setLifting(m)} aria-label={`Lift ${m.name}'s suspension`}>
                      <CheckCircle2 aria-hidden /> Lift
                    </Button>
                  ) : (
                    <span className="text-xs text-muted-foreground">Another admin lifts it</span>
                  )}
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
        description="The decision is reversed: they can sign in again straight away (unless another suspension of theirs is still running), a line removed with it comes back, and they are told by email, with your reason."
        reasonLabel="Reason for the member"
        placeholder="e.g. Appeal accepted: the photos were theirs."
        confirmLabel="Lift suspension"
        onConfirm={async (reason) => {
          if (!lifting) return;
          const name = lifting.name;
          const r = await lift.mutateAsync({ actionId: lifting.actionId, reason });
          toast({
            title: 'Suspension lifted',
            description: r.suspendedUntil
              ? `${name} has been told. Another suspension of theirs runs until ${fmtDateTime(r.suspendedUntil)}.`
              : `${name} can sign in again and has been told.`,
          });
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
  const [tab, setTab] = useState<'open' | 'appeals' | 'resolved'>('open');
  return (
    <AdminPage
      title="Reports"
      description="Open reports grouped per member, most severe first, each with the evidence kept when it was made. Every decision names a rule, is told to the people involved and kept in the admin log."
    >
      <fieldset className="mb-4 inline-flex flex-wrap rounded-full bg-muted p-1">
        <legend className="sr-only">Which reports</legend>
        {(
          [
            ['open', 'Queue'],
            ['appeals', 'Appeals'],
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
      {tab === 'open' ? <ModerationQueue /> : tab === 'appeals' ? <AppealsQueue /> : <HandledReports />}
      <div className="mt-6">
        <SuspendedList />
      </div>
    </AdminPage>
  );
}
