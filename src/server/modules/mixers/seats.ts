import { type SQL, sql } from 'drizzle-orm';
import { AUDIENCE_MESSAGES, fittingPools, pickSeat, type SeatKey, type SeatPlan, seatPools } from '../../../shared/audience';
import { MIXER_MESSAGES, takenSeats } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { reliabilityTierSql } from '../reliability/service';
import type { Viewer } from './eligibility';
import { assertCanHold, canHoldSql } from './holds';
import { parseJson, rowsOf } from '../../lib/sql';

/**
 * Seats per side of a mixer's seat plan (issue 13). Both functions run inside the join or
 * leave transaction, after the mixer row is locked (SELECT … FOR UPDATE), so two members
 * racing for the last seat on a side are served one after the other: exactly one gets it.
 */

interface PlanRow {
  seat_plan: SeatPlan | string;
  max_participants: number;
}

async function planOf(tx: Db, mixerId: string) {
  const [row] = rowsOf<PlanRow>(await tx.execute(sql`select seat_plan, max_participants from mixers where id = ${mixerId}`));
  const plan = parseJson<SeatPlan>(row.seat_plan, []);
  return { plan, pools: seatPools(plan, Number(row.max_participants)) };
}

/**
 * SQL relation (mixer_id, side, user_id): the seats held by invitations (issue 14,
 * docs/decisions/013). A `pending` invitation that has not expired holds a seat on its side;
 * it counts as taken for everyone except the invited member (`exceptUser`). Every place that
 * counts seats uses this with `takenSeats`, so they all agree.
 */
export function seatHoldsSql(now: SQL, exceptUser: string | SQL | null = null): SQL {
  const except = exceptUser === null ? sql`` : sql` and i.user_id <> ${exceptUser}`;
  return sql`select i.mixer_id, i.side, i.user_id from mixer_invitations i
              where i.status = 'pending' and i.expires_at > ${now}${except}`;
}

export { takenSeats };

/**
 * SQL rows (side, joined, held, waiting) for one mixer: members seated and waiting per side,
 * and seats held for others (`seatHoldsSql`).
 */
export function seatFillSql(mixerId: SQL, now: SQL, exceptUser: string | SQL | null = null): SQL {
  return sql`select f.side, sum(f.joined)::int as joined, sum(f.held)::int as held, sum(f.waiting)::int as waiting from (
      select c.side, count(*) filter (where c.state = 'joined') as joined, 0 as held, count(*) filter (where c.state = 'waitlisted') as waiting
        from mixer_memberships c where c.mixer_id = ${mixerId} group by c.side
      union all
      select h.side, 0, count(*), 0 from (${seatHoldsSql(now, exceptUser)}) h where h.mixer_id = ${mixerId} group by h.side
    ) f group by f.side`;
}

export interface SideFill {
  joined: number;
  held: number;
  waiting: number;
}

/** Seats taken, held and places waiting per side, for one locked mixer. */
async function fill(tx: Db, mixerId: string, now: Date, exceptUser: string | null = null): Promise<Map<string, SideFill>> {
  const rows = rowsOf<{ side: string; joined: number | string; held: number | string; waiting: number | string }>(
    await tx.execute(seatFillSql(sql`${mixerId}::uuid`, sql`${now.toISOString()}::timestamptz`, exceptUser)),
  );
  return new Map(rows.map((r) => [r.side, { joined: Number(r.joined), held: Number(r.held), waiting: Number(r.waiting) }]));
}

/**
 * A waiting membership's place in its side's queue, as a row value for the membership aliased
 * `alias`: reliable members first (private reliability, docs/decisions/011), then who waited
 * longest. Promotions take the smallest; the waitlist position shown counts those <= mine.
 */
const waitlistColumns = (alias: 'w' | 'mine') =>
  sql`-${reliabilityTierSql(sql.raw(`${alias}.user_id`))}, ${sql.raw(`${alias}.joined_at`)}, ${sql.raw(`${alias}.id`)}`;
export const waitlistKey = (alias: 'w' | 'mine') => sql`(${waitlistColumns(alias)})`;

const waitlistOrder = waitlistColumns('w');

/**
 * Takes a seat on the viewer's side (the fitting side with most room), or a waitlist place on
 * that side when it is full and the viewer asked for one. A seat held for the viewer by a
 * pending invitation is theirs: they take it (on its side) and the invitation is accepted.
 */
