import { useInfiniteQuery } from '@tanstack/react-query';
import { ageBandLabel, SIDE_LABELS, type Side, whereLabel } from '../../../../shared/audience';
import { Ban, CalendarPlus, Pencil, UsersRound } from 'lucide-react';
import { useState } from 'react';
import type { AdminMixer, AdminMixerView } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { ReasonDialog } from '../components/dialog';
import { MixerFormDialog, THEME_SWATCH } from '../components/mixer-form';
import { EmptyState, ShowMore, ListStates } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { HostSwitch } from '../components/host-admin';
import { fmtWhen, plural } from '../format';
import { cursorPages } from '../../../lib/query';

const VIEWS: { key: AdminMixerView; label: string; empty: string }[] = [
  { key: 'active', label: 'Upcoming & live', empty: 'No upcoming mixers. Create one so members have something to join.' },
  { key: 'past', label: 'Past', empty: 'No mixers have ended yet.' },
  { key: 'cancelled', label: 'Cancelled', empty: 'No cancelled mixers.' },
];

const STATUS: Record<AdminMixer['status'], { label: string; tone: 'primary' | 'success' | 'muted' | 'danger' }> = {
  live: { label: 'Live', tone: 'success' },
  scheduled: { label: 'Upcoming', tone: 'primary' },
  ended: { label: 'Ended', tone: 'muted' },
  cancelled: { label: 'Cancelled', tone: 'danger' },
};

const duration = (m: number) => (m < 60 ? `${m} min` : m % 60 === 0 ? `${m / 60} h` : `${Math.floor(m / 60)} h ${m % 60} min`);

function MixerActions({
  mixer,
  onEdit,
  onCancel,
}: {
  mixer: AdminMixer;
  onEdit: (m: AdminMixer) => void;
  onCancel: (m: AdminMixer) => void;
}) {
  return (
    <div className="flex gap-2 2xl:justify-end">
      <HostSwitch mixerId={mixer.id} title={mixer.title} />
      <Button size="sm" variant="outline" onClick={() => onEdit(mixer)} aria-label={`Edit ${mixer.title}`}>
        <Pencil aria-hidden /> Edit
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="text-destructive hover:bg-destructive/10"
        onClick={() => onCancel(mixer)}
        aria-label={`Cancel ${mixer.title}`}
      >
        <Ban aria-hidden /> Cancel
      </Button>
    </div>
  );
}

