import { useQuery } from '@tanstack/react-query';
import { Scale } from 'lucide-react';
import { useState } from 'react';
import { type AdminAppeal, actionLabel } from '../../../../shared/schemas/moderation';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { fmtDateTime } from '../format';
import { ReasonDialog } from './dialog';
import { EmptyState, ListStates } from './states';

/**
 * Appeals (issue 30): oldest first. The admin who took the action cannot decide its appeal; a
 * reversal undoes the action and the member is told either way.
 */
export function AppealsQueue() {
  const toast = useToast();
  const q = useQuery({ queryKey: adminKeys.appeals, queryFn: adminApi.appeals });
  const [deciding, setDeciding] = useState<{ appeal: AdminAppeal; decision: 'uphold' | 'reverse' } | null>(null);
  const decide = useAdminMutation((v: { id: string; decision: 'uphold' | 'reverse'; note: string }) =>
    adminApi.decideAppeal(v.id, { decision: v.decision, note: v.note }),
  );
  const appeals = q.data?.appeals ?? [];
  return (
    <div className="grid gap-4">
      <ListStates
        query={q}
        loading="Loading appeals"
        rows={2}
        isEmpty={appeals.length === 0}
        empty={<EmptyState icon={Scale} title="No open appeals" />}
      >
        {appeals.map((a) => (
          <Card key={a.id} className="grid gap-3 p-4 sm:p-5" data-testid="appeal-card">
            <header className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="font-semibold">
                {a.member?.name ?? 'A closed account'} appeals: {actionLabel(a.action.action, a.action.days)}
              </h2>
              <span className="text-xs text-muted-foreground">Appealed {fmtDateTime(a.createdAt)}</span>
            </header>
            <dl className="grid gap-1 text-sm">
              <div>
                <dt className="inline font-medium">Rule: </dt>
                <dd className="inline">{a.action.rule}</dd>
              </div>
              {a.action.quote && (
                <div>
                  <dt className="inline font-medium">Line: </dt>
                  <dd className="inline">“{a.action.quote}”</dd>
                </div>
              )}
              <div>
                <dt className="inline font-medium">Decided by: </dt>
                <dd className="inline">
                  {a.action.actorName ?? 'a former admin'} on {fmtDateTime(a.action.createdAt)}
                </dd>
              </div>
            </dl>
            <blockquote className="border-l-4 border-primary/40 pl-3 text-sm whitespace-pre-wrap">{a.text}</blockquote>
            {a.decidable ? (
              <div className="flex flex-wrap gap-2">
                <Button size="sm" variant="outline" onClick={() => setDeciding({ appeal: a, decision: 'uphold' })}>
                  Uphold
                </Button>
                <Button size="sm" onClick={() => setDeciding({ appeal: a, decision: 'reverse' })}>
                  Reverse
                </Button>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">You took this action, so another admin decides the appeal.</p>
            )}
          </Card>
        ))}
      </ListStates>
      <ReasonDialog
        open={Boolean(deciding)}
        onOpenChange={(o) => !o && setDeciding(null)}
        title={deciding?.decision === 'reverse' ? 'Reverse this decision?' : 'Uphold this decision?'}
        description={
          deciding?.decision === 'reverse'
            ? 'The action is undone at once (a removed line comes back, a mute or suspension ends, a ban lets the address register again).'
            : 'The decision stands. The member can’t appeal it again.'
        }
        reasonLabel="Note for the member"
        confirmLabel={deciding?.decision === 'reverse' ? 'Reverse' : 'Uphold'}
        onConfirm={async (note) => {
          if (!deciding) return;
          const r = await decide.mutateAsync({ id: deciding.appeal.id, decision: deciding.decision, note });
          toast({ title: r.status === 'reversed' ? 'Decision reversed' : 'Decision upheld', description: 'The member has been told.' });
        }}
      />
    </div>
  );
}
