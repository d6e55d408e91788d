import { sql } from 'drizzle-orm';
import { AUDIENCE_MESSAGES, fittingPools, pickSeat, type SeatKey, type SeatPlan, seatPools } from '../../../shared/audience';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import type { Viewer } from './eligibility';
import { rowsOf } from './shared';

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
  const plan: SeatPlan = typeof row.seat_plan === 'string' ? JSON.parse(row.seat_plan) : row.seat_plan;
  return { plan, pools: seatPools(plan, Number(row.max_participants)) };
}

/** Seats taken and places waiting per side, for one locked mixer. */
async function fill(tx: Db, mixerId: string) {
  const rows = rowsOf<{ side: string; joined: number | string; waiting: number | string }>(
    await tx.execute(sql`
      select side, count(*) filter (where state = 'joined') as joined, count(*) filter (where state = 'waitlisted') as waiting
        from mixer_memberships where mixer_id = ${mixerId} group by side`),
  );
  return new Map(rows.map((r) => [r.side, { joined: Number(r.joined), waiting: Number(r.waiting) }]));
}

/**
 * Takes a seat on the viewer's side (the fitting side with most room), or a waitlist place on
 * that side when it is full and the viewer asked for one.
 */
export async function takeSeat(
  tx: Db,
  mixerId: string,
  viewer: Viewer,
  opts: { waitlist?: boolean },
  now: Date,
): Promise<{ state: 'joined' | 'waitlisted'; changed: boolean }> {
  const { plan, pools } = await planOf(tx, mixerId);
  const counts = await fill(tx, mixerId);
  const [mine] = rowsOf<{ state: string; side: string }>(
    await tx.execute(sql`select state, side from mixer_memberships where mixer_id = ${mixerId} and user_id = ${viewer.userId}`),
  );
  if (mine?.state === 'joined') return { state: 'joined', changed: false };
  if (mine?.state === 'waitlisted') return { state: 'waitlisted', changed: false };

  const pick = pickSeat(
    pools.map((p) => ({ ...p, joined: counts.get(p.key)?.joined ?? 0, waiting: counts.get(p.key)?.waiting ?? 0 })),
    fittingPools(plan, viewer),
  );
  if (!pick) throw new AppError('not_for_you', AUDIENCE_MESSAGES.notForYou);
  if (pick.state === 'waitlisted' && !opts.waitlist) {
    throw new AppError('conflict', plan.length ? AUDIENCE_MESSAGES.sideFull : MIXER_MESSAGES.full);
  }
  await tx.execute(sql`
    insert into mixer_memberships (mixer_id, user_id, state, side, joined_at)
    values (${mixerId}, ${viewer.userId}, ${pick.state}, ${pick.key}, ${now.toISOString()}::timestamptz)
    on conflict (mixer_id, user_id) do update set state = excluded.state, side = excluded.side, joined_at = excluded.joined_at`);
  return { state: pick.state, changed: true };
}

export interface Promoted {
  user_id: string;
  email: string;
  name: string | null;
}

/**
 * After a seat on `side` freed up: the first member waiting on that same side takes it, so the
 * plan stays balanced (a waiting man never takes a woman's seat).
 */
export async function promoteOnSide(tx: Db, mixerId: string, side: string, now: Date): Promise<Promoted | null> {
  const { pools } = await planOf(tx, mixerId);
  const pool = pools.find((p) => p.key === (side as SeatKey));
  if (!pool) return null;
  const [next] = rowsOf<Promoted>(
    await tx.execute(sql`
      update mixer_memberships set state = 'joined', joined_at = ${now.toISOString()}::timestamptz
       where id = (
         select w.id from mixer_memberships w
          where w.mixer_id = ${mixerId} and w.state = 'waitlisted' and w.side = ${side}
            and (select count(*) from mixer_memberships c where c.mixer_id = ${mixerId} and c.state = 'joined' and c.side = ${side}) < ${pool.seats}
          order by w.joined_at, w.id
          limit 1)
      returning user_id,
        (select email from "user" where id = mixer_memberships.user_id) as email,
        (select coalesce(p.full_name, u.name) from "user" u left join profiles p on p.id = u.id where u.id = mixer_memberships.user_id) as name`),
  );
  return next ?? null;
}

/**
 * Gives every free seat to the first member waiting on that seat's side (after an admin
 * raised seats or changed the plan). Returns who got one.
 */
export async function seatWaitlisted(tx: Db, mixerId: string, now: Date): Promise<{ user_id: string }[]> {
  const { pools } = await planOf(tx, mixerId);
  const counts = await fill(tx, mixerId);
  const promoted: { user_id: string }[] = [];
  for (const pool of pools) {
    const free = pool.seats - (counts.get(pool.key)?.joined ?? 0);
    if (free <= 0 || !counts.get(pool.key)?.waiting) continue;
    promoted.push(
      ...rowsOf<{ user_id: string }>(
        await tx.execute(sql`
          update mixer_memberships set state = 'joined', joined_at = ${now.toISOString()}::timestamptz
           where id in (select w.id from mixer_memberships w
                         where w.mixer_id = ${mixerId} and w.state = 'waitlisted' and w.side = ${pool.key}
                         order by w.joined_at, w.id limit ${free})
          returning user_id`),
      ),
    );
  }
  return promoted;
}

/** Members already seated per side, to refuse a plan with fewer seats on a side than that. */
export async function joinedPerSide(tx: Db, mixerId: string): Promise<Map<string, number>> {
  const counts = await fill(tx, mixerId);
  return new Map([...counts].map(([k, v]) => [k, v.joined]));
}
