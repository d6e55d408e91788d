import { type SQL, sql } from 'drizzle-orm';
import { hiddenFrom } from './visibility';

/**
 * The one rule for a private conversation (issue 30, decision 037): who may see it and who may
 * write to it. Every route, socket room, list, counter and export that reads a match or its
 * messages embeds these SQL fragments, so the rule holds everywhere at once. `me` is a member id
 * or a SQL column; `m` is the alias of the `matches` row (or a CTE with its columns) in the
 * statement.
 */
type Who = SQL | string;

/** SQL: the other member of match row `m`, seen from `me`. */
export const otherOf = (me: Who, m = 'm') =>
  sql`case when ${sql.raw(m)}.profile1_id = ${me} then ${sql.raw(m)}.profile2_id else ${sql.raw(m)}.profile1_id end`;

/**
 * SQL: true when `me` may open conversation `m`, read its messages and find it in lists: one of
 * the two, and
 * - while matched, both may;
 * - once ended (unmatch or block), only the member who ended it keeps it, read-only — so they
 *   can still report from it; the other answers 404 everywhere, as if it never existed;
 * - a block against `me` takes it away whatever the status (a later block wins over an earlier
 *   unmatch by `me`).
 */
export const conversationVisibleTo = (me: Who, m = 'm') => {
  const t = sql.raw(m);
  return sql`(${me} in (${t}.profile1_id, ${t}.profile2_id)
    and (${t}.status = 'matched' or ${t}.ended_by = ${me})
    and not exists (select 1 from blocks cvb where cvb.blocker_id = ${otherOf(me, m)} and cvb.blocked_id = ${me}))`;
};

/**
 * SQL: true when `me` may send to conversation `m` (and take part in its live room): it is
 * visible to them, still matched, and the other is not hidden from them (a block either way, a
 * suspension).
 */
export const conversationWritableBy = (me: Who, m = 'm') =>
  sql`(${conversationVisibleTo(me, m)} and ${sql.raw(m)}.status = 'matched' and not ${hiddenFrom(me, otherOf(me, m))})`;
