import { sql } from 'drizzle-orm';
import { fittingPools, seatPools } from '../../../shared/audience';
import { type MixerListQuery, type MixerPage, UPCOMING_DAYS } from '../../../shared/schemas/mixers';
import type { AppDeps } from '../../deps';
import { readRows } from '../../db/prepared';
import { heldMixersSql, sameTime } from './holds';
import { type AudienceRow, audienceNotice, audienceOf, eligibleSql, loadViewer, type Viewer } from './eligibility';
import { searchFilters } from './filters';
import { keepRanking, keptRanking, type Ranked } from './foryou-cache';
import { rankMixer } from './ranking';
import { mixerSummaries } from './service';
import { seatHoldsSql } from './seats';
import { decodeCursor, encodeCursor, epochMs, parseJson } from '../../lib/sql';
import { isUuid } from '../../http/cursor';
import { hiddenSetOf } from '../safety/service';

type Deps = Pick<AppDeps, 'config' | 'database' | 'mailer' | 'signer'>;

interface FeatureRow extends AudienceRow {
  id: string;
  status: string;
  starts_ms: number;
  max_participants: number;
  shared: number | string;
  topic_match: boolean;
  intent_match: boolean;
  fill: Record<string, number> | string | null;
}

type ForYouCursor = [number, number, string];
const isCursor = (v: unknown[]): v is ForYouCursor =>
  v.length === 3 && Number.isFinite(v[0]) && Number.isFinite(v[1]) && typeof v[2] === 'string' && isUuid(v[2]);

/**
 * "For you": live and upcoming mixers I am eligible for and not in yet, ranked by
 * `rankMixer`, with its reasons on each card. The ranking features of every candidate come
 * from one statement, the page's cards from one more: no query per mixer.
 */
export async function listForYou(deps: Deps, userId: string, query: MixerListQuery, now = new Date()): Promise<MixerPage> {
  const cursor = decodeCursor(query.cursor, isCursor);
  const viewer = await loadViewer(deps.database, userId, now);
  const key = `${userId}|${viewer.onlyVerified ? 'verified' : ''}|${query.intent ?? ''}|${query.topic ?? ''}|${query.q ?? ''}`;
  let ranked = keptRanking(key, now);
  if (!ranked) {
    ranked = await rankCandidates(deps, viewer, query, now);
    keepRanking(key, now, ranked);
  }

  const after = cursor
    ? ranked.filter(
        (r) =>
          r.score < cursor[0] ||
          (r.score === cursor[0] && (r.startsAtMs > cursor[1] || (r.startsAtMs === cursor[1] && r.id.localeCompare(cursor[2]) > 0))),
      )
    : ranked;
  const page = after.slice(0, query.limit);
  const more = after.length > query.limit;
  const reasons = new Map(page.map((r) => [r.id, r.reasons]));
  const items = await mixerSummaries(
    deps,
    userId,
    page.map((r) => r.id),
  );
  const last = page.at(-1);
  return {
    items: items.map((i) => ({ ...i, reasons: reasons.get(i.id) ?? [] })),
    nextCursor: more && last ? encodeCursor([last.score, last.startsAtMs, last.id]) : null,
    notice: audienceNotice(viewer),
  };
}

