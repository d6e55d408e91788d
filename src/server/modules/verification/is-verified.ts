import { type SQL, sql } from 'drizzle-orm';

/** SQL: whether the member `userId` holds the verified badge now (one place for every query that shows or needs it). */
export const isVerifiedSql = (userId: SQL) =>
  sql`exists (select 1 from member_verifications mv where mv.user_id = ${userId} and mv.status = 'verified')`;
