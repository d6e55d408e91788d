import { type SQL, sql } from 'drizzle-orm';
import {
  ADMIN_MESSAGES,
  addDays,
  dayNumber,
  FUNNEL_STEP_LABELS,
  METRICS_MAX_DAYS,
  METRICS_TOP_CAMPAIGNS,
  type Metrics,
  type MetricsDay,
  type MetricsQuery,
  type MetricsSplit,
  NO_CAMPAIGN,
  OTHER_CAMPAIGNS,
  todayUtc,
} from '../../../shared/schemas/admin';
import { AppError } from '../../http/errors';
import { type Queryable, query } from '../../lib/sql';
import { moderationMetrics } from './moderation-metrics';

/** Default range: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const SPLIT_COLUMN: Record<MetricsSplit, SQL> = {
  source: sql`u.utm_source`,
  campaign: sql`u.utm_campaign`,
  code: sql`u.campaign_code`,
};

/** The range with defaults applied, checked again after defaulting. */
export function resolveRange(q: Pick<MetricsQuery, 'from' | 'to'>, now = new Date()): { from: string; to: string } {
  const to = q.to ?? (q.from ? addDays(q.from, DEFAULT_RANGE_DAYS - 1) : todayUtc(now));
  const from = q.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (dayNumber(from) > dayNumber(to)) throw new AppError('validation', ADMIN_MESSAGES.rangeOrder, { from: ADMIN_MESSAGES.rangeOrder });
  if (dayNumber(to) - dayNumber(from) + 1 > METRICS_MAX_DAYS) {
    throw new AppError('validation', ADMIN_MESSAGES.rangeTooLong, { from: ADMIN_MESSAGES.rangeTooLong });
  }
  return { from, to };
}

interface DayRow {
  day: string;
  signups: number;
  mixers_created: number;
  mixer_joins: number;
  chat_messages: number;
  matches: number;
  direct_messages: number;
  active_members: number;
}

/**
 * The /admin/metrics figures for a range of UTC days: daily series filled with zeros by
 * `generate_series`, sign-ups split by campaign, and the onboarding funnel of the members who
 * registered in the range. Three queries, each one round trip.
 */
