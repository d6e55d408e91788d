import { sql } from 'drizzle-orm';
import {
  type Audience,
  type AudiencePreview,
  fittingPools,
  ineligibility,
  londonToday,
  memberFactsOfRow,
  seatPools,
} from '../../../shared/audience';
import { type Queryable, query } from '../../lib/sql';

/** "Active lately": used the app on one of the last this many days. */
export const ACTIVE_DAYS = 14;

/**
 * How many members an audience reaches, per seat pool, and how many of them were active
 * lately. Members are judged by the same rule the mixers list and join use (`ineligibility`,
 * `fittingPools`); only counts leave this function, never who.
 */
export async function audiencePreview(db: Queryable, audience: Audience, now = new Date()): Promise<AudiencePreview> {
  const rows = await query<{
    dob: string | null;
    city: string | null;
    genders: string[] | null;
    orientations: string[] | null;
    looking_for: string[] | null;
    active: boolean;
  }>(
    db,
    sql`select to_char(p.dob, 'YYYY-MM-DD') as dob, p.city_region as city, p.gender_identities as genders,
               p.sexual_orientations as orientations, p.looking_for,
               exists (select 1 from daily_activity d where d.user_id = p.id
                        and d.day > (${now.toISOString()}::timestamptz at time zone 'Europe/London')::date - ${ACTIVE_DAYS}::int) as active
          from profiles p join "user" u on u.id = p.id
         where p.onboarding_completed and coalesce(u.banned, false) = false`,
  );
  const today = londonToday(now);
  const pools = seatPools(audience.seatPlan, 0).map((p) => ({ key: p.key, eligible: 0, activeLately: 0 }));
  for (const r of rows) {
    const facts = memberFactsOfRow(r, today);
    if (ineligibility(audience, facts)) continue;
    for (const key of fittingPools(audience.seatPlan, facts)) {
      const pool = pools.find((p) => p.key === key);
      if (!pool) continue;
      pool.eligible += 1;
      if (r.active) pool.activeLately += 1;
    }
  }
  return { pools, activeDays: ACTIVE_DAYS };
}
