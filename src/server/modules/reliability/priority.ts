import { type SQL, sql } from 'drizzle-orm';
import { RELIABILITY_MIN_RECORDS, RELIABILITY_WINDOW } from '../../../shared/reliability';

/**
 * `reliabilityTier` (src/shared/reliability.ts) as an SQL expression over one member's most
 * recent attendance records, for ordering waitlists and invitations: 2 reliable, 1 new or
 * mixed, 0 mostly missed. `userId` is a column or value expression.
 */
export function reliabilityTierSql(userId: SQL): SQL {
  return sql`(select case when count(*) < ${RELIABILITY_MIN_RECORDS} then 1
                          when avg((r.outcome = 'attended')::int) >= 0.8 then 2
                          when avg((r.outcome = 'attended')::int) < 0.5 then 0
                          else 1 end
                from (select a.outcome from mixer_attendance a where a.user_id = ${userId}
                       order by a.recorded_at desc limit ${RELIABILITY_WINDOW}) r)`;
}
