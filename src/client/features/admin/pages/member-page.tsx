import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Flag, History, RefreshCw, ShieldCheck, UserRoundCog } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api';
import type { AdminMemberDetail, AdminMemberRestriction } from '../../../../shared/schemas/admin-members';
import { actionLabel, ruleText } from '../../../../shared/schemas/moderation';
import { AdminPage, Section, useAdminTitle } from '../components/admin-page';
import { EmptyState, TableSkeleton } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { fmtDate, fmtDateTime, plural } from '../format';
import { memberApi, memberKeys } from '../member-api';

const RESTRICTION_LABELS: Record<AdminMemberRestriction['kind'], string> = { suspend: 'Suspended', mute: 'Muted in mixers', ban: 'Banned' };
const KIND_LABELS = { gender: 'Gender identity', orientation: 'Orientation / looking for' } as const;
const REPORT_STATUS: Record<string, { label: string; tone: 'warning' | 'muted' | 'danger' }> = {
  open: { label: 'Open', tone: 'warning' },
  dismissed: { label: 'Dismissed', tone: 'muted' },
  warned: { label: 'Warned', tone: 'danger' },
  suspended: { label: 'Suspended', tone: 'danger' },
  actioned: { label: 'Actioned', tone: 'danger' },
};

const BackLink = () => (
  <Button asChild variant="ghost" size="sm" className="-ml-2 mb-3">
    <Link to="/admin/members">
      <ArrowLeft aria-hidden /> All members
    </Link>
  </Button>
);

/** /admin/members/:id (issue 32): one member as admins see them. Never shown to other members. */
export default function MemberAdminPage() {
  const { id = '' } = useParams();
  const q = useQuery({ queryKey: memberKeys.detail(id), queryFn: () => memberApi.detail(id), retry: false });

  if (q.isError) return <Missing error={q.error} onRetry={() => void q.refetch()} />;
  if (q.isPending)
    return (
      <AdminPage title="Member">
        <BackLink />
        <Section title="Account">
          <TableSkeleton rows={4} label="Loading the member" />
        </Section>
      </AdminPage>
    );
  return <Member m={q.data} />;
}

function Missing({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  // A malformed id (400) is as missing as an unknown one (404).
  const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
  useAdminTitle(missing ? 'Member not found' : 'Member');
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card className="flex flex-col items-start gap-3 p-6" role="alert">
        <h1 className="font-display text-2xl font-bold">{missing ? "We couldn't find that member" : "We couldn't load this member"}</h1>
        <p className="text-muted-foreground">
          {missing ? 'The link may be wrong, or the member deleted their account.' : (error as Error).message}
        </p>
        <div className="flex gap-2">
          {!missing && (
            <Button variant="outline" onClick={onRetry}>
              <RefreshCw aria-hidden /> Try again
            </Button>
          )}
          <Button asChild>
            <Link to="/admin/members">Search members</Link>
          </Button>
        </div>
      </Card>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm">{children}</dd>
    </div>
  );
}

