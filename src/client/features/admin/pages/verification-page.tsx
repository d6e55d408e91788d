import { useQuery } from '@tanstack/react-query';
import { Check, ShieldCheck, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';
import { useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { EmptyState, ErrorState, TableSkeleton } from '../components/states';
import { Pill } from '../components/table';
import { fmtDateTime } from '../format';
import type { EarlierCheck, VerificationReview } from '../../../../shared/verification';

interface Metrics {
  verificationRate: number;
  passRate: number;
  attempts: number;
  verified: number;
  duplicatesFound: number;
  openReviews: number;
  failureReasons: { reason: string; count: number }[];
}

const KIND = {
  age: {
    label: 'Age check',
    tone: 'warning',
    hint: 'The age estimate was under 25. Look at the pictures: approve only if the member is clearly an adult.',
  },
  duplicate: { label: 'Same face', tone: 'danger', hint: 'This face looks like another verified or removed member.' },
  appeal: { label: 'Appeal', tone: 'primary', hint: 'The member asked for a person to look again.' },
  match: {
    label: 'Close match',
    tone: 'warning',
    hint: 'The selfie is like the main photo, but not close enough to verify on its own. Approve only if they are clearly the same person.',
  },
} as const;

/** A match review whose faces read as different genders (the review's note). */
const GENDER_DIFFERS = {
  label: 'Gender differs',
  tone: 'warning',
  hint: 'The selfie matched the main photo, but the two look like different genders. Approve only if they are clearly the same person.',
} as const;
const kindOf = (item: VerificationReview) => (item.kind === 'match' && item.note === 'gender_differs' ? GENDER_DIFFERS : KIND[item.kind]);

const SCORE_LABELS: Record<string, string> = {
  photoMatch: 'Match with main photo',
  age: 'Age estimate',
  real: 'Anti-spoof (1 = real)',
  live: 'Liveness (1 = live)',
  turn: 'Head turn (rad)',
  duplicate: 'Similarity to the other account',
};

const pct = (x: number) => `${Math.round(x * 100)}%`;
const queueKey = ['admin', 'verification'] as const;

/** /admin/verification (issue 21): age reviews, duplicate faces and appeals; metrics. */
export default function VerificationAdminPage() {
  const toast = useToast();
  const q = useQuery({
    queryKey: queueKey,
    queryFn: () => api<{ reviews: VerificationReview[]; metrics: Metrics; earlier?: EarlierCheck[] }>('/api/admin/verification/reviews'),
  });
  const decide = useAdminMutation(({ id, decision }: { id: string; decision: 'approve' | 'decline' }) =>
    api(`/api/admin/verification/reviews/${id}`, { body: { decision } }),
  );
  const act = async (item: VerificationReview, decision: 'approve' | 'decline') => {
    try {
      await decide.mutateAsync({ id: item.id, decision });
      toast({
        title: decision === 'approve' ? `${item.member.name} is verified` : 'Declined',
        description: 'The pictures kept for this review are deleted.',
      });
    } catch (err) {
      toast({ title: 'Could not save', description: (err as Error).message, variant: 'destructive' });
    }
  };

  return (
    <AdminPage
      title="Verification"
      description="Checks a person needs to decide. Pictures kept for a review are deleted as soon as it is decided."
    >
      {q.isPending ? (
        <TableSkeleton label="Loading the verification queue" />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="grid gap-6">
          <Section title="Metrics">
            <div className="p-4 sm:p-5">
              <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
                {[
                  ['Verification rate', pct(q.data.metrics.verificationRate)],
                  ['Pass rate', pct(q.data.metrics.passRate)],
                  ['Checks', String(q.data.metrics.attempts)],
                  ['Duplicates found', String(q.data.metrics.duplicatesFound)],
                ].map(([label, value]) => (
                  <div key={label} className="rounded-xl bg-muted/60 p-3">
                    <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
                    <dd className="mt-1 font-display text-2xl font-bold tabular-nums">{value}</dd>
                  </div>
                ))}
              </dl>
              {q.data.metrics.failureReasons.length > 0 && (
                <div className="mt-4">
                  <h3 className="text-sm font-semibold">Reasons for failure</h3>
                  <ul className="mt-2 flex flex-wrap gap-2">
                    {q.data.metrics.failureReasons.map((r) => (
                      <li key={r.reason}>
                        <Pill>
                          {r.reason.replaceAll('_', ' ')}: {r.count}
                        </Pill>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          </Section>

          <Section title={`Queue (${q.data.reviews.length})`}>
            <div className="p-4 sm:p-5">
              {q.data.reviews.length === 0 ? (
                <EmptyState icon={ShieldCheck} title="Nothing to review" text="Age checks, duplicate faces and appeals appear here." />
              ) : (
                <ul className="grid gap-4">
                  {q.data.reviews.map((item) => (
                    <li key={item.id} className="rounded-2xl border border-border p-4" data-testid="verification-review">
                      <div className="flex flex-wrap items-center gap-2">
                        <Pill tone={kindOf(item).tone}>{kindOf(item).label}</Pill>
                        <span className="font-semibold">{item.member.name}</span>
                        <span className="text-sm text-muted-foreground">{item.member.email}</span>
                        <span className="ml-auto text-xs text-muted-foreground">{fmtDateTime(item.createdAt)}</span>
                      </div>
                      <p className="mt-2 text-sm text-muted-foreground">
                        {kindOf(item).hint}
                        {item.other && ` Other account: ${item.other.name}.`}
                        {item.kind === 'appeal' && item.note && ` The check said: ${item.note.replaceAll('_', ' ')}.`}
                      </p>
                      {item.frames.length > 0 && (
                        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Pictures kept for this review">
                          {item.frames.map((url, i) => (
                            <li key={url} className="shrink-0">
                              <img
                                src={url}
                                alt={`Camera frame ${i + 1} of ${item.frames.length}, ${item.member.name}`}
                                className="size-20 rounded-lg object-cover sm:size-24"
                              />
                            </li>
                          ))}
                        </ul>
                      )}
                      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
                        {Object.entries(item.scores)
                          .filter(([k]) => k in SCORE_LABELS)
                          .map(([k, v]) => (
                            <div key={k} className="flex justify-between gap-2">
                              <dt className="text-muted-foreground">{SCORE_LABELS[k]}</dt>
                              <dd className="font-medium tabular-nums">{v}</dd>
                            </div>
                          ))}
                      </dl>
                      <div className="mt-4 flex flex-wrap gap-2">
                        <Button size="sm" onClick={() => void act(item, 'approve')} disabled={decide.isPending}>
                          <Check aria-hidden /> Approve
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => void act(item, 'decline')} disabled={decide.isPending}>
                          <X aria-hidden /> Decline
                        </Button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </Section>

          <EarlierChecks items={q.data.earlier ?? []} />
        </div>
      )}
    </AdminPage>
  );
}

/**
 * Badges from an earlier check than today's (decision 031): which method and model verified each
 * member. Their face match stands; the liveness they passed was weaker, so the badge stays only
 * until their next main-photo change, when they take today's check.
 */
function EarlierChecks({ items }: { items: EarlierCheck[] }) {
  return (
    <Section title={`Verified by an earlier check (${items.length})`}>
      <div className="p-4 sm:p-5">
        <p className="text-sm text-muted-foreground">
          These badges came from an earlier version of the check. Their face can’t be re-checked for liveness from what we keep, so each
          badge stays until the member’s next main-photo change, when they take today’s check.
        </p>
        {items.length === 0 ? (
          <p className="mt-3 text-sm">Every verified member took today’s check.</p>
        ) : (
          <ul className="mt-3 divide-y divide-border" data-testid="earlier-checks">
            {items.map((item) => (
              <li key={item.member.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm">
                <span className="font-semibold">{item.member.name}</span>
                <span className="text-muted-foreground">{item.member.email}</span>
                <span className="break-all">
                  Model <span className="font-medium">{item.modelVersion}</span>, method{' '}
                  <span className="font-medium">{item.method.split(':')[0]}</span>
                </span>
                {item.verifiedAt && <span className="ml-auto text-xs text-muted-foreground">{fmtDateTime(item.verifiedAt)}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
