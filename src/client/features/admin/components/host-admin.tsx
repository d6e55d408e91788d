import { useQuery } from '@tanstack/react-query';
import { MessagesSquare, Pencil } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { type HostAdminOverview, type HostTopicPrompts, hostPromptsSchema } from '../../../../shared/schemas/host';
import { Button } from '../../../components/ui/button';
import { Field, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';
import { adminKeys, useAdminMutation } from '../api';
import { Section } from './admin-page';
import { AdminDialog, DialogFooter, showSaveError } from './dialog';
import { EmptyState, ErrorState, TableSkeleton } from './states';
import { Pill, Table, Td, Th } from './table';

/** The host's admin controls (issue 29): per-topic prompts and the per-mixer switch. Both audited on the server. */
const hostKey = [...adminKeys.all, 'host'] as const;
const hostApi = {
  overview: () => api<HostAdminOverview>('/api/admin/host'),
  savePrompts: ({ topic, prompts }: { topic: string; prompts: string[] }) =>
    api<HostTopicPrompts>(`/api/admin/host/prompts/${encodeURIComponent(topic)}`, { method: 'PUT', body: { prompts } }),
  setEnabled: ({ mixerId, enabled }: { mixerId: string; enabled: boolean }) =>
    api<{ mixerId: string; enabled: boolean }>(`/api/admin/mixers/${mixerId}/host`, { method: 'PUT', body: { enabled } }),
};

export function useHostAdmin() {
  return useQuery({ queryKey: hostKey, queryFn: hostApi.overview });
}

/** Host prompts per topic, for the formation page beside the topic templates. */
export function HostPromptsSection({ className }: { className?: string }) {
  const host = useHostAdmin();
  const [editing, setEditing] = useState<HostTopicPrompts | null>(null);
  return (
    <Section
      title="Host prompts"
      className={className}
      description="What the host asks a room about each topic: the next one every quarter of the mixer, and when the room goes quiet."
    >
      {host.isError ? (
        <ErrorState error={host.error} onRetry={() => void host.refetch()} />
      ) : !host.data ? (
        <TableSkeleton rows={5} label="Loading host prompts" />
      ) : host.data.topics.length === 0 ? (
        <EmptyState icon={MessagesSquare} title="No topics yet" text="Add a topic template first; its prompts appear here." />
      ) : (
        <div className="max-h-96 overflow-y-auto">
          <Table caption="Host prompts per topic">
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>Topic</Th>
                <Th>First prompt</Th>
                <Th>Prompts</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {host.data.topics.map((tp) => (
                <tr key={tp.topic}>
                  <Td className="whitespace-nowrap font-medium">{tp.topic}</Td>
                  <Td className="min-w-56 text-muted-foreground">{tp.prompts[0]}</Td>
                  <Td className="whitespace-nowrap">
                    {tp.prompts.length} <Pill tone={tp.custom ? 'success' : 'muted'}>{tp.custom ? 'Edited' : 'Default'}</Pill>
                  </Td>
                  <Td className="text-right">
                    <Button size="sm" variant="ghost" onClick={() => setEditing(tp)} aria-label={`Edit the host prompts for ${tp.topic}`}>
                      <Pencil aria-hidden /> Edit
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      <PromptsDialog topic={editing} onClose={() => setEditing(null)} />
    </Section>
  );
}

function PromptsDialog({ topic, onClose }: { topic: HostTopicPrompts | null; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const save = useAdminMutation(hostApi.savePrompts);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!topic) return;
    setErrors({});
    setText(topic.prompts.join('\n'));
  }, [topic]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!topic) return;
    const parsed = hostPromptsSchema.safeParse({ prompts: text.split('\n').filter((l) => l.trim()) });
    if (!parsed.success) {
      setErrors({ prompts: parsed.error.issues[0]?.message ?? '' });
      return;
    }
    save.mutate(
      { topic: topic.topic, prompts: parsed.data.prompts },
      {
        onSuccess: (saved) => {
          toast({ title: 'Host prompts saved', description: `${saved.topic}: ${saved.prompts.length} prompts` });
          onClose();
        },
        onError: (err) => showSaveError(err, setErrors, toast, "Couldn't save the prompts"),
      },
    );
  };

  return (
    <AdminDialog
      open={topic !== null}
      onOpenChange={(o) => !o && !save.isPending && onClose()}
      title={topic ? `Host prompts: ${topic.topic}` : 'Host prompts'}
      description="One prompt per line, asked in this order. Easy to answer, open to everyone, nothing about looks or who people fancy."
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        <Field id={`${id}-prompts`} label="Prompts" error={errors.prompts}>
          <Textarea
            id={`${id}-prompts`}
            aria-invalid={Boolean(errors.prompts)}
            aria-describedby={errors.prompts ? `${id}-prompts-error` : undefined}
            value={text}
            className="min-h-64"
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save prompts'}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}

/** The per-mixer switch, in a mixer's row actions. */
export function HostSwitch({ mixerId, title }: { mixerId: string; title: string }) {
  const host = useHostAdmin();
  const toast = useToast();
  const set = useAdminMutation(hostApi.setEnabled);
  if (!host.data) return null;
  // While the switch is saving (and the list refreshing after), it shows what was asked for, not
  // the old state it would otherwise bounce back to.
  const enabled = set.isPending && set.variables ? set.variables.enabled : !host.data.disabledMixers.includes(mixerId);
  return (
    <label className="inline-flex min-h-9 cursor-pointer items-center gap-2 whitespace-nowrap rounded-full px-2 text-sm font-medium">
      <input
        type="checkbox"
        role="switch"
        aria-checked={enabled}
        className="size-4 accent-primary"
        checked={enabled}
        disabled={set.isPending}
        aria-label={`Host in ${title}`}
        onChange={(e) =>
          set.mutate(
            { mixerId, enabled: e.target.checked },
            {
              onSuccess: (r) => toast({ title: r.enabled ? 'Host on' : 'Host off', description: title }),
              onError: (err) => toast({ title: "Couldn't switch the host", description: err.message, variant: 'destructive' }),
            },
          )
        }
      />
      Host
    </label>
  );
}
