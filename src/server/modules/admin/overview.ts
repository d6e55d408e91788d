import { sql } from 'drizzle-orm';
import type { AdminOverview } from '../../../shared/schemas/admin';
import { listAudit } from './audit';
import { iso, type Queryable, query, suggestionKeySql } from '../../lib/sql';

interface OverviewRow {
  members_total: number;
  members_verified: number;
  members_onboarded: number;
  members_suspended: number;
  signups_today: number;
  signups_7d: number;
  mixers_live: number;
  mixers_upcoming: number;
  matches_7d: number;
  dms_7d: number;
  chat_7d: number;
  active_today: number;
  reports_open: number;
  oldest_open: string | null;
  suggestions_pending: number;
}

/** The /admin figures, all real, in one round trip (plus the latest audit entries). Days are UTC. */
export async function adminOverview(db: Queryable, now = new Date(), warnings: AdminOverview['warnings'] = []): Promise<AdminOverview> {
  const at = now.toISOString();
  const day = at.slice(0, 10);
  const weekAgo = sql`${at}::timestamptz - interval '7 days'`;
  const [row] = await query<OverviewRow>(
    db,
    sql`select
      (select count(*)::int from "user") as members_total,
      (select count(*)::int from "user" where email_verified) as members_verified,
      (select count(*)::int from "user" u left join profiles p on p.id = u.id
        where u.onboarding_complete or coalesce(p.onboarding_completed, false)) as members_onboarded,
      (select count(*)::int from "user" where banned) as members_suspended,
      (select count(*)::int from "user" where created_at >= ${day}::timestamp at time zone 'UTC' and created_at <= ${at}::timestamptz) as signups_today,
      (select count(*)::int from "user" where created_at > ${weekAgo} and created_at <= ${at}::timestamptz) as signups_7d,
      (select count(*)::int from mixers where status = 'live') as mixers_live,
      (select count(*)::int from mixers where status = 'scheduled' and ends_at > ${at}::timestamptz) as mixers_upcoming,
      (select count(*)::int from matches where created_at > ${weekAgo}) as matches_7d,
      (select count(*)::int from direct_messages where created_at > ${weekAgo}) as dms_7d,
      (select count(*)::int from mixer_messages where kind = 'member' and created_at > ${weekAgo}) as chat_7d,
      (select count(*)::int from daily_activity where day = ${day}::date) as active_today,
      (select count(*)::int from reports where status = 'open') as reports_open,
      (select ${iso(sql`min(created_at)`)} from reports where status = 'open') as oldest_open,
      (select count(distinct ${suggestionKeySql(sql`submitted_interest`)})::int from interest_suggestions where status = 'pending') as suggestions_pending`,
  );
  const recent = await listAudit(db, { limit: 8 });
  return {
    members: {
      total: row.members_total,
      verified: row.members_verified,
      onboarded: row.members_onboarded,
      suspended: row.members_suspended,
    },
    signups: { today: row.signups_today, last7Days: row.signups_7d },
    mixers: { live: row.mixers_live, upcoming: row.mixers_upcoming },
    last7Days: { matches: row.matches_7d, directMessages: row.dms_7d, chatMessages: row.chat_7d },
    activeToday: row.active_today,
    reports: { open: row.reports_open, oldestOpenAt: row.oldest_open },
    suggestions: { pending: row.suggestions_pending },
    recentActivity: recent.items,
    warnings,
  };
}
