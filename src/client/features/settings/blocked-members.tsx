import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban } from 'lucide-react';
import { useState } from 'react';
import type { BlockedMember } from '../../../shared/safety-texts';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { api } from '../../lib/api';
import { londonFormat } from '../../lib/london-time';

const blockedKey = ['blocks'] as const;
/** "30 November 2026" in London time (spec §9). */
const londonDate = londonFormat({ day: 'numeric', month: 'long', year: 'numeric' });
const day = (iso: string) => londonDate(new Date(iso));

/**
 * "People you blocked" on the safety page: every member a block hides, also those blocked from a
 * mixer with no conversation to unblock them from (GET /api/blocks, DELETE /api/blocks/:id).
 */
export function BlockedMembers() {
  const q = useQuery({ queryKey: blockedKey, queryFn: () => api<{ blocked: BlockedMember[] }>('/api/blocks') });
  const qc = useQueryClient();
  const toast = useToast();
  const [asked, setAsked] = useState<BlockedMember | null>(null);
  const unblock = useMutation({
    mutationFn: (m: BlockedMember) => api<{ blocked: false }>(`/api/blocks/${m.id}`, { method: 'DELETE' }),
    onSuccess: (_done, m) => {
      setAsked(null);
      toast({ title: `${m.firstName} is unblocked`, description: 'You can see each other in mixers again.' });
      // Who shows where (mixers, participants, suggestions) changes with a block: everything is read again.
      void qc.invalidateQueries();
    },
    onError: (err) => toast({ title: 'Couldn’t unblock', description: err.message, variant: 'destructive' }),
  });

  return (
    <section aria-labelledby="blocked" className="grid gap-3">
      <h2 id="blocked" className="flex items-center gap-2 font-display text-xl font-bold">
        <Ban className="size-5" aria-hidden /> People you blocked
      </h2>
      {q.isPending ? (
        <Spinner label="Loading the people you blocked" />
      ) : q.isError ? (
        <LoadError title="Couldn’t load the people you blocked" error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.blocked.length === 0 ? (
        <p className="text-sm text-muted-foreground">You haven’t blocked anyone.</p>
      ) : (
        <ul className="grid gap-2">
          {q.data.blocked.map((m) => (
            <li key={m.id}>
              <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <p className="font-medium">{m.firstName}</p>
                  <p className="text-xs text-muted-foreground">Blocked {day(m.blockedAt)}</p>
                </div>
                <Button variant="outline" size="sm" onClick={() => setAsked(m)}>
                  Unblock {m.firstName}
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={`Unblock ${asked?.firstName ?? ''}?`}
        description="You'll see each other in mixers again and can fancy each other. A match or conversation the block ended doesn't come back."
        confirmLabel="Unblock"
        busyLabel="Unblocking…"
        busy={unblock.isPending}
        onConfirm={() => asked && unblock.mutate(asked)}
      />
    </section>
  );
}
