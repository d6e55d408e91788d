import { sql } from 'drizzle-orm';
import { type AttendanceOutcome, RELIABILITY_WINDOW, type ReliabilityView, reliabilityView } from '../../../shared/reliability';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/sql';

/** The reliability tier in SQL, for seat priority (mixers) and formation (DESIGN §3, decision 027). */
export { reliabilityTierSql } from './priority';

/** A member's most recent attendance outcomes, newest first (at most RELIABILITY_WINDOW). */
export async function recentOutcomes(db: Db, userId: string): Promise<AttendanceOutcome[]> {
  const rows = rowsOf<{ outcome: AttendanceOutcome }>(
    await db.execute(sql`
      select outcome from mixer_attendance where user_id = ${userId}
       order by recorded_at desc limit ${RELIABILITY_WINDOW}`),
  );
  return rows.map((r) => r.outcome);
}

/** The member's own reliability note (never anyone else's: the caller passes the session's id). */
export async function ownReliability(db: Db, userId: string): Promise<ReliabilityView> {
  return reliabilityView(await recentOutcomes(db, userId));
}