export default function AdminMixersPage() {
  const toast = useToast();
  const [view, setView] = useState<AdminMixerView>('active');
  const [editing, setEditing] = useState<AdminMixer | null>(null);
  const [creating, setCreating] = useState(false);
  const [cancelling, setCancelling] = useState<AdminMixer | null>(null);
  const q = useInfiniteQuery({
    queryKey: adminKeys.mixers(view),
    queryFn: ({ pageParam }) => adminApi.mixers(view, pageParam),
    ...cursorPages,
  });
  const cancel = useAdminMutation(({ id, reason }: { id: string; reason: string }) => adminApi.cancelMixer(id, reason), [['mixers']]);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const current = VIEWS.find((v) => v.key === view) ?? VIEWS[0];

  return (
    <AdminPage
      title="Mixers"
      description="Plan the group chats members join. Mixers go live and end by themselves at their times."
      actions={
        <Button onClick={() => setCreating(true)}>
          <CalendarPlus aria-hidden /> New mixer
        </Button>
      }
    >
      <Section
        title={current.label}
        id="mixer-list"
        actions={
          <fieldset className="flex rounded-full bg-muted p-1">
            <legend className="sr-only">Which mixers</legend>
            {VIEWS.map((v) => (
              <button
                key={v.key}
                type="button"
                aria-pressed={view === v.key}
                onClick={() => setView(v.key)}
                className={cn(
                  'h-8 whitespace-nowrap rounded-full px-3 text-xs font-semibold text-muted-foreground sm:text-sm',
                  view === v.key && 'bg-card text-foreground shadow-sm',
                )}
              >
                {v.label}
              </button>
            ))}
          </fieldset>
        }
      >
        <ListStates
          query={q}
          loading="Loading mixers"
          isEmpty={items.length === 0}
          empty={<EmptyState icon={UsersRound} title="Nothing here" text={current.empty} />}
        >
          <Table caption={`${current.label} mixers`}>
            <thead>
              <tr>
                <Th>Mixer</Th>
                <Th>When</Th>
                <Th>Status</Th>
                <Th className="text-right">Seats</Th>
                <Th>For</Th>
                {/* Below 1536 px the tags and actions sit under the title, so the table fits beside the sidebar. */}
                <Th className="hidden 2xl:table-cell">Tags</Th>
                <Th className="text-right">Chat</Th>
                {view === 'active' && <Th className="hidden text-right 2xl:table-cell">Actions</Th>}
              </tr>
            </thead>
            <tbody>
              {items.map((m) => (
                <tr key={m.id} data-testid="admin-mixer-row">
                  <Td className="min-w-56">
                    <div className="flex items-start gap-2.5">
                      <span
                        aria-hidden
                        className={cn('mt-1 size-3 shrink-0 rounded-full ring-1 ring-foreground/20', THEME_SWATCH[m.theme]?.className)}
                      />
                      <div className="min-w-0">
                        <p className="font-semibold">{m.title}</p>
                        <p className="text-xs text-muted-foreground">
                          {m.topic}
                          {m.createdBy ? ` · by ${m.createdBy}` : ''}
                        </p>
                        {m.tags.length > 0 && (
                          <div className="mt-1.5 flex flex-wrap gap-1 2xl:hidden">
                            {m.tags.map((t) => (
                              <Pill key={t}>{t}</Pill>
                            ))}
                          </div>
                        )}
                        {view === 'active' && (
                          <div className="mt-2 2xl:hidden">
                            <MixerActions mixer={m} onEdit={setEditing} onCancel={setCancelling} />
                          </div>
                        )}
                      </div>
                    </div>
                  </Td>
                  <Td className="whitespace-nowrap">
                    <time dateTime={m.startsAt}>{fmtWhen(m.startsAt)}</time>
                    <span className="block text-xs text-muted-foreground">{duration(m.durationMinutes)}</span>
                  </Td>
                  <Td>
                    <Pill tone={STATUS[m.status].tone}>{STATUS[m.status].label}</Pill>
                  </Td>
                  <Td className="whitespace-nowrap text-right tabular-nums">
                    <span className="font-semibold">{m.participantCount}</span>
                    <span className="text-muted-foreground">/{m.maxParticipants}</span>
                    {m.waitlistCount > 0 && <span className="block text-xs text-muted-foreground">{m.waitlistCount} waiting</span>}
                  </Td>
                  <Td className="min-w-44">
                    <span className="font-medium">{m.intent}</span>
                    <span className="block text-xs text-muted-foreground">
                      {whereLabel(m.audience.region)} · {ageBandLabel(m.audience)}
                    </span>
                    {m.audience.seatPlan.length > 0 && (
                      <ul className="mt-1 grid gap-0.5 text-xs" aria-label="Seats per side">
                        {m.seats.map((s) => (
                          <li key={s.key} className="whitespace-nowrap tabular-nums">
                            {SIDE_LABELS[s.key as Side]}: <span className="font-semibold">{s.joined}</span>/{s.seats}
                            {s.held > 0 && <span className="text-muted-foreground"> · {s.held} held</span>}
                            {s.waiting > 0 && <span className="text-muted-foreground"> · {s.waiting} waiting</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </Td>
                  <Td className="hidden min-w-40 2xl:table-cell">
                    <div className="flex flex-wrap gap-1">
                      {m.tags.length ? m.tags.map((t) => <Pill key={t}>{t}</Pill>) : <span className="text-muted-foreground">—</span>}
                    </div>
                  </Td>
                  <Td className="text-right tabular-nums">{m.chatMessages}</Td>
                  {view === 'active' && (
                    <Td className="hidden text-right 2xl:table-cell">
                      <MixerActions mixer={m} onEdit={setEditing} onCancel={setCancelling} />
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
          <ShowMore query={q} />
        </ListStates>
      </Section>

      <MixerFormDialog
        open={creating || Boolean(editing)}
        mixer={editing}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
      />
      <ReasonDialog
        open={Boolean(cancelling)}
        onOpenChange={(o) => !o && setCancelling(null)}
        title="Cancel this mixer?"
        description={
          cancelling
            ? `"${cancelling.title}" will be cancelled. ${
                cancelling.participantCount + cancelling.waitlistCount
                  ? `${plural(cancelling.participantCount, 'joined member')}${cancelling.waitlistCount ? ` and ${cancelling.waitlistCount} on the waitlist` : ''} will be told by email and in the app, with your reason.`
                  : 'Nobody has joined yet.'
              } This can't be undone.`
            : undefined
        }
        reasonLabel="Reason for members"
        reasonHint="Members read this in the email and the app."
        placeholder="e.g. Our host is unwell, sorry! We'll run it again next week."
        confirmLabel="Cancel mixer"
        destructive
        onConfirm={async (reason) => {
          if (!cancelling) return;
          const title = cancelling.title;
          const joined = cancelling.participantCount + cancelling.waitlistCount;
          await cancel.mutateAsync({ id: cancelling.id, reason });
          toast({
            title: 'Mixer cancelled',
            description: joined ? `"${title}" is cancelled and ${plural(joined, 'member')} told.` : `"${title}" is cancelled.`,
          });
        }}
      />
    </AdminPage>
  );
}
