import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, CalendarRange, History, Pause, Pencil, Play, Plus, SlidersHorizontal, Sparkles } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { AUDIENCE_REGIONS, ONLINE_LABEL } from '../../../../shared/audience';
import type { FormationSettings } from '../../../../shared/formation';
import { AUDIT_ACTION_LABELS } from '../../../../shared/schemas/admin';
import {
  type DemandRow,
  FORMATION_BOUNDS,
  type FormationDemand,
  type FormationOverview,
  type FormedMixer,
  formationSettingsSchema,
  newTopicTemplateSchema,
  type TopicTemplate,
  topicTemplateSchema,
} from '../../../../shared/schemas/formation-admin';
import { MIXER_INTENTS, MIXER_THEMES, type MixerTheme } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input, Label, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { AdminDialog, DialogFooter, showSaveError } from '../components/dialog';
import { EmptyState, ErrorState, Skeleton, TableSkeleton } from '../components/states';
import { HostPromptsSection } from '../components/host-admin';
import { Pill, Table, Td, Th } from '../components/table';
import { age, fmtNumber, fmtWhen } from '../format';

const selectClass =
  'h-9 rounded-xl border border-input bg-card px-3 text-sm text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive';
const pct = (n: number) => `${Math.round(n * 100)}%`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const formationKeys = {
  overview: [...adminKeys.all, 'formation'] as const,
  demand: (region: string, intent: string) => [...adminKeys.all, 'formation', 'demand', region, intent] as const,
};

const formationApi = {
  overview: () => api<FormationOverview>('/api/admin/formation'),
  demand: (region: string, intent: string) => {
    const params = new URLSearchParams();
    if (region) params.set('region', region);
    if (intent) params.set('intent', intent);
    return api<FormationDemand>(`/api/admin/formation/demand${params.size ? `?${params}` : ''}`);
  },
  saveSettings: (body: FormationSettings) => api<FormationOverview['settings']>('/api/admin/formation/settings', { method: 'PUT', body }),
  saveTemplate: ({ id, body }: { id: string | null; body: Record<string, unknown> }) =>
    id
      ? api<TopicTemplate>(`/api/admin/formation/templates/${id}`, { method: 'PUT', body })
      : api<TopicTemplate>('/api/admin/formation/templates', { body }),
};

/** /admin/formation (issue 14): what members would join, what the job formed, and its controls. */
export default function FormationPage() {
  const overview = useQuery({ queryKey: formationKeys.overview, queryFn: formationApi.overview });
  const toast = useToast();
  const save = useAdminMutation(formationApi.saveSettings);
  const settings = overview.data?.settings;

  const togglePause = () => {
    if (!settings) return;
    const { updatedAt: _a, updatedBy: _b, ...current } = settings;
    save.mutate(
      { ...current, paused: !settings.paused },
      {
        onSuccess: (s) =>
          toast({
            title: s.paused ? 'Formation paused' : 'Formation resumed',
            description: s.paused ? 'No new mixers will be formed until you resume it.' : 'The job will form mixers on its next run.',
          }),
        onError: (err) => toast({ title: "Couldn't change formation", description: err.message, variant: 'destructive' }),
      },
    );
  };

  return (
    <AdminPage
      title="Formation"
      description="Mixers that form themselves: what members would join, what the job has formed, and the rules it follows."
      actions={
        settings && (
          <>
            <Pill tone={settings.paused ? 'warning' : 'success'} data-testid="formation-state">
              {settings.paused ? 'Paused' : 'Running'}
            </Pill>
            <Button variant={settings.paused ? 'default' : 'outline'} size="sm" onClick={togglePause} disabled={save.isPending}>
              {settings.paused ? <Play aria-hidden /> : <Pause aria-hidden />}
              {settings.paused ? 'Resume formation' : 'Pause formation'}
            </Button>
          </>
        )
      }
    >
      {overview.isError && !overview.data ? (
        <Card>
          <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
        </Card>
      ) : (
        <div className="grid gap-5">
          <Totals overview={overview.data} />
          <div className="grid gap-5 lg:grid-cols-3">
            <DemandSection className="lg:col-span-2" />
            <SettingsSection settings={settings} />
          </div>
          <FormedSection overview={overview.data} />
          <div className="grid gap-5 lg:grid-cols-3">
            <TemplatesSection className="lg:col-span-2" overview={overview.data} />
            <RecentSection overview={overview.data} />
          </div>
          <HostPromptsSection />
        </div>
      )}
    </AdminPage>
  );
}