export async function adminMetrics(db: Queryable, q: MetricsQuery, now = new Date()): Promise<Metrics> {
  const { from, to } = resolveRange(q, now);
  const lo = sql`(${from}::date)::timestamp at time zone 'UTC'`;
  const hi = sql`(${to}::date + 1)::timestamp at time zone 'UTC'`;
  const inRange = (col: SQL) => sql`${col} >= ${lo} and ${col} < ${hi}`;
  const dayOf = (col: SQL) => sql`(${col} at time zone 'UTC')::date`;
  const perDay = (table: SQL, col: SQL, where: SQL = sql`true`) =>
    sql`select ${dayOf(col)} as day, count(*)::int as n from ${table} where ${inRange(col)} and ${where} group by 1`;

  const days = await query<DayRow>(
    db,
    sql`with days as (
          select d::date as day from generate_series(${from}::timestamp, ${to}::timestamp, interval '1 day') d
        ),
        su as (${perDay(sql`"user"`, sql`created_at`)}),
        mc as (${perDay(sql`mixers`, sql`created_at`)}),
        mj as (${perDay(sql`mixer_memberships`, sql`joined_at`, sql`state = 'joined'`)}),
        cm as (${perDay(sql`mixer_messages`, sql`created_at`, sql`kind = 'member'`)}),
        ma as (${perDay(sql`matches`, sql`created_at`)}),
        dm as (${perDay(sql`direct_messages`, sql`created_at`)}),
        da as (select day, count(*)::int as n from daily_activity where day between ${from}::date and ${to}::date group by day)
        select to_char(days.day, 'YYYY-MM-DD') as day,
               coalesce(su.n, 0) as signups, coalesce(mc.n, 0) as mixers_created, coalesce(mj.n, 0) as mixer_joins,
               coalesce(cm.n, 0) as chat_messages, coalesce(ma.n, 0) as matches, coalesce(dm.n, 0) as direct_messages,
               coalesce(da.n, 0) as active_members
          from days
          left join su on su.day = days.day
          left join mc on mc.day = days.day
          left join mj on mj.day = days.day
          left join cm on cm.day = days.day
          left join ma on ma.day = days.day
          left join dm on dm.day = days.day
          left join da on da.day = days.day
         order by days.day`,
  );

  const split = q.split;
  const splitRows = await query<{ day: string; key: string; n: number }>(
    db,
    sql`select to_char(${dayOf(sql`u.created_at`)}, 'YYYY-MM-DD') as day,
               coalesce(nullif(lower(btrim(${SPLIT_COLUMN[split]})), ''), ${NO_CAMPAIGN}) as key,
               count(*)::int as n
          from "user" u
         where ${inRange(sql`u.created_at`)}
         group by 1, 2`,
  );

  const steps = FUNNEL_STEP_LABELS.map((_, k) => k).slice(1);
  const reached = sql`greatest(coalesce(p.onboarding_step, 0), case when coalesce(p.onboarding_completed, false) or u.onboarding_complete then ${FUNNEL_STEP_LABELS.length - 1} else 0 end)`;
  const [funnelRow] = await query<Record<string, number>>(
    db,
    sql`select count(*)::int as registered,
               count(*) filter (where u.email_verified)::int as verified,
               ${sql.join(
                 steps.map((k) => sql`count(*) filter (where ${reached} >= ${k})::int as ${sql.identifier(`step_${k}`)}`),
                 sql`, `,
               )},
               count(*) filter (where coalesce(p.onboarding_completed, false) or u.onboarding_complete)::int as completed
          from "user" u left join profiles p on p.id = u.id
         where ${inRange(sql`u.created_at`)}`,
  );

  const moderation = await moderationMetrics(db, lo, hi, from, to);
  return {
    from,
    to,
    split,
    moderation,
    days: days.map(
      (d): MetricsDay => ({
        day: d.day,
        signups: d.signups,
        mixersCreated: d.mixers_created,
        mixerJoins: d.mixer_joins,
        chatMessages: d.chat_messages,
        matches: d.matches,
        directMessages: d.direct_messages,
        activeMembers: d.active_members,
      }),
    ),
    signupsByCampaign: splitByCampaign(
      days.map((d) => d.day),
      splitRows,
    ),
    funnel: [
      { key: 'registered', label: 'Registered', count: funnelRow.registered },
      { key: 'verified', label: 'Verified email', count: funnelRow.verified },
      ...steps.map((k) => ({ key: `step_${k}`, label: `Reached: ${FUNNEL_STEP_LABELS[k]}`, count: funnelRow[`step_${k}`] })),
      { key: 'completed', label: 'Completed profile', count: funnelRow.completed },
    ],
  };
}

/** The biggest campaigns get their own series, the rest are summed as "Other"; every day is present. */
export function splitByCampaign(days: string[], rows: { day: string; key: string; n: number }[]): Metrics['signupsByCampaign'] {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.key, (totals.get(r.key) ?? 0) + r.n);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const overflow = ranked.length > METRICS_TOP_CAMPAIGNS + 1;
  const kept = overflow ? ranked.slice(0, METRICS_TOP_CAMPAIGNS) : ranked;
  const campaigns = kept.map(([key, total]) => ({ key, total }));
  if (overflow) campaigns.push({ key: OTHER_CAMPAIGNS, total: ranked.slice(METRICS_TOP_CAMPAIGNS).reduce((s, [, n]) => s + n, 0) });
  const index = new Map(campaigns.map((c, i) => [c.key, i]));
  const byDay = new Map(days.map((day) => [day, campaigns.map(() => 0)]));
  for (const r of rows) {
    const counts = byDay.get(r.day);
    if (!counts) continue;
    counts[index.get(r.key) ?? index.get(OTHER_CAMPAIGNS) ?? 0] += r.n;
  }
  return { campaigns, days: days.map((day) => ({ day, counts: byDay.get(day) ?? [] })) };
}