function Member({ m }: { m: AdminMemberDetail }) {
  const v = m.verification;
  return (
    <AdminPage
      title={m.name}
      description={
        <>
          <span className="break-all">{m.email}</span> · joined {fmtDate(m.joinedAt)}
        </>
      }
      actions={
        <>
          {m.role === 'admin' && <Pill tone="primary">Admin</Pill>}
          {v?.status === 'verified' && <Pill tone="success">Verified</Pill>}
          {m.restrictions.map((r) => (
            <Pill key={`${r.kind}-${r.since}`} tone="danger">
              {RESTRICTION_LABELS[r.kind]}
            </Pill>
          ))}
        </>
      }
    >
      <BackLink />
      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <Section title="Account">
          <dl className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-5">
            <Fact label="Name">{m.name}</Fact>
            <Fact label="E-mail">
              <span className="break-all">{m.email}</span> {m.emailVerified ? '' : <Pill tone="warning">Not confirmed</Pill>}
            </Fact>
            <Fact label="Joined">{fmtDateTime(m.joinedAt)}</Fact>
            <Fact label="Last seen">{fmtDateTime(m.lastSeenAt)}</Fact>
            <Fact label="Role">{m.role === 'admin' ? 'Admin' : 'Member'}</Fact>
            <Fact label="Onboarding">{m.onboardingComplete ? 'Complete' : 'Not finished'}</Fact>
            <Fact label="Verification">
              {!v ? (
                'Not verified'
              ) : (
                <span className="grid gap-0.5">
                  <span className="flex flex-wrap items-center gap-1.5">
                    <Pill tone={v.status === 'verified' ? 'success' : v.status === 'revoked' ? 'danger' : 'warning'}>
                      {v.status === 'verified' ? 'Verified' : v.status === 'revoked' ? 'Revoked' : 'In review'}
                    </Pill>
                    {v.verifiedAt && <span className="text-muted-foreground">{fmtDate(v.verifiedAt)}</span>}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {v.method} · model {v.modelVersion}
                  </span>
                  {v.revokedReason && <span className="text-xs text-muted-foreground">Revoked: {v.revokedReason}</span>}
                </span>
              )}
            </Fact>
            <Fact label="Restrictions now">
              {m.restrictions.length === 0 ? (
                'None'
              ) : (
                <ul className="grid gap-1">
                  {m.restrictions.map((r) => (
                    <li key={`${r.kind}-${r.since}`}>
                      <span className="font-semibold">{RESTRICTION_LABELS[r.kind]}</span>{' '}
                      {r.endsAt ? `until ${fmtDateTime(r.endsAt)}` : 'until lifted'}
                      {r.rule && <span className="block text-xs text-muted-foreground">{ruleText(r.rule)}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </Fact>
          </dl>
        </Section>

        <Section title="Identity changes" description="Gender identity and orientation / looking for, from the audit log, newest first.">
          {m.identityChanges.length === 0 ? (
            <EmptyState icon={UserRoundCog} title="No changes" text="Changes made after onboarding appear here." />
          ) : (
            <ol className="divide-y divide-border">
              {m.identityChanges.map((c) => (
                <li key={`${c.kind}-${c.at}`} className="grid gap-1 px-4 py-3 sm:px-5">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                    <span className="text-sm font-semibold">{KIND_LABELS[c.kind]}</span>
                    <time dateTime={c.at} className="text-xs text-muted-foreground">
                      {fmtDateTime(c.at)}
                    </time>
                  </div>
                  <p className="text-sm">
                    <span className="text-muted-foreground line-through decoration-muted-foreground/50">{c.from}</span>
                    <span aria-hidden> → </span>
                    <span className="sr-only"> changed to </span>
                    <span className="font-medium">{c.to}</span>
                  </p>
                </li>
              ))}
            </ol>
          )}
        </Section>
      </div>

      <div className="mt-6 grid gap-6">
        <Section
          title="Moderation history"
          description="Actions taken on this member, newest first."
          actions={
            <Button asChild variant="outline" size="sm">
              <Link to="/admin/reports">
                <Flag aria-hidden /> Reports queue
              </Link>
            </Button>
          }
        >
          {m.actions.length === 0 ? (
            <EmptyState icon={History} title="No actions" text="Warnings, mutes, suspensions and bans appear here." />
          ) : (
            <Table caption="Moderation actions">
              <thead>
                <tr>
                  <Th>Action</Th>
                  <Th className="hidden sm:table-cell">Rule</Th>
                  <Th className="hidden sm:table-cell">Date</Th>
                  <Th>State</Th>
                </tr>
              </thead>
              <tbody>
                {m.actions.map((a) => (
                  <tr key={a.id}>
                    <Td>
                      <span className="font-medium">{actionLabel(a.action, a.days)}</span>
                      {/* Narrow screens: the rule and date under the action. */}
                      <span className="block text-sm sm:hidden">{ruleText(a.rule)}</span>
                      <span className="block text-xs text-muted-foreground sm:hidden">
                        {fmtDateTime(a.at)}
                        {a.by && ` · by ${a.by}`}
                      </span>
                    </Td>
                    <Td className="hidden min-w-40 sm:table-cell">{ruleText(a.rule)}</Td>
                    <Td className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                      {fmtDateTime(a.at)}
                      {a.by && <span className="block text-xs">by {a.by}</span>}
                    </Td>
                    <Td className="whitespace-nowrap">
                      {a.reversedAt ? (
                        <Pill>Reversed {fmtDate(a.reversedAt)}</Pill>
                      ) : a.endsAt && Date.parse(a.endsAt) > Date.now() ? (
                        <Pill tone="danger">Until {fmtDate(a.endsAt)}</Pill>
                      ) : a.endsAt ? (
                        <Pill>Ended {fmtDate(a.endsAt)}</Pill>
                      ) : (
                        <Pill tone={a.action === 'ban' ? 'danger' : 'muted'}>{a.action === 'ban' ? 'In force' : 'Stands'}</Pill>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Section>

        <Section
          title="Reports about this member"
          description={`${plural(m.reports.total, 'report')}, ${m.reports.open} open · ${m.reports.made === 0 ? 'they have reported no one' : `they reported others ${plural(m.reports.made, 'time')}`}`}
          actions={
            m.reports.open > 0 ? (
              <Button asChild size="sm">
                <Link to="/admin/reports">
                  <Flag aria-hidden /> {plural(m.reports.open, 'open report')} in the queue
                </Link>
              </Button>
            ) : undefined
          }
        >
          {m.reports.latest.length === 0 ? (
            <EmptyState icon={ShieldCheck} title="No reports" text="No one has reported this member." />
          ) : (
            <Table caption="Reports about this member">
              <thead>
                <tr>
                  <Th>Reason</Th>
                  <Th className="hidden sm:table-cell">Reported by</Th>
                  <Th className="hidden sm:table-cell">Date</Th>
                  <Th>Status</Th>
                </tr>
              </thead>
              <tbody>
                {m.reports.latest.map((r) => {
                  const s = REPORT_STATUS[r.status] ?? { label: r.status, tone: 'muted' as const };
                  return (
                    <tr key={r.id}>
                      <Td className="sm:min-w-40">
                        <span className="font-medium">{r.reason}</span>
                        <span className="block text-xs text-muted-foreground sm:hidden">
                          {r.reporter ?? 'Deleted account'} · {fmtDateTime(r.at)}
                        </span>
                      </Td>
                      <Td className="hidden whitespace-nowrap sm:table-cell">
                        {r.reporter ?? <span className="text-muted-foreground">Deleted account</span>}
                      </Td>
                      <Td className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">{fmtDateTime(r.at)}</Td>
                      <Td>
                        <Pill tone={s.tone}>{s.label}</Pill>
                      </Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
        </Section>
      </div>
    </AdminPage>
  );
}