export async function takeSeat(
  tx: Db,
  mixerId: string,
  viewer: Viewer,
  opts: { waitlist?: boolean },
  now: Date,
): Promise<{ state: 'joined' | 'waitlisted'; changed: boolean }> {
  const { plan, pools } = await planOf(tx, mixerId);
  const counts = await fill(tx, mixerId, now, viewer.userId);
  const [mine] = rowsOf<{ state: string; side: string }>(
    await tx.execute(sql`select state, side from mixer_memberships where mixer_id = ${mixerId} and user_id = ${viewer.userId}`),
  );
  if (mine?.state === 'joined') return { state: 'joined', changed: false };

  const fitting = fittingPools(plan, viewer);
  const [hold] = rowsOf<{ side: string }>(
    await tx.execute(sql`
      select side from mixer_invitations
       where mixer_id = ${mixerId} and user_id = ${viewer.userId} and status = 'pending' and expires_at > ${now.toISOString()}::timestamptz`),
  );
  const held = hold && fitting.includes(hold.side as SeatKey) ? (hold.side as SeatKey) : null;
  if (mine?.state === 'waitlisted' && !held) return { state: 'waitlisted', changed: false };
  const pick: { key: SeatKey; state: 'joined' | 'waitlisted' } | null = held
    ? { key: held, state: 'joined' }
    : pickSeat(
        pools.map((p) => {
          const c = counts.get(p.key) ?? { joined: 0, held: 0, waiting: 0 };
          return { ...p, joined: takenSeats(c), waiting: c.waiting };
        }),
        fitting,
      );
  if (!pick) throw new AppError('not_for_you', AUDIENCE_MESSAGES.notForYou);
  if (pick.state === 'waitlisted' && !opts.waitlist) {
    throw new AppError('conflict', plan.length ? AUDIENCE_MESSAGES.sideFull : MIXER_MESSAGES.full);
  }
  // A seat (not a waitlist place) counts against the member's upcoming mixers and their times.
  if (pick.state === 'joined') await assertCanHold(tx, viewer.userId, mixerId, now);
  await tx.execute(sql`
    insert into mixer_memberships (mixer_id, user_id, state, side, joined_at)
    values (${mixerId}, ${viewer.userId}, ${pick.state}, ${pick.key}, ${now.toISOString()}::timestamptz)
    on conflict (mixer_id, user_id) do update set state = excluded.state, side = excluded.side, joined_at = excluded.joined_at`);
  if (pick.state === 'joined') {
    await tx.execute(sql`
      update mixer_invitations set status = 'accepted', responded_at = ${now.toISOString()}::timestamptz
       where mixer_id = ${mixerId} and user_id = ${viewer.userId} and status = 'pending'`);
  }
  return { state: pick.state, changed: true };
}

export interface Promoted {
  user_id: string;
  email: string;
  name: string | null;
}

/**
 * After a seat on `side` freed up: the first member waiting on that same side takes it, so the
 * plan stays balanced (a waiting man never takes a woman's seat). Reliable members go first.
 * A member the seat would give one upcoming mixer too many, or two at the same time
 * (`canHoldSql`), keeps waiting.
 */
export async function promoteOnSide(tx: Db, mixerId: string, side: string, now: Date): Promise<Promoted | null> {
  const { pools } = await planOf(tx, mixerId);
  const pool = pools.find((p) => p.key === (side as SeatKey));
  if (!pool) return null;
  const c = (await fill(tx, mixerId, now)).get(side);
  if (!c?.waiting || takenSeats(c) >= pool.seats) return null;
  const [next] = rowsOf<Promoted>(
    await tx.execute(sql`
      update mixer_memberships set state = 'joined', joined_at = ${now.toISOString()}::timestamptz
       where id = (
         select w.id from mixer_memberships w
          where w.mixer_id = ${mixerId} and w.state = 'waitlisted' and w.side = ${side}
            and ${canHoldSql(sql`w.user_id`, mixerId, now)}
          order by ${waitlistOrder}
          limit 1)
      returning user_id,
        (select email from "user" where id = mixer_memberships.user_id) as email,
        (select coalesce(p.full_name, u.name) from "user" u left join profiles p on p.id = u.id where u.id = mixer_memberships.user_id) as name`),
  );
  return next ?? null;
}

/**
 * Gives every free seat to the first member waiting on that seat's side (after an admin
 * raised seats or changed the plan). Reliable members go first. Returns who got one.
 */
export async function seatWaitlisted(tx: Db, mixerId: string, now: Date): Promise<{ user_id: string }[]> {
  const { pools } = await planOf(tx, mixerId);
  const counts = await fill(tx, mixerId, now);
  const promoted: { user_id: string }[] = [];
  for (const pool of pools) {
    const c = counts.get(pool.key);
    const free = pool.seats - (c ? takenSeats(c) : 0);
    if (free <= 0 || !c?.waiting) continue;
    promoted.push(
      ...rowsOf<{ user_id: string }>(
        await tx.execute(sql`
          update mixer_memberships set state = 'joined', joined_at = ${now.toISOString()}::timestamptz
           where id in (select w.id from mixer_memberships w
                         where w.mixer_id = ${mixerId} and w.state = 'waitlisted' and w.side = ${pool.key}
                           and ${canHoldSql(sql`w.user_id`, mixerId, now)}
                         order by ${waitlistOrder} limit ${free})
          returning user_id`),
      ),
    );
  }
  return promoted;
}

/** Members already seated per side, to refuse a plan with fewer seats on a side than that. */
export async function joinedPerSide(tx: Db, mixerId: string, now = new Date()): Promise<Map<string, number>> {
  const counts = await fill(tx, mixerId, now);
  return new Map([...counts].map(([k, v]) => [k, v.joined]));
}