function Totals({ overview }: { overview?: FormationOverview }) {
  const t = overview?.totals;
  const sent = t ? Object.values(t.invitations).reduce((a, b) => a + b, 0) : undefined;
  const figures: { label: string; value: string | undefined; sub?: string }[] = [
    { label: 'Formed mixers', value: t && fmtNumber(t.mixers) },
    { label: 'Seats filled', value: t && `${fmtNumber(t.joined)} / ${fmtNumber(t.capacity)}`, sub: t && `${pct(t.fillRate)} fill rate` },
    {
      label: 'Invitations sent',
      value: sent === undefined ? undefined : fmtNumber(sent),
      sub: t && `${fmtNumber(t.invitations.pending)} pending`,
    },
    {
      label: 'Accepted',
      value: t && fmtNumber(t.invitations.accepted),
      sub: t && `${fmtNumber(t.invitations.declined)} declined · ${fmtNumber(t.invitations.expired)} expired`,
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {figures.map((f) => (
        <Card key={f.label} className="min-w-0 p-4">
          <dt className="truncate text-xs text-muted-foreground">{f.label}</dt>
          <dd className="mt-1 text-2xl font-extrabold tabular-nums">
            {f.value ?? (
              <>
                <Skeleton className="h-7 w-16" />
                <span className="sr-only">Loading</span>
              </>
            )}
          </dd>
          {f.sub && <dd className="truncate text-xs text-muted-foreground">{f.sub}</dd>}
        </Card>
      ))}
    </dl>
  );
}

type SortKey = 'topic' | 'region' | 'intent' | 'asks' | 'interests';

function DemandSection({ className }: { className?: string }) {
  const id = useId();
  const [region, setRegion] = useState('');
  const [intent, setIntent] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'asks', desc: true });
  const demand = useQuery({
    queryKey: formationKeys.demand(region, intent),
    queryFn: () => formationApi.demand(region, intent),
    placeholderData: (prev) => prev,
  });
  const rows = useMemo(() => {
    const list = [...(demand.data?.rows ?? [])];
    const value = (r: DemandRow) => (sort.key === 'region' ? (r.region ?? ONLINE_LABEL) : r[sort.key]);
    list.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en-GB');
      return (sort.desc ? -c : c) || b.asks - a.asks || a.topic.localeCompare(b.topic);
    });
    return list;
  }, [demand.data, sort]);

  const header = (key: SortKey, label: string, numeric = false) => {
    const active = sort.key === key;
    return (
      <Th className={numeric ? 'text-right' : undefined} aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
        <button
          type="button"
          className={cn('inline-flex items-center gap-1 uppercase hover:text-foreground', active && 'text-foreground')}
          onClick={() => setSort((s) => ({ key, desc: s.key === key ? !s.desc : numeric }))}
        >
          {label}
          {active && (sort.desc ? <ArrowDown className="size-3" aria-hidden /> : <ArrowUp className="size-3" aria-hidden />)}
        </button>
      </Th>
    );
  };

  return (
    <Section
      title="Demand"
      className={className}
      description={
        demand.data
          ? `${fmtNumber(demand.data.membersWithAvailability)} members said when they're free. Asks ("I'd join one about…") and interests are counted apart, never added.`
          : 'Members with availability, by topic, region and intent.'
      }
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2.5 sm:px-5">
        <label htmlFor={`${id}-region`} className="sr-only">
          Region
        </label>
        <select
          id={`${id}-region`}
          className={cn(selectClass, 'min-w-0 flex-1 sm:max-w-56 sm:flex-none')}
          value={region}
          onChange={(e) => setRegion(e.target.value)}
        >
          <option value="">All regions</option>
          {AUDIENCE_REGIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-intent`} className="sr-only">
          Intent
        </label>
        <select id={`${id}-intent`} className={selectClass} value={intent} onChange={(e) => setIntent(e.target.value)}>
          <option value="">All intents</option>
          {MIXER_INTENTS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
        {demand.data && (
          <span className="ml-auto text-xs text-muted-foreground">
            {fmtNumber(demand.data.rows.length)} {demand.data.rows.length === 1 ? 'row' : 'rows'}
          </span>
        )}
      </div>
      {demand.isPending ? (
        <TableSkeleton rows={6} label="Loading demand" />
      ) : demand.isError && !demand.data ? (
        <ErrorState error={demand.error} onRetry={() => void demand.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={CalendarRange}
          title={region || intent ? 'No demand for this filter yet' : 'No demand yet'}
          text="When members tell us when they're free and what they'd join, the topics they want appear here, by region and intent."
        />
      ) : (
        <div className={cn('max-h-96 overflow-y-auto', demand.isFetching && 'opacity-70')}>
          <Table caption="Demand by topic, region and intent">
            <thead className="sticky top-0 z-10">
              <tr>
                {header('topic', 'Topic')}
                {header('region', 'Region')}
                {header('intent', 'Intent')}
                {header('asks', 'Asks', true)}
                {header('interests', 'Interests', true)}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.topic}|${r.region}|${r.intent}`}>
                  <Td className="whitespace-nowrap font-medium">{r.topic}</Td>
                  <Td className="whitespace-nowrap text-muted-foreground">{r.region ?? 'No listed city'}</Td>
                  <Td>{r.intent}</Td>
                  <Td className="text-right font-semibold tabular-nums">{fmtNumber(r.asks)}</Td>
                  <Td className="text-right tabular-nums text-muted-foreground">{fmtNumber(r.interests)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {demand.data?.truncated && (
            <p className="px-5 py-2 text-xs text-muted-foreground">Showing the busiest rows. Filter to see more.</p>
          )}
        </div>
      )}
    </Section>
  );
}

