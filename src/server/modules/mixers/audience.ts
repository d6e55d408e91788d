import { sql } from 'drizzle-orm';
import { fittingPools, type SeatKey, seatPools } from '../../../shared/audience';
import type { MixerAudienceView, MixerSummary } from '../../../shared/schemas/mixers';
import type { Database } from '../../db/client';
import { readRows } from '../../db/prepared';
import { type AudienceRow, audienceOf, loadViewer, type Viewer } from './eligibility';
import { seatFillSql, takenSeats } from './seats';
import { isoFromMs, parseJson } from '../../lib/sql';

/**
 * Who each mixer is for and how full each side is, for mixers the viewer is already allowed to
 * see (list and detail filter first): one query for a whole page. Only counts per side, never
 * who sits where, so a seat plan tells nobody another member's orientation.
 */
export async function audienceViews(
  database: Database,
  userId: string,
  ids: string[],
  known?: Viewer,
): Promise<Map<string, MixerAudienceView>> {
  if (!ids.length) return new Map();
  const viewer = known ?? (await loadViewer(database, userId));
  const rows = await readRows<
    AudienceRow & {
      id: string;
      max_participants: number;
      fill: string | { side: string; joined: number; held: number; waiting: number }[];
      my_side: string | null;
      my_invitation_id: string | null;
      my_invitation_expires_ms: number | string | null;
      my_invitation_side: string | null;
    }
  >(
    database,
    sql`
    select m.id, m.audience_region, m.age_min, m.age_max, m.seat_plan, m.max_participants,
      (select coalesce(json_agg(json_build_object('side', f.side, 'joined', f.joined, 'held', f.held, 'waiting', f.waiting)), '[]'::json)
         from (${seatFillSql(sql`m.id`, sql`now()`, userId)}) f) as fill,
      (select c.side from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state in ('joined', 'waitlisted')) as my_side,
      i.id as my_invitation_id, (extract(epoch from i.expires_at) * 1000)::float8 as my_invitation_expires_ms, i.side as my_invitation_side
    from mixers m
    left join mixer_invitations i on i.mixer_id = m.id and i.user_id = ${userId} and i.status = 'pending' and i.expires_at > now()
      and m.status = 'scheduled'
    where m.id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`,
  );
  return new Map(
    rows.map((r) => {
      const audience = audienceOf(r);
      const fill = parseJson(r.fill, []);
      const seats = seatPools(audience.seatPlan, Number(r.max_participants)).map((p) => {
        const f = fill.find((x) => x.side === p.key);
        return { key: p.key, seats: p.seats, joined: Number(f?.joined ?? 0), held: Number(f?.held ?? 0), waiting: Number(f?.waiting ?? 0) };
      });
      const mySide = (r.my_side as SeatKey | null) ?? null;
      const held = (r.my_invitation_side as SeatKey | null) ?? null;
      const mine = mySide ? [mySide] : held ? [held] : fittingPools(audience.seatPlan, viewer);
      const seatsForMe = seats.filter((p) => mine.includes(p.key)).reduce((n, p) => n + Math.max(0, p.seats - takenSeats(p)), 0);
      const myInvitation =
        r.my_invitation_id && !mySide ? { id: r.my_invitation_id, expiresAt: isoFromMs(Number(r.my_invitation_expires_ms)) } : null;
      return [r.id, { audience, seats, mySide, seatsForMe, myInvitation }];
    }),
  );
}

/** The summaries with their audience views (the same order). */
export async function withAudience<T extends Omit<MixerSummary, keyof MixerAudienceView>>(
  database: Database,
  userId: string,
  items: T[],
  viewer?: Viewer,
): Promise<(T & MixerAudienceView)[]> {
  const views = await audienceViews(
    database,
    userId,
    items.map((i) => i.id),
    viewer,
  );
  return items.map((i) => {
    const view = views.get(i.id);
    return {
      ...i,
      audience: view?.audience ?? { region: null, ageMin: 18, ageMax: 99, seatPlan: [] },
      seats: view?.seats ?? [],
      mySide: view?.mySide ?? null,
      seatsForMe: view?.seatsForMe ?? 0,
      myInvitation: view?.myInvitation ?? null,
    };
  });
}
