import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  addDays,
  dayNumber,
  METRICS_MAX_DAYS,
  METRICS_SPLIT_LABELS,
  METRICS_SPLITS,
  type Metrics,
  type MetricsSplit,
  NO_CAMPAIGN,
  todayUtc,
} from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input, Label } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { adminApi, adminKeys } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { ErrorState, Skeleton } from '../components/states';
import { Table, Td, Th } from '../components/table';
import { downloadCsv, toCsv } from '../csv';
import { fmtDay, fmtNumber } from '../format';

/** Series colours: readable on the light and the dark card. */
const PALETTE = ['#c2185b', '#7c3aed', '#0284c7', '#059669', '#d97706', '#64748b', '#0d9488', '#9333ea'];
const PRESETS = [30, 90] as const;
const FUNNEL_HEADER = ['Step', 'Members', '% of registered', '% of previous'];
const CHART_HEIGHT = 260;

const campaignLabel = (key: string) => (key === NO_CAMPAIGN ? 'No campaign' : key);

interface Range {
  from: string;
  to: string;
  split: MetricsSplit;
}

function useRange(): [Range, (next: Partial<Range>) => void] {
  const [params, setParams] = useSearchParams();
  const today = todayUtc();
  const valid = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(dayNumber(v)) ? v : null);
  let to = valid(params.get('to')) ?? today;
  let from = valid(params.get('from')) ?? addDays(to, -29);
  if (dayNumber(from) > dayNumber(to) || dayNumber(to) - dayNumber(from) + 1 > METRICS_MAX_DAYS) {
    to = today;
    from = addDays(today, -29);
  }
  const splitParam = params.get('split') as MetricsSplit | null;
  const split = splitParam && METRICS_SPLITS.includes(splitParam) ? splitParam : 'source';
  const set = (next: Partial<Range>) => {
    const merged = { from, to, split, ...next };
    setParams(new URLSearchParams({ from: merged.from, to: merged.to, split: merged.split }), { replace: true });
  };
  return [{ from, to, split }, set];
}

