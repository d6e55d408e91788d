import { sql } from 'drizzle-orm';
import { fittingPools, type SeatKey, seatPools } from '../../../shared/audience';
import type { MixerAudienceView, MixerSummary } from '../../../shared/schemas/mixers';
import type { Database } from '../../db/client';
import { readRows } from '../../db/prepared';
import { type AudienceRow, audienceOf, loadViewer, type Viewer } from './eligibility';

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
  const viewer = known ?? (await loadViewer(database.db, userId));
  const rows = await readRows<
    AudienceRow & {
      id: string;
      max_participants: number;
      fill: string | { side: string; joined: number; waiting: number }[];
      my_side: string | null;
    }
  >(
    database,
    sql`
    select m.id, m.audience_region, m.age_min, m.age_max, m.seat_plan, m.max_participants,
      (select coalesce(json_agg(json_build_object('side', f.side, 'joined', f.joined, 'waiting', f.waiting)), '[]'::json)
         from (select c.side, count(*) filter (where c.state = 'joined') as joined, count(*) filter (where c.state = 'waitlisted') as waiting
                 from mixer_memberships c where c.mixer_id = m.id group by c.side) f) as fill,
      (select c.side from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state in ('joined', 'waitlisted')) as my_side
    from mixers m where m.id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`,
  );
  return new Map(
    rows.map((r) => {
      const audience = audienceOf(r);
      const fill = typeof r.fill === 'string' ? (JSON.parse(r.fill) as { side: string; joined: number; waiting: number }[]) : r.fill;
      const seats = seatPools(audience.seatPlan, Number(r.max_participants)).map((p) => {
        const f = fill.find((x) => x.side === p.key);
        return { key: p.key, seats: p.seats, joined: Number(f?.joined ?? 0), waiting: Number(f?.waiting ?? 0) };
      });
      const mySide = (r.my_side as SeatKey | null) ?? null;
      const mine = mySide ? [mySide] : fittingPools(audience.seatPlan, viewer);
      const seatsForMe = seats.filter((p) => mine.includes(p.key)).reduce((n, p) => n + Math.max(0, p.seats - p.joined), 0);
      return [r.id, { audience, seats, mySide, seatsForMe }];
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
    };
  });
}