const SETTING_FIELDS: { key: Exclude<keyof FormationSettings, 'paused'>; label: string; hint: string; max: number; min: number }[] = [
  { key: 'groupSize', label: 'Group size', hint: 'Seats in a formed mixer,', ...FORMATION_BOUNDS.groupSize },
  {
    key: 'minSeats',
    label: 'Min. seats to form',
    hint: 'Form only when this many can be invited at once, up to the group size:',
    min: 4,
    max: 10,
  },
  { key: 'holdHours', label: 'Seat hold (hours)', hint: 'Never later than an hour before the start,', ...FORMATION_BOUNDS.holdHours },
  {
    key: 'maxInvitesPerWeek',
    label: 'Invitations per member per week',
    hint: 'Invitations one member may get in 7 days,',
    ...FORMATION_BOUNDS.maxInvitesPerWeek,
  },
  { key: 'leadHours', label: 'Notice (hours)', hint: 'Hours ahead a formed mixer starts at the earliest,', ...FORMATION_BOUNDS.leadHours },
  { key: 'horizonDays', label: 'Plan ahead (days)', hint: 'Days ahead it may start at the latest,', ...FORMATION_BOUNDS.horizonDays },
];

function SettingsSection({ settings }: { settings?: FormationOverview['settings'] }) {
  const id = useId();
  const toast = useToast();
  const save = useAdminMutation(formationApi.saveSettings);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (settings) setValues(Object.fromEntries(SETTING_FIELDS.map((f) => [f.key, String(settings[f.key])])));
  }, [settings]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!settings) return;
    const parsed = formationSettingsSchema.safeParse({ paused: settings.paused, ...values });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => toast({ title: 'Settings saved', description: 'The job uses them from its next run.' }),
      onError: (err) => showSaveError(err, setErrors, toast, "Couldn't save the settings"),
    });
  };

  return (
    <Section
      title="Settings"
      description={
        settings?.updatedBy ? `Last changed by ${settings.updatedBy}, ${age(settings.updatedAt)}.` : 'Thresholds of the formation job.'
      }
    >
      {!settings ? (
        <TableSkeleton rows={6} label="Loading settings" />
      ) : (
        <form onSubmit={submit} noValidate className="grid gap-3 p-4 sm:p-5" aria-label="Formation settings">
          <ul className="grid gap-3">
            {SETTING_FIELDS.map((f) => (
              <li key={f.key}>
                <div className="flex items-center justify-between gap-3">
                  <span className="min-w-0">
                    <Label htmlFor={`${id}-${f.key}`}>{f.label}</Label>
                    <span id={`${id}-${f.key}-hint`} className="block text-xs text-muted-foreground">
                      {f.hint} {f.min}–{f.max}.
                    </span>
                  </span>
                  <Input
                    id={`${id}-${f.key}`}
                    type="number"
                    inputMode="numeric"
                    min={f.min}
                    max={f.max}
                    value={values[f.key] ?? ''}
                    aria-invalid={Boolean(errors[f.key])}
                    aria-describedby={errors[f.key] ? `${id}-${f.key}-error` : `${id}-${f.key}-hint`}
                    onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                    className="h-10 w-20 shrink-0 text-right tabular-nums"
                  />
                </div>
                {errors[f.key] && (
                  <p id={`${id}-${f.key}-error`} role="alert" className="mt-1 text-sm font-medium text-destructive">
                    {errors[f.key]}
                  </p>
                )}
              </li>
            ))}
          </ul>
          <div className="flex justify-end">
            <Button type="submit" size="sm" disabled={save.isPending}>
              <SlidersHorizontal aria-hidden /> {save.isPending ? 'Saving…' : 'Save settings'}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

const STATUS_TONE = { scheduled: 'primary', live: 'success', ended: 'muted', cancelled: 'danger' } as const;

function FormedSection({ overview }: { overview?: FormationOverview }) {
  const mixers = overview?.mixers;
  const t = overview?.totals;
  return (
    <Section title="Automatically formed mixers" description="The newest first: seats filled, invitations by answer and fill rate.">
      {!mixers ? (
        <TableSkeleton rows={4} label="Loading formed mixers" />
      ) : mixers.length === 0 ? (
        <EmptyState
          icon={Sparkles}
          title="Nothing formed yet"
          text="When enough members who'd click are free at the same time, the job forms a mixer and it shows up here."
        />
      ) : (
        <Table caption="Automatically formed mixers">
          <thead>
            <tr>
              <Th>Mixer</Th>
              <Th>When</Th>
              <Th>Status</Th>
              <Th className="text-right">Seats</Th>
              <Th>Invitations</Th>
              <Th className="text-right">Fill</Th>
            </tr>
          </thead>
          <tbody>
            {mixers.map((m) => {
              const sent = Object.values(m.invitations).reduce((a, b) => a + b, 0);
              return (
                <tr key={m.id}>
                  <Td className="min-w-44">
                    <span className="font-medium">{m.title}</span>
                    <span className="block text-xs text-muted-foreground">{m.topic}</span>
                  </Td>
                  <Td className="whitespace-nowrap">{fmtWhen(m.startsAt)}</Td>
                  <Td>
                    <Pill tone={STATUS_TONE[m.status]}>{capital(m.status)}</Pill>
                  </Td>
                  <Td className="text-right tabular-nums">
                    {m.joined}/{m.capacity}
                  </Td>
                  <Td>
                    <InvitationCounts sent={sent} counts={m.invitations} />
                  </Td>
                  <Td className="text-right">
                    <FillBar rate={m.fillRate} />
                  </Td>
                </tr>
              );
            })}
          </tbody>
          {t && (
            <tfoot>
              <tr className="font-semibold">
                <Td colSpan={3}>Totals · {plural(t.mixers, 'mixer')}</Td>
                <Td className="text-right tabular-nums">
                  {fmtNumber(t.joined)}/{fmtNumber(t.capacity)}
                </Td>
                <Td>
                  <InvitationCounts sent={Object.values(t.invitations).reduce((a, b) => a + b, 0)} counts={t.invitations} />
                </Td>
                <Td className="text-right">
                  <FillBar rate={t.fillRate} />
                </Td>
              </tr>
            </tfoot>
          )}
        </Table>
      )}
    </Section>
  );
}

/** "8 sent" and, under it, how they were answered. */
function InvitationCounts({ sent, counts }: { sent: number; counts: FormedMixer['invitations'] }) {
  return (
    <span className="block whitespace-nowrap tabular-nums">
      <span className="font-semibold">{fmtNumber(sent)}</span> sent
      <span className="block text-xs font-normal text-muted-foreground">
        {fmtNumber(counts.accepted)} accepted · {fmtNumber(counts.declined)} declined · {fmtNumber(counts.expired)} expired ·{' '}
        {fmtNumber(counts.pending)} pending
        {counts.withdrawn ? ` · ${fmtNumber(counts.withdrawn)} withdrawn` : ''}
      </span>
    </span>
  );
}

const plural = (n: number, one: string) => `${fmtNumber(n)} ${n === 1 ? one : `${one}s`}`;

function FillBar({ rate }: { rate: number }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span className="hidden h-1.5 w-14 overflow-hidden rounded-full bg-muted sm:block" aria-hidden>
        <span className={cn('block h-full rounded-full', rate >= 0.75 ? 'bg-success' : 'bg-primary')} style={{ width: pct(rate) }} />
      </span>
      <span className="tabular-nums">{pct(rate)}</span>
    </span>
  );
}

function TemplatesSection({ overview, className }: { overview?: FormationOverview; className?: string }) {
  const [editing, setEditing] = useState<TopicTemplate | 'new' | null>(null);
  const templates = overview?.templates;
  return (
    <Section
      title="Topic templates"
      className={className}
      description="What a formed mixer about each topic is called and opens with."
      actions={
        overview && overview.topicsWithoutTemplate.length > 0 ? (
          <Button size="sm" variant="outline" onClick={() => setEditing('new')}>
            <Plus aria-hidden /> Add template
          </Button>
        ) : null
      }
    >
      {!templates ? (
        <TableSkeleton rows={5} label="Loading templates" />
      ) : templates.length === 0 ? (
        <EmptyState
          icon={Sparkles}
          title="No templates yet"
          text="Add one for a topic members ask for; the job uses it to title and open the mixer."
        />
      ) : (
        <div className="max-h-96 overflow-y-auto">
          <Table caption="Topic templates">
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>Topic</Th>
                <Th>Title</Th>
                <Th>Theme</Th>
                <Th>Status</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {templates.map((tp) => (
                <tr key={tp.id}>
                  <Td className="whitespace-nowrap font-medium">{tp.topic}</Td>
                  <Td className="min-w-44">{tp.title}</Td>
                  <Td>{capital(tp.theme)}</Td>
                  <Td>
                    <Pill tone={tp.active ? 'success' : 'muted'}>{tp.active ? 'Active' : 'Off'}</Pill>
                  </Td>
                  <Td className="text-right">
                    <Button size="sm" variant="ghost" onClick={() => setEditing(tp)} aria-label={`Edit the ${tp.topic} template`}>
                      <Pencil aria-hidden /> Edit
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      <TemplateDialog
        template={editing === 'new' ? null : editing}
        open={editing !== null}
        topics={overview?.topicsWithoutTemplate ?? []}
        onOpenChange={(o) => !o && setEditing(null)}
      />
    </Section>
  );
}

function TemplateDialog({
  template,
  open,
  topics,
  onOpenChange,
}: {
  template: TopicTemplate | null;
  open: boolean;
  topics: string[];
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const toast = useToast();
  const save = useAdminMutation(formationApi.saveTemplate);
  const [form, setForm] = useState({ topic: '', title: '', description: '', theme: 'sunset' as MixerTheme, icebreaker: '', active: true });
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setForm(
      template
        ? {
            topic: template.topic,
            title: template.title,
            description: template.description,
            theme: template.theme,
            icebreaker: template.icebreaker,
            active: template.active,
          }
        : { topic: topics[0] ?? '', title: '', description: '', theme: 'sunset', icebreaker: '', active: true },
    );
  }, [open, template, topics]);

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { topic, ...rest } = form;
    const parsed = template ? topicTemplateSchema.safeParse(rest) : newTopicTemplateSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    save.mutate(
      { id: template?.id ?? null, body: parsed.data },
      {
        onSuccess: (saved) => {
          toast({ title: template ? 'Template saved' : 'Template added', description: `${saved.topic}: "${saved.title}"` });
          onOpenChange(false);
        },
        onError: (err) => showSaveError(err, setErrors, toast, "Couldn't save the template"),
      },
    );
  };
  const field = (key: string) => ({
    id: `${id}-${key}`,
    'aria-invalid': Boolean(errors[key]),
    'aria-describedby': errors[key] ? `${id}-${key}-error` : undefined,
  });

  return (
    <AdminDialog
      open={open}
      onOpenChange={(o) => !save.isPending && onOpenChange(o)}
      title={template ? `Edit the ${template.topic} template` : 'Add a topic template'}
      description="Formed mixers about this topic take their title, description, theme and icebreaker from here."
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        {!template && (
          <Field id={`${id}-topic`} label="Topic" error={errors.topic}>
            <select
              {...field('topic')}
              className={cn(selectClass, 'h-11')}
              value={form.topic}
              onChange={(e) => set('topic', e.target.value)}
            >
              {topics.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id={`${id}-title`} label="Title" error={errors.title}>
          <Input {...field('title')} value={form.title} maxLength={80} onChange={(e) => set('title', e.target.value)} />
        </Field>
        <Field id={`${id}-description`} label="Description (optional)" error={errors.description}>
          <Textarea
            {...field('description')}
            value={form.description}
            maxLength={600}
            className="min-h-20"
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        <Field id={`${id}-theme`} label="Theme" error={errors.theme}>
          <select
            {...field('theme')}
            className={cn(selectClass, 'h-11')}
            value={form.theme}
            onChange={(e) => set('theme', e.target.value as MixerTheme)}
          >
            {MIXER_THEMES.map((t) => (
              <option key={t} value={t}>
                {capital(t)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-icebreaker`} label="Icebreaker" error={errors.icebreaker}>
          <Textarea
            {...field('icebreaker')}
            value={form.icebreaker}
            maxLength={300}
            className="min-h-20"
            onChange={(e) => set('icebreaker', e.target.value)}
          />
        </Field>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={form.active}
            onChange={(e) => set('active', e.target.checked)}
          />
          Active: the job may form mixers about this topic
        </label>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : template ? 'Save template' : 'Add template'}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}

/** A list that scrolls on its own: focusable, so the keyboard can scroll it too. */
const SCROLLING_LIST =
  'max-h-96 divide-y divide-border overflow-y-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring';

function RecentSection({ overview }: { overview?: FormationOverview }) {
  const recent = overview?.recent;
  return (
    <Section title="Recent automatic actions" description="Formation and invitation entries of the audit log.">
      {!recent ? (
        <TableSkeleton rows={5} label="Loading recent actions" />
      ) : recent.length === 0 ? (
        <EmptyState icon={History} title="Nothing yet" text="Formed mixers, invitations and changes to these settings are listed here." />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls on its own, so it must be reachable by keyboard (axe: scrollable-region-focusable)
        <ol tabIndex={0} aria-label="Recent automatic actions" className={SCROLLING_LIST}>
          {recent.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-3 px-4 py-2.5 text-sm sm:px-5">
              <span className="min-w-0">
                <span className="block font-medium">{AUDIT_ACTION_LABELS[r.action] ?? r.action}</span>
                <span className="block truncate text-xs text-muted-foreground">{r.actor ? r.actor.name : 'Automatic'}</span>
              </span>
              <time dateTime={r.createdAt} className="shrink-0 whitespace-nowrap text-xs text-muted-foreground">
                {age(r.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