/** Every candidate for the viewer, scored and in page order. */
async function rankCandidates(deps: Deps, viewer: Viewer, query: MixerListQuery, now: Date): Promise<Ranked[]> {
  const userId = viewer.userId;
  const nowIso = now.toISOString();
  const filters = [
    eligibleSql(viewer),
    sql`m.ends_at > ${nowIso}::timestamptz`,
    sql`(m.status = 'live' or (m.status = 'scheduled' and m.starts_at < ${nowIso}::timestamptz + make_interval(days => ${UPCOMING_DAYS})))`,
    sql`not exists (select 1 from mixer_memberships x where x.mixer_id = m.id and x.user_id = ${userId} and x.state in ('joined', 'waitlisted'))`,
    // Not one a Join would refuse for overlapping a mixer I hold (its page says so, see `clashSql`).
    sql`not exists (select 1 from held where held.id <> m.id and ${sameTime('held', 'm')})`,
    ...searchFilters(query),
    // Settings → "only with verified members": nobody without the badge in it.
    ...(viewer.onlyVerified
      ? [
          sql`not exists (select 1 from mixer_memberships ov where ov.mixer_id = m.id and ov.state = 'joined'
                and not exists (select 1 from member_verifications mv where mv.user_id = ov.user_id and mv.status = 'verified'))`,
        ]
      : []),
  ];
  // Candidates first (the index on status and start), then the interests of the people in
  // them and the seats taken per side, each aggregated once for all candidates (hash joins).
  const rows = await readRows<FeatureRow>(
    deps.database,
    sql`
    with me as materialized (
      select coalesce((select array(select lower(i) from unnest(p.interests) i) from profiles p where p.id = ${userId}), '{}'::text[]) as interests,
             coalesce((select p.looking_for from profiles p where p.id = ${userId}), '{}'::text[]) as looking_for
    ),
    hidden as materialized (${hiddenSetOf(userId)}),
    held as materialized (${heldMixersSql(userId, now)}),
    cand as materialized (
      select m.id, m.status, ${epochMs(sql`m.starts_at`)} as starts_ms, m.max_participants, m.topic, m.tags, m.intent,
             m.audience_region, m.age_min, m.age_max, m.seat_plan
        from mixers m
       where ${sql.join(filters, sql` and `)}
    ),
    seated as materialized (
      select c.mixer_id, c.user_id, c.side from mixer_memberships c join cand on cand.id = c.mixer_id where c.state = 'joined'
    ),
    people as (
      select s.mixer_id, array_agg(distinct lower(i)) as interests
        from seated s join profiles p on p.id = s.user_id cross join me cross join lateral unnest(p.interests) i
       where lower(i) = any(me.interests) and s.user_id not in (select uid from hidden)
       group by s.mixer_id
    ),
    fill as (
      select f.mixer_id, json_object_agg(f.side, f.n) as fill
        from (select x.mixer_id, x.side, count(*) as n
                from (select mixer_id, side from seated
                      union all
                      select h.mixer_id, h.side from (${seatHoldsSql(sql`${nowIso}::timestamptz`, userId)}) h join cand on cand.id = h.mixer_id) x
               group by x.mixer_id, x.side) f
       group by f.mixer_id
    )
    select cand.id, cand.status, cand.starts_ms, cand.max_participants,
           cand.audience_region, cand.age_min, cand.age_max, cand.seat_plan,
      (select count(distinct x) from (
          select unnest(coalesce(people.interests, '{}'::text[])) as x
          union all select lower(t) from unnest(cand.tags) t
          union all select lower(cand.topic)) s
        where s.x = any(me.interests)) as shared,
      (lower(cand.topic) = any(me.interests) or exists (select 1 from unnest(cand.tags) t where lower(t) = any(me.interests))) as topic_match,
      (cand.intent = any(me.looking_for)) as intent_match,
      fill.fill
    from cand cross join me
      left join people on people.mixer_id = cand.id
      left join fill on fill.mixer_id = cand.id`,
  );

  const nowMs = now.getTime();
  return rows
    .map((r) => {
      const audience = audienceOf(r);
      const fill = parseJson(r.fill, {});
      const fitting = fittingPools(audience.seatPlan, viewer);
      const seatsForMe = seatPools(audience.seatPlan, Number(r.max_participants))
        .filter((p) => fitting.includes(p.key))
        .reduce((n, p) => n + Math.max(0, p.seats - Number(fill[p.key] ?? 0)), 0);
      const startsAtMs = Number(r.starts_ms);
      const { score, reasons } = rankMixer(
        {
          sharedInterests: Number(r.shared),
          topicMatch: Boolean(r.topic_match),
          intentMatch: Boolean(r.intent_match),
          near: viewer.region !== null && audience.region === viewer.region,
          live: r.status === 'live',
          startsAtMs,
          seatsForMe,
        },
        nowMs,
      );
      return { id: r.id, score, startsAtMs, reasons };
    })
    .sort((a, b) => b.score - a.score || a.startsAtMs - b.startsAtMs || a.id.localeCompare(b.id));
}
