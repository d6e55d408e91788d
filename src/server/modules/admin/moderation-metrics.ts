import { type SQL, sql } from 'drizzle-orm';
import type { ModerationMetrics } from '../../../shared/schemas/admin';
import { type Queryable, query } from '../../lib/sql';

/**
 * Moderation figures for a range of UTC days (issue 30): reports per day, and per severity the
 * median and 90th percentile time to the first action (minutes) and the share of reports that
 * waited past their target (1 hour for the severe kinds, 24 hours for the rest; overall too),
 * and appeals with their reversal rate.
 */
export async function moderationMetrics(db: Queryable, lo: SQL, hi: SQL, from: string, to: string): Promise<ModerationMetrics> {
  const perDay = await query<{ day: string; n: number }>(
    db,
    sql`select to_char(d, 'YYYY-MM-DD') as day,
               (select count(*)::int from reports r where r.created_at >= d at time zone 'UTC' and r.created_at < (d + interval '1 day') at time zone 'UTC') as n
          from generate_series(${from}::date, ${to}::date, interval '1 day') d order by d`,
  );
  const first = sql`coalesce((select min(ma.created_at) from moderation_actions ma where ma.report_id = r.id), r.resolved_at)`;
  const bySeverity = await query<{ severity: number; n: number; median: number | null; p90: number | null; overdue: number }>(
    db,
    sql`select r.severity, count(*)::int as n,
               percentile_cont(0.5) within group (order by extract(epoch from (${first} - r.created_at)) / 60)
                 filter (where ${first} is not null) as median,
               percentile_cont(0.9) within group (order by extract(epoch from (${first} - r.created_at)) / 60)
                 filter (where ${first} is not null) as p90,
               count(*) filter (where coalesce(${first}, now()) - r.created_at > case when r.severity = 0 then interval '1 hour' else interval '24 hours' end)::int as overdue
          from reports r where r.created_at >= ${lo} and r.created_at < ${hi}
         group by r.severity order by r.severity`,
  );
  const [ap] = await query<{ appeals: number; reversed: number; decided: number }>(
    db,
    sql`select count(*)::int as appeals, count(*) filter (where status = 'reversed')::int as reversed,
               count(*) filter (where status <> 'open')::int as decided
          from appeals where created_at >= ${lo} and created_at < ${hi}`,
  );
  const total = bySeverity.reduce((s, r) => s + r.n, 0);
  const overdue = bySeverity.reduce((s, r) => s + r.overdue, 0);
  const round = (v: number | null) => (v == null ? null : Math.round(Number(v) * 10) / 10);
  return {
    reportsPerDay: perDay,
    timeToFirstAction: ([0, 1] as const).map((severity) => {
      const row = bySeverity.find((r) => Number(r.severity) === severity);
      return {
        severity,
        reports: row?.n ?? 0,
        medianMinutes: round(row?.median ?? null),
        p90Minutes: round(row?.p90 ?? null),
        overdueShare: row?.n ? row.overdue / row.n : 0,
      };
    }),
    overdueShare: total ? overdue / total : 0,
    appeals: ap?.appeals ?? 0,
    reversalRate: ap?.decided ? ap.reversed / ap.decided : 0,
  };
}
