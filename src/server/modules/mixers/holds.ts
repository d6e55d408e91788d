import { type SQL, sql } from 'drizzle-orm';
import { MAX_UPCOMING_MIXERS, MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { parseJson, rowsOf } from '../../lib/sql';

/**
 * How many mixers a member may hold at once (issue 32): a joined seat, or a seat held for them
 * by a pending invitation, counts as holding the mixer until it ends. A member holds at most
 * MAX_UPCOMING_MIXERS that have not started, and never two whose times overlap (live ones
 * included). Joining, accepting an invitation and every promotion from a waitlist go through
 * these rules, so none of them can hand out a seat the member could not have taken.
 */

type Who = SQL | string;

/** SQL: the instant `now`. */
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** SQL: the mixers aliased `a` and `b` overlap in time (back to back does not). Aliases are fixed names in this code, never input. */
export const sameTime = (a: string, b: string) => sql.raw(`${a}.starts_at < ${b}.ends_at and ${a}.ends_at > ${b}.starts_at`);

/**
 * SQL: true when member `user` holds mixer `h` (joined, or a seat held by a pending invitation) and
 * it is not over. Read from the member's own rows (indexed by member), so the cost follows what
 * they hold, not how many mixers are upcoming.
 */
const holds = (user: Who, now: SQL) => sql`h.status in ('scheduled', 'live') and h.ends_at > ${now}
    and h.id in (select hc.mixer_id from mixer_memberships hc where hc.user_id = ${user} and hc.state = 'joined'
                 union all
                 select hi.mixer_id from mixer_invitations hi where hi.user_id = ${user} and hi.status = 'pending' and hi.expires_at > ${now})`;

/** SQL: true when taking a seat in `mixerId` would give `user` one upcoming mixer too many. */
const overCap = (user: Who, mixerId: Who, now: SQL) => sql`(
    coalesce((select t.status = 'scheduled' and t.starts_at > ${now} from mixers t where t.id = ${mixerId}), false)
    and (select count(*) from mixers h where h.id <> ${mixerId} and h.status = 'scheduled' and h.starts_at > ${now} and ${holds(user, now)}) >= ${MAX_UPCOMING_MIXERS})`;

/** SQL: mixer `h` is another mixer than the one aliased `other`, at an overlapping time, and `user` holds it. */
const heldAtSameTime = (user: Who, other: string, now: SQL) =>
  sql`h.id <> ${sql.raw(other)}.id and ${sameTime('h', other)} and ${holds(user, now)}`;

/** SQL: true when `mixerId` overlaps in time another mixer `user` holds. */
const overlaps = (user: Who, mixerId: Who, now: SQL) =>
  sql`exists (select 1 from mixers t, mixers h where t.id = ${mixerId} and ${heldAtSameTime(user, 't', now)})`;

/** SQL: true when a seat in the mixer aliased `m` would give `user` one upcoming mixer too many (its page says so before a Join). */
export const overCapSql = (user: Who, now: Date) => overCap(user, sql`m.id`, at(now));

/** SQL rows (id, starts_at, ends_at): every mixer `user` holds on `now` (For you leaves out what overlaps them). */
export const heldMixersSql = (user: Who, now: Date) => sql`select h.id, h.starts_at, h.ends_at from mixers h where ${holds(user, at(now))}`;

/**
 * SQL: for the mixer aliased `m`, the first other mixer `user` holds at an overlapping time, as
 * json (id, title, starts_at, invited: held by an invitation rather than joined), or null — what
 * the mixer page shows before a Join that `assertCanHold` would refuse.
 */
export const clashSql = (user: Who, now: Date) =>
  sql`(select json_build_object('id', h.id, 'title', h.title, 'starts_at', h.starts_at,
        'invited', not exists (select 1 from mixer_memberships hj where hj.mixer_id = h.id and hj.user_id = ${user} and hj.state = 'joined'))
      from mixers h
     where ${heldAtSameTime(user, 'm', at(now))}
     order by h.starts_at, h.id limit 1)`;

/** SQL: true when `user` may take a seat in `mixerId` now (for promotions from a waitlist). */
export const canHoldSql = (user: Who, mixerId: Who, now: Date) =>
  sql`(not ${overCap(user, mixerId, at(now))} and not ${overlaps(user, mixerId, at(now))})`;

/**
 * Refuses a seat in `mixerId` that would break the rules above, with the reason. Runs inside the
 * join transaction after the mixer row is locked; the member's own row is locked too, so two
 * joins of different mixers by the same member are counted one after the other.
 */
export async function assertCanHold(tx: Db, userId: string, mixerId: string, now: Date): Promise<void> {
  await tx.execute(sql`select 1 from "user" where id = ${userId} for update`);
  // The same clash the mixer's page names (clashSql), so the refusal says how that mixer is held.
  const [row] = rowsOf<{ clash: { invited: boolean } | string | null; over_cap: boolean }>(
    await tx.execute(
      sql`select ${clashSql(userId, now)} as clash, ${overCap(userId, mixerId, at(now))} as over_cap from mixers m where m.id = ${mixerId}`,
    ),
  );
  const clash = parseJson(row?.clash, null);
  if (clash) throw new AppError('conflict', clash.invited ? MIXER_MESSAGES.overlapsHeld : MIXER_MESSAGES.overlaps);
  if (row?.over_cap) throw new AppError('conflict', MIXER_MESSAGES.tooManyUpcoming);
}