function RangePicker({ range, onChange }: { range: Range; onChange: (next: Partial<Range>) => void }) {
  const id = useId();
  const today = todayUtc();
  const days = dayNumber(range.to) - dayNumber(range.from) + 1;
  const preset = range.to === today && PRESETS.find((p) => p === days);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [error, setError] = useState<string | null>(null);
  const [synced, setSynced] = useState(`${range.from}|${range.to}`);
  if (synced !== `${range.from}|${range.to}`) {
    setSynced(`${range.from}|${range.to}`);
    setFrom(range.from);
    setTo(range.to);
  }

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    if (!from || !to) return setError('Choose both dates.');
    if (dayNumber(from) > dayNumber(to)) return setError('The start date must be on or before the end date.');
    if (dayNumber(to) - dayNumber(from) + 1 > METRICS_MAX_DAYS) return setError('Choose a range of at most 366 days.');
    setError(null);
    onChange({ from, to });
  };

  return (
    <Card className="flex flex-col gap-4 p-4 lg:flex-row lg:items-end lg:justify-between">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="mb-1.5 text-sm font-medium">Range</legend>
        {PRESETS.map((p) => (
          <Button
            key={p}
            size="sm"
            variant={preset === p ? 'default' : 'outline'}
            aria-pressed={preset === p}
            onClick={() => onChange({ from: addDays(today, -(p - 1)), to: today })}
          >
            Last {p} days
          </Button>
        ))}
      </fieldset>
      <form onSubmit={apply} className="flex flex-wrap items-end gap-2" noValidate aria-label="Custom range">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to || today}
            onChange={(e) => setFrom(e.target.value)}
            className="h-9 w-40"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input id={`${id}-to`} type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} className="h-9 w-40" />
        </div>
        <Button type="submit" size="sm" variant="secondary">
          Apply
        </Button>
        {error && (
          <p role="alert" className="basis-full text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </form>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-split`}>Split sign-ups by</Label>
        <select
          id={`${id}-split`}
          value={range.split}
          onChange={(e) => onChange({ split: e.target.value as MetricsSplit })}
          className="h-9 rounded-xl border border-input bg-card px-3 text-sm"
        >
          {METRICS_SPLITS.map((s) => (
            <option key={s} value={s}>
              {METRICS_SPLIT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
    </Card>
  );
}

const axisProps = { tick: { fill: 'currentColor', fontSize: 12 }, stroke: 'currentColor', strokeOpacity: 0.3 } as const;

function ChartFrame({ label, tableId, children }: { label: string; tableId: string; children: React.ReactElement }) {
  return (
    <div role="img" aria-label={label} aria-describedby={tableId} className="px-2 pt-4 text-muted-foreground sm:px-4">
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        {children}
      </ResponsiveContainer>
    </div>
  );
}

const tooltipStyle = {
  contentStyle: {
    background: 'var(--card)',
    border: '1px solid var(--border)',
    borderRadius: 12,
    color: 'var(--foreground)',
    fontSize: 13,
  },
  labelStyle: { fontWeight: 600, color: 'var(--foreground)' },
  cursor: { fill: 'var(--muted)', opacity: 0.6 },
} as const;

/** The figures behind a chart, as a table (screen readers, exact numbers, copy-paste). */
function DataTable({ id, caption, header, rows }: { id: string; caption: string; header: string[]; rows: (string | number)[][] }) {
  return (
    <div id={id} className="mt-2 max-h-72 overflow-y-auto border-t border-border">
      <Table caption={caption} className="[&_th]:sticky [&_th]:top-0">
        <thead>
          <tr>
            {header.map((h, i) => (
              <Th key={h} className={cn(i > 0 && 'text-right')}>
                {h}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r[0])}>
              {r.map((v, i) => (
                <Td key={i} className={cn('py-1.5', i > 0 ? 'text-right tabular-nums' : 'whitespace-nowrap')}>
                  {typeof v === 'number' ? fmtNumber(v) : v}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function CsvButton({ onClick, what }: { onClick: () => void; what: string }) {
  return (
    <Button size="sm" variant="outline" onClick={onClick} aria-label={`Download ${what} as CSV`}>
      <Download aria-hidden /> CSV
    </Button>
  );
}

function ChartsSkeleton() {
  return (
    <div role="status" className="grid gap-6 lg:grid-cols-2">
      <span className="sr-only">Loading metrics</span>
      {[0, 1, 2, 3].map((i) => (
        <Card key={i} className="p-5">
          <Skeleton className="h-5 w-40" />
          <Skeleton className="mt-5 h-56 w-full" />
        </Card>
      ))}
    </div>
  );
}

function Charts({ m }: { m: Metrics }) {
  const ids = { signups: useId(), funnel: useId(), mixers: useId(), matches: useId(), active: useId() };
  const file = (what: string) => `fancy-${what}-${m.from}-to-${m.to}.csv`;
  const days = m.days;
  const totals = useMemo(
    () => ({
      signups: days.reduce((s, d) => s + d.signups, 0),
      mixersCreated: days.reduce((s, d) => s + d.mixersCreated, 0),
      joins: days.reduce((s, d) => s + d.mixerJoins, 0),
      chat: days.reduce((s, d) => s + d.chatMessages, 0),
      matches: days.reduce((s, d) => s + d.matches, 0),
      dms: days.reduce((s, d) => s + d.directMessages, 0),
      peakActive: days.reduce((s, d) => Math.max(s, d.activeMembers), 0),
    }),
    [days],
  );

  const campaigns = m.signupsByCampaign.campaigns;
  const signupRows = m.signupsByCampaign.days.map((d) => {
    const row: Record<string, string | number> = { day: d.day };
    campaigns.forEach((_, i) => {
      row[`c${i}`] = d.counts[i];
    });
    return row;
  });
  const signupHeader = ['Day', 'Total', ...campaigns.map((c) => campaignLabel(c.key))];
  const signupTable = m.signupsByCampaign.days.map((d) => [d.day, d.counts.reduce((s, n) => s + n, 0), ...d.counts]);

  const registered = m.funnel[0]?.count ?? 0;
  const funnelTable = m.funnel.map((f, i) => [
    f.label,
    f.count,
    registered ? `${Math.round((f.count / registered) * 100)}%` : '—',
    i === 0 ? '—' : m.funnel[i - 1].count ? `${Math.round((f.count / m.funnel[i - 1].count) * 100)}%` : '—',
  ]);

  const mixerTable = days.map((d) => [d.day, d.mixersCreated, d.mixerJoins, d.chatMessages]);
  const matchTable = days.map((d) => [d.day, d.matches, d.directMessages]);
  const activeTable = days.map((d) => [d.day, d.activeMembers]);
  const tickFormatter = (v: string) => fmtDay(v);
  const interval = days.length > 45 ? Math.ceil(days.length / 12) - 1 : days.length > 14 ? 'preserveStartEnd' : 0;
  type Series = { key: keyof (typeof days)[number]; name: string; color: string };
  /** Daily counts as bars on the left axis and one more as a line on the right (its scale differs). */
  const barsAndLine = (bars: Series[], line: Series) => (
    <ComposedChart data={days} margin={{ top: 4, right: 0, left: -16, bottom: 0 }}>
      <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.12} />
      <XAxis dataKey="day" tickFormatter={tickFormatter} interval={interval} {...axisProps} />
      <YAxis yAxisId="left" allowDecimals={false} {...axisProps} />
      <YAxis yAxisId="right" orientation="right" allowDecimals={false} {...axisProps} />
      <Tooltip labelFormatter={(v) => fmtDay(String(v))} {...tooltipStyle} />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {bars.map((b) => (
        <Bar key={b.key} yAxisId="left" dataKey={b.key} name={b.name} fill={b.color} isAnimationActive={false} />
      ))}
      <Line yAxisId="right" dataKey={line.key} name={line.name} stroke={line.color} strokeWidth={2} dot={false} isAnimationActive={false} />
    </ComposedChart>
  );

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section
        className="lg:col-span-2"
        title="Sign-ups per day"
        description={`${fmtNumber(totals.signups)} in the range, split by ${METRICS_SPLIT_LABELS[m.split].toLowerCase()}.`}
        actions={<CsvButton what="sign-ups" onClick={() => downloadCsv(file(`signups-by-${m.split}`), toCsv(signupHeader, signupTable))} />}
        id="chart-signups"
      >
        <ChartFrame label={`Stacked bar chart of sign-ups per day by ${METRICS_SPLIT_LABELS[m.split].toLowerCase()}`} tableId={ids.signups}>
          <BarChart data={signupRows} margin={{ top: 4, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.12} />
            <XAxis dataKey="day" tickFormatter={tickFormatter} interval={interval} {...axisProps} />
            <YAxis allowDecimals={false} {...axisProps} />
            <Tooltip labelFormatter={(v) => fmtDay(String(v))} {...tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {campaigns.map((c, i) => (
              <Bar
                key={c.key}
                dataKey={`c${i}`}
                name={campaignLabel(c.key)}
                stackId="signups"
                fill={PALETTE[i % PALETTE.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ChartFrame>
        <DataTable id={ids.signups} caption="Sign-ups per day" header={signupHeader} rows={signupTable} />
      </Section>

      <Section
        title="Moderation"
        description="Reports per day; per severity, how quickly a first action came and how many waited past the target (1 hour for the severe kinds, 24 hours for the rest); appeals."
        actions={
          <CsvButton
            what="reports per day"
            onClick={() =>
              downloadCsv(
                file('reports'),
                toCsv(
                  ['Day', 'Reports'],
                  m.moderation.reportsPerDay.map((d) => [d.day, d.n]),
                ),
              )
            }
          />
        }
        id="chart-moderation"
      >
        <ModerationFigures m={m.moderation} interval={interval} />
      </Section>

      <Section
        title="Onboarding funnel"
        description="Members who registered in the range, and how far they got."
        actions={
          <CsvButton
            what="the onboarding funnel"
            onClick={() => downloadCsv(file('onboarding-funnel'), toCsv(FUNNEL_HEADER, funnelTable))}
          />
        }
        id="chart-funnel"
      >
        <div
          role="img"
          aria-label="Bar chart of the onboarding funnel"
          aria-describedby={ids.funnel}
          className="px-2 pt-4 text-muted-foreground sm:px-4"
        >
          <ResponsiveContainer width="100%" height={Math.max(CHART_HEIGHT, m.funnel.length * 26)}>
            <BarChart data={m.funnel} layout="vertical" margin={{ top: 0, right: 16, left: 8, bottom: 0 }}>
              <CartesianGrid horizontal={false} stroke="currentColor" strokeOpacity={0.12} />
              <XAxis type="number" allowDecimals={false} {...axisProps} />
              <YAxis
                type="category"
                dataKey="label"
                width={118}
                interval={0}
                {...axisProps}
                tick={{ fill: 'currentColor', fontSize: 11 }}
                tickFormatter={(v: string) => v.replace(/^Reached: /, '')}
              />
              <Tooltip {...tooltipStyle} />
              <Bar dataKey="count" name="Members" fill={PALETTE[0]} radius={[0, 6, 6, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <DataTable id={ids.funnel} caption="Onboarding funnel" header={FUNNEL_HEADER} rows={funnelTable} />
      </Section>

      <Section
        title="Mixers per day"
        description={`${fmtNumber(totals.mixersCreated)} created, ${fmtNumber(totals.joins)} joins, ${fmtNumber(totals.chat)} chat messages.`}
        actions={
          <CsvButton
            what="mixer activity"
            onClick={() => downloadCsv(file('mixers'), toCsv(['Day', 'Mixers created', 'Joins', 'Chat messages'], mixerTable))}
          />
        }
        id="chart-mixers"
      >
        <ChartFrame label="Chart of mixers created, joins and chat messages per day" tableId={ids.mixers}>
          {barsAndLine(
            [
              { key: 'mixersCreated', name: 'Mixers created', color: PALETTE[1] },
              { key: 'mixerJoins', name: 'Joins', color: PALETTE[2] },
            ],
            { key: 'chatMessages', name: 'Chat messages', color: PALETTE[0] },
          )}
        </ChartFrame>
        <DataTable
          id={ids.mixers}
          caption="Mixers per day"
          header={['Day', 'Mixers created', 'Joins', 'Chat messages']}
          rows={mixerTable}
        />
      </Section>

      <Section
        title="Matches per day"
        description={`${fmtNumber(totals.matches)} matches and ${fmtNumber(totals.dms)} private messages.`}
        actions={
          <CsvButton
            what="matches"
            onClick={() => downloadCsv(file('matches'), toCsv(['Day', 'Matches', 'Private messages'], matchTable))}
          />
        }
        id="chart-matches"
      >
        <ChartFrame label="Chart of matches and private messages per day" tableId={ids.matches}>
          {barsAndLine([{ key: 'matches', name: 'Matches', color: PALETTE[0] }], {
            key: 'directMessages',
            name: 'Private messages',
            color: PALETTE[3],
          })}
        </ChartFrame>
        <DataTable id={ids.matches} caption="Matches per day" header={['Day', 'Matches', 'Private messages']} rows={matchTable} />
      </Section>

      <Section
        title="Daily active members"
        description={`Members who used Fancy each day. Peak: ${fmtNumber(totals.peakActive)}.`}
        actions={
          <CsvButton
            what="daily active members"
            onClick={() => downloadCsv(file('daily-active'), toCsv(['Day', 'Active members'], activeTable))}
          />
        }
        id="chart-active"
      >
        <ChartFrame label="Area chart of daily active members" tableId={ids.active}>
          <AreaChart data={days} margin={{ top: 4, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.12} />
            <XAxis dataKey="day" tickFormatter={tickFormatter} interval={interval} {...axisProps} />
            <YAxis allowDecimals={false} {...axisProps} />
            <Tooltip labelFormatter={(v) => fmtDay(String(v))} {...tooltipStyle} />
            <Area
              dataKey="activeMembers"
              name="Active members"
              stroke={PALETTE[1]}
              fill={PALETTE[1]}
              fillOpacity={0.18}
              strokeWidth={2}
              isAnimationActive={false}
            />
          </AreaChart>
        </ChartFrame>
        <DataTable id={ids.active} caption="Daily active members" header={['Day', 'Active members']} rows={activeTable} />
      </Section>
    </div>
  );
}

export default function AdminMetricsPage() {
  const toast = useToast();
  const [range, setRange] = useRange();
  const q = useQuery({
    queryKey: adminKeys.metrics(range.from, range.to, range.split),
    queryFn: () => adminApi.metrics(range.from, range.to, range.split),
    placeholderData: keepPreviousData,
  });

  const downloadAll = () => {
    const m = q.data;
    if (!m) return;
    downloadCsv(
      `fancy-metrics-${m.from}-to-${m.to}.csv`,
      toCsv(
        ['Day', 'Sign-ups', 'Mixers created', 'Mixer joins', 'Chat messages', 'Matches', 'Private messages', 'Active members'],
        m.days.map((d) => [d.day, d.signups, d.mixersCreated, d.mixerJoins, d.chatMessages, d.matches, d.directMessages, d.activeMembers]),
      ),
    );
    toast({ title: 'CSV downloaded', description: `Daily figures from ${fmtDay(m.from)} to ${fmtDay(m.to)}.` });
  };

  return (
    <AdminPage
      title="Metrics"
      description="Growth and activity per day (UTC), with the numbers under each chart."
      actions={
        <Button variant="outline" onClick={downloadAll} disabled={!q.data}>
          <Download aria-hidden /> Download all (CSV)
        </Button>
      }
    >
      <div className="grid gap-6">
        <RangePicker range={range} onChange={setRange} />
        {q.isPending ? (
          <ChartsSkeleton />
        ) : q.isError && !q.data ? (
          <Card>
            <ErrorState error={q.error} onRetry={() => void q.refetch()} />
          </Card>
        ) : q.data ? (
          <div className={cn('transition-opacity', q.isPlaceholderData && 'opacity-60')} aria-busy={q.isFetching}>
            <Charts m={q.data} />
          </div>
        ) : null}
      </div>
    </AdminPage>
  );
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
const mins = (v: number | null) => (v == null ? '—' : v < 90 ? `${v} min` : `${Math.round((v / 60) * 10) / 10} h`);

type SeverityFigures = Metrics['moderation']['timeToFirstAction'][number];
/** The rows of the per-severity table; its columns are the severe reports and the rest. */
const SEVERITY_ROWS: [string, (r: SeverityFigures) => string][] = [
  ['Target', (r) => (r.severity === 0 ? '1 h' : '24 h')],
  ['Reports', (r) => fmtNumber(r.reports)],
  ['Median time to first action', (r) => mins(r.medianMinutes)],
  ['90th percentile', (r) => mins(r.p90Minutes)],
  ['Overdue', (r) => (r.reports ? pct(r.overdueShare) : '—')],
];

/** Issue 30: reports per day, time to first action and overdue share per severity, appeals. */
function ModerationFigures({ m, interval }: { m: Metrics['moderation']; interval: number | 'preserveStartEnd' }) {
  const tableId = useId();
  const total = m.reportsPerDay.reduce((s, d) => s + d.n, 0);
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 px-4 pt-4 sm:grid-cols-4 sm:px-5">
        {(
          [
            ['Reports', fmtNumber(total)],
            ['Overdue', pct(m.overdueShare)],
            ['Appeals', fmtNumber(m.appeals)],
            ['Reversed on appeal', pct(m.reversalRate)],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-muted px-3 py-2">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <ChartFrame label="Bar chart of reports per day" tableId={tableId}>
        <BarChart data={m.reportsPerDay} margin={{ top: 4, right: 8, left: -16, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.12} />
          <XAxis dataKey="day" tickFormatter={(v: string) => fmtDay(v)} interval={interval} {...axisProps} />
          <YAxis allowDecimals={false} {...axisProps} />
          <Tooltip labelFormatter={(v) => fmtDay(String(v))} {...tooltipStyle} />
          <Bar dataKey="n" name="Reports" fill={PALETTE[0]} isAnimationActive={false} />
        </BarChart>
      </ChartFrame>
      <DataTable id={tableId} caption="Reports per day" header={['Day', 'Reports']} rows={m.reportsPerDay.map((d) => [d.day, d.n])} />
      <div className="mt-4 border-t border-border">
        <Table caption="Time to first action and overdue share per severity">
          <thead>
            <tr>
              <Th>Per severity</Th>
              <Th className="text-right">Severe</Th>
              <Th className="text-right">Other</Th>
            </tr>
          </thead>
          <tbody>
            {SEVERITY_ROWS.map(([label, value]) => (
              <tr key={label}>
                <Td>{label}</Td>
                {m.timeToFirstAction.map((r) => (
                  <Td key={r.severity} className="text-right tabular-nums">
                    {value(r)}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
