import { type SQL, sql } from 'drizzle-orm';
import { isVerifiedSql } from '../verification/service';
import {
  CARD_AVATARS,
  type JoinResult,
  MIXER_MESSAGES,
  type MixerClash,
  type MixerDetail,
  type MixerListQuery,
  type MixerPage,
  type MixerParticipant,
  type MixerSummary,
  type TopicFacets,
  UPCOMING_DAYS,
} from '../../../shared/schemas/mixers';
import { LATE_LEAVE_MS } from '../../../shared/reliability';
import type { AppDeps, Publish } from '../../deps';
import type { Db } from '../../db/client';
import { readRows } from '../../db/prepared';
import { AppError } from '../../http/errors';
import { isCursorInteger, isUuid } from '../../http/cursor';
import { cardOpenableBy, mixerMuteUntil, onboarded, profileVisibleTo, seatedTogether } from '../safety/service';
import { MODERATION_MESSAGES, muteDate } from '../../../shared/schemas/moderation';
import { withAudience } from './audience';
import { audienceNotice, eligibleSql, ensureEligible, loadViewer } from './eligibility';
import { searchFilters } from './filters';
import { clashSql, overCapSql } from './holds';
import { tellPromoted } from './promotion';
import { promoteOnSide, takeSeat, waitlistKey } from './seats';
import { ageFromDob, firstNameOf } from '../../lib/members';
import { decodeCursor, encodeCursor, epochMs, isoFromMs, parseJson, rowsOf } from '../../lib/sql';

/** What other modules use of mixers' seats, audiences and "For you" (DESIGN §3, decision 027). */
export { audienceOf, ensureEligible, loadViewer } from './eligibility';
/** The host's nudge sends a member's suggested reply as their own line (issue 29). */
export { postMessage, refuseMuted } from './chat';
export { forgetForYou } from './foryou-cache';
export { tellPromoted } from './promotion';
export { unreadCounts } from './chat-live';
export { joinedPerSide, type Promoted, promoteOnSide, seatFillSql, seatWaitlisted, takeSeat } from './seats';

type Deps = Pick<AppDeps, 'config' | 'database' | 'mailer' | 'signer'>;
type BaseSummary = Omit<MixerSummary, 'audience' | 'seats' | 'mySide' | 'seatsForMe' | 'myInvitation'>;

interface SummaryRow {
  id: string;
  title: string;
  topic: string;
  description: string;
  theme: string;
  tags: string[];
  intent: string;
  status: string;
  starts_ms: number;
  ends_ms: number;
  max_participants: number;
  participant_count: number | string;
  waitlist_count: number | string;
  my_state: 'joined' | 'waitlisted' | null;
  shared_tags: string[];
  intent_match: boolean;
  verified_only?: boolean | null;
  preview: { id: string; name: string | null; avatar: string | null }[] | string | null;
}

function toSummary(row: SummaryRow, signer: Deps['signer']): BaseSummary {
  return {
    id: row.id,
    title: row.title,
    topic: row.topic,
    description: row.description,
    theme: row.theme as MixerSummary['theme'],
    tags: row.tags ?? [],
    intent: row.intent as MixerSummary['intent'],
    status: row.status as MixerSummary['status'],
    startsAt: isoFromMs(row.starts_ms),
    endsAt: isoFromMs(row.ends_ms),
    maxParticipants: Number(row.max_participants),
    participantCount: Number(row.participant_count),
    waitlistCount: Number(row.waitlist_count),
    myState: row.my_state ?? null,
    sharedTags: row.shared_tags ?? [],
    intentMatch: Boolean(row.intent_match),
    verifiedOnly: Boolean(row.verified_only),
    preview: parseJson(row.preview, []).map((p) => ({
      id: p.id,
      firstName: firstNameOf(p.name),
      avatarUrl: p.avatar ? signer.url(p.avatar) : null,
    })),
  };
}

/**
 * SQL: membership `c` is someone whose face and first name `userId` may see in mixer lists
 * (safety/visibility): nobody until the viewer's profile is complete; then not blocked either
 * way, not suspended, and either allowed by their "Who can see my profile" or seated with the
 * viewer in this mixer (before the start that shows first name, photo and shared interests
 * only: `fullProfile` decides the rest, issue 32).
 */
function visibleMember(userId: string, full: SQL = fullProfile(userId)) {
  return sql`(${onboarded(userId)} and (${full} or ${seatedTogether(userId, sql`c.user_id`, sql`c.mixer_id`)}))`;
}

/** SQL: `userId` may see membership `c`'s age and city too — what their profile card would show. */
function fullProfile(userId: string) {
  return profileVisibleTo(userId, sql`c.user_id`);
}

/** For the mixer aliased `m`: seat counts and my membership (`mc.*`) in one pass over its memberships. */
function membershipJoin(userId: string) {
  return sql`cross join lateral (
      select count(*) filter (where c.state = 'joined')::int as participant_count,
             count(*) filter (where c.state = 'waitlisted')::int as waitlist_count,
             min(c.state) filter (where c.user_id = ${userId} and c.state <> 'left') as my_state
        from mixer_memberships c where c.mixer_id = m.id) mc`;
}

/**
 * The columns every mixer view needs, for the mixer aliased `m`, seen by `userId`: seat
 * counts and my membership (needs `membershipJoin`), shared interests, intent match and a few
 * (`visibleMember`) faces. The faces are picked first, then named.
 */
function summaryColumns(userId: string) {
  return sql`
    m.id, m.title, m.topic, m.description, m.theme, m.tags, m.intent, m.status, m.verified_only,
    ${epochMs(sql`m.starts_at`)} as starts_ms, ${epochMs(sql`m.ends_at`)} as ends_ms, m.max_participants,
    mc.participant_count, mc.waitlist_count, mc.my_state,
    (select coalesce(json_agg(json_build_object('id', v.user_id, 'name', coalesce(p.full_name, u.name), 'avatar', p.avatar_url)
                              order by v.me desc, v.joined_at, v.user_id), '[]'::json)
       from (select c.user_id, c.joined_at, (c.user_id = ${userId}) as me
               from mixer_memberships c
              where c.mixer_id = m.id and c.state = 'joined' and ${visibleMember(userId)}
              order by (c.user_id = ${userId}) desc, c.joined_at, c.user_id
              limit ${CARD_AVATARS}) v
       join "user" u on u.id = v.user_id left join profiles p on p.id = v.user_id) as preview`;
}

/** Shared tags and intent match against the viewer's profile (the "for you" ordering). */
function relevanceColumns(userId: string) {
  return sql`
    array(select t from unnest(m.tags) t
           where lower(t) in (select lower(i) from unnest(coalesce((select interests from profiles where id = ${userId}), '{}'::text[])) i)) as shared_tags,
    coalesce(m.intent = any(coalesce((select looking_for from profiles where id = ${userId}), '{}'::text[])), false) as intent_match`;
}

const micros = (col: string) => sql.raw(`(extract(epoch from ${col}) * 1000000)::bigint`);

type ListCursor = [number, number, string];
const isListCursor = (v: unknown[]): v is ListCursor =>
  v.length === 3 && typeof v[0] === 'number' && isCursorInteger(v[0]) && typeof v[1] === 'number' && isCursorInteger(v[1]) && isUuid(v[2]);

/**
 * Live now, upcoming (next 7 days) or "your mixers", filtered, keyset-paginated, in one round
 * trip. Live and upcoming put mixers that match my interests and looking-for first.
 */
export async function listMixers(deps: Deps, userId: string, query: MixerListQuery, now = new Date()): Promise<MixerPage> {
  const nowIso = now.toISOString();
  const cursor = decodeCursor(query.cursor, isListCursor);
  const viewer = await loadViewer(deps.database, userId, now);

  const filters = [eligibleSql(viewer)];
  if (query.section === 'live') filters.push(sql`m.status = 'live'`);
  if (query.section === 'upcoming') {
    filters.push(sql`m.status = 'scheduled' and m.starts_at < ${nowIso}::timestamptz + make_interval(days => ${UPCOMING_DAYS})`);
  }
  if (query.section === 'mine') {
    filters.push(
      sql`exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state in ('joined', 'waitlisted'))`,
    );
    if (query.active) filters.push(sql`m.status in ('live', 'scheduled')`);
  }
  filters.push(...searchFilters(query));

  // Sort key (a, b, id), ascending. Live: best match, then most recently started.
  // Upcoming: best match, then soonest. Mine: live, upcoming (soonest), then past (latest first).
  const score = sql`-(2 * cardinality(shared_tags) + intent_match::int)`;
  let sortA = score;
  let sortB = sql`-${micros('starts_at')}`;
  if (query.section === 'upcoming') sortB = micros('starts_at');
  if (query.section === 'mine') {
    sortA = sql`(case status when 'live' then 0 when 'scheduled' then 1 else 2 end)`;
    sortB = sql`(case when status in ('live', 'scheduled') then ${micros('starts_at')} else -${micros('starts_at')} end)`;
  }
  const after = cursor
    ? sql`(k.sort_a > ${cursor[0]} or (k.sort_a = ${cursor[0]} and (k.sort_b > ${cursor[1]}::bigint or (k.sort_b = ${cursor[1]}::bigint and k.id > ${cursor[2]}::uuid))))`
    : sql`true`;

  const rows = await readRows<SummaryRow & { sort_a: number | string; sort_b: number | string }>(
    deps.database,
    sql`
    with base as (
      select m.id, m.status, m.starts_at, ${relevanceColumns(userId)}
        from mixers m
       where ${sql.join(filters, sql` and `)}
    ),
    keyed as (
      select id, shared_tags, intent_match, (${sortA})::bigint as sort_a, (${sortB})::bigint as sort_b from base
    ),
    page as (
      select * from keyed k where ${after} order by k.sort_a, k.sort_b, k.id limit ${query.limit + 1}
    )
    select ${summaryColumns(userId)}, page.shared_tags, page.intent_match, page.sort_a, page.sort_b
      from page join mixers m on m.id = page.id
      ${membershipJoin(userId)}
     order by page.sort_a, page.sort_b, page.id`,
  );
  const more = rows.length > query.limit;
  const pageRows = more ? rows.slice(0, query.limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: await withAudience(
      deps.database,
      userId,
      pageRows.map((r) => toSummary(r, deps.signer)),
      viewer,
    ),
    nextCursor: more && last ? encodeCursor([Number(last.sort_a), Number(last.sort_b), last.id]) : null,
    notice: audienceNotice(viewer),
  };
}

interface DetailRow extends SummaryRow {
  participants:
    | {
        id: string;
        name: string | null;
        avatar: string | null;
        dob: string | null;
        city: string | null;
        verified: boolean | null;
        can_open: boolean | null;
        shared: string[] | null;
      }[]
    | string
    | null;
  waitlist_position: number | string | null;
  can_join: boolean | null;
  clash: ClashRow | string | null;
  over_cap: boolean | null;
}
type ClashRow = { id: string; title: string; starts_at: string; invited: boolean };

/** One mixer with its participants as I may see them (`visibleMember`), in one round trip. */
export async function getMixer(deps: Deps, userId: string, mixerId: string, now = new Date()): Promise<MixerDetail> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const viewer = await loadViewer(deps.database, userId, now);
  await ensureEligible(deps.database.db, viewer, mixerId);
  const [row] = await readRows<DetailRow>(
    deps.database,
    sql`
    select ${summaryColumns(userId)}, ${relevanceColumns(userId)},
      (select coalesce(json_agg(json_build_object('id', v.id, 'name', v.name, 'avatar', v.avatar, 'dob', v.dob, 'city', v.city, 'verified', v.verified,
                                                  'can_open', v.can_open, 'shared', v.shared)
                                order by v.me desc, v.joined_at, v.id), '[]'::json)
         from (select c.user_id as id, coalesce(p.full_name, u.name) as name, p.avatar_url as avatar,
                      case when full_profile then to_char(p.dob, 'YYYY-MM-DD') end as dob,
                      case when full_profile and p.share_city_region then p.city_region end as city,
                      c.joined_at, (c.user_id = ${userId}) as me, ${isVerifiedSql(sql`c.user_id`)} as verified,
                      ${cardOpenableBy(userId, sql`c.user_id`)} as can_open,
                      array(select i from unnest(coalesce(p.interests, '{}'::text[])) i
                             where lower(i) in (select lower(x) from unnest(coalesce((select interests from profiles where id = ${userId}), '{}'::text[])) x)
                             order by i) as shared
                 from mixer_memberships c join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
                      cross join lateral (select ${fullProfile(userId)} as full_profile) fp
                where c.mixer_id = m.id and c.state = 'joined' and ${visibleMember(userId, sql`fp.full_profile`)}) v) as participants,
      (select count(*) from mixer_memberships w, mixer_memberships mine
        where mine.mixer_id = m.id and mine.user_id = ${userId} and mine.state = 'waitlisted'
          and w.mixer_id = m.id and w.state = 'waitlisted' and w.side = mine.side and ${waitlistKey('w')} <= ${waitlistKey('mine')}) as waitlist_position,
      (select onboarding_completed from profiles where id = ${userId}) as can_join,
      ${clashSql(userId, now)} as clash,
      ${overCapSql(userId, now)} as over_cap
    from mixers m
    ${membershipJoin(userId)}
    where m.id = ${mixerId}`,
  );
  if (!row) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [summary] = await withAudience(deps.database, userId, [toSummary(row, deps.signer)], viewer);
  const participants: MixerParticipant[] = parseJson(row.participants, []).map((p) => ({
    id: p.id,
    firstName: firstNameOf(p.name),
    age: ageFromDob(p.dob, now),
    city: p.city ?? null,
    avatarUrl: p.avatar ? deps.signer.url(p.avatar) : null,
    isYou: p.id === userId,
    verified: Boolean(p.verified),
    canOpen: Boolean(p.can_open),
    sharedInterests: p.id === userId ? [] : (p.shared ?? []),
  }));
  return {
    ...summary,
    participants,
    waitlistPosition: row.my_state === 'waitlisted' ? Number(row.waitlist_position) || null : null,
    canJoin: Boolean(row.can_join),
    clash: clashOf(parseJson(row.clash, null)),
    upcomingLimitReached: Boolean(row.over_cap),
  };
}

function clashOf(c: ClashRow | null): MixerClash | null {
  return c ? { id: c.id, title: c.title, startsAt: new Date(c.starts_at).toISOString(), invited: Boolean(c.invited) } : null;
}

/** Topics and tags of live and upcoming mixers I am eligible for, for the list's filter. */
export async function topicFacets(db: Db, userId: string, now = new Date()): Promise<TopicFacets> {
  const eligible = eligibleSql(await loadViewer(db, userId, now));
  const result = await db.execute(sql`
    select distinct on (lower(x)) x as topic from (
      select m.topic as x from mixers m
       where (m.status = 'live' or (m.status = 'scheduled' and m.starts_at < ${now.toISOString()}::timestamptz + make_interval(days => ${UPCOMING_DAYS}))) and ${eligible}
      union all
      select unnest(m.tags) from mixers m
       where (m.status = 'live' or (m.status = 'scheduled' and m.starts_at < ${now.toISOString()}::timestamptz + make_interval(days => ${UPCOMING_DAYS}))) and ${eligible}
    ) t
    order by lower(x)
    limit 200`);
  return { topics: rowsOf<{ topic: string }>(result).map((r) => r.topic) };
}

interface LockedMixer {
  id: string;
  title: string;
  status: string;
  max_participants: number;
  starts_ms: number;
  ends_ms: number;
}

async function lockMixer(tx: Db, mixerId: string): Promise<LockedMixer> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [mixer] = rowsOf<LockedMixer>(
    await tx.execute(sql`
      select id, title, status, max_participants, ${epochMs(sql`starts_at`)} as starts_ms, ${epochMs(sql`ends_at`)} as ends_ms
        from mixers where id = ${mixerId} for update`),
  );
  if (!mixer) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  return mixer;
}

async function waitlistPosition(tx: Db, mixerId: string, userId: string): Promise<number | null> {
  const [row] = rowsOf<{ n: number | string }>(
    await tx.execute(sql`
      select count(*) as n from mixer_memberships w, mixer_memberships mine
       where mine.mixer_id = ${mixerId} and mine.user_id = ${userId} and mine.state = 'waitlisted'
         and w.mixer_id = ${mixerId} and w.state = 'waitlisted' and w.side = mine.side and ${waitlistKey('w')} <= ${waitlistKey('mine')}`),
  );
  return Number(row?.n) || null;
}

/**
 * Joins a mixer, race-safely: the mixer row is locked (SELECT … FOR UPDATE) while the seats
 * are counted, so many members racing for the last seats never overfill it. A full mixer
 * puts me on its waitlist only when I asked for that.
 */
export async function joinMixer(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  opts: { waitlist?: boolean } = {},
  now = new Date(),
): Promise<JoinResult & { changed: boolean }> {
  const { db } = deps.database;
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [profile] = rowsOf<{ done: boolean }>(
    await db.execute(sql`select onboarding_completed as done from profiles where id = ${userId}`),
  );
  if (!profile?.done) throw new AppError('forbidden', MIXER_MESSAGES.profileIncomplete);
  const muted = await mixerMuteUntil(db, userId);
  if (muted) throw new AppError('forbidden', MODERATION_MESSAGES.mutedInMixers(muteDate(muted)));
  const viewer = await loadViewer(db, userId, now);
  await ensureEligible(db, viewer, mixerId);

  const outcome = await db.transaction(async (tx) => {
    const mixer = await lockMixer(tx, mixerId);
    if (mixer.status === 'cancelled') throw new AppError('conflict', MIXER_MESSAGES.cancelled);
    if (mixer.status === 'ended' || Number(mixer.ends_ms) <= now.getTime()) throw new AppError('conflict', MIXER_MESSAGES.ended);
    return takeSeat(tx, mixerId, viewer, opts, now);
  });

  if (outcome.state === 'joined') {
    if (outcome.changed) {
      await publish(`user:${userId}`, { type: 'counter', key: 'mixersJoined', delta: 1 });
      await publish(`mixer:${mixerId}`, { type: 'mixer.updated', mixerId });
    }
    return { state: 'joined', waitlistPosition: null, changed: outcome.changed };
  }
  return { state: 'waitlisted', waitlistPosition: await waitlistPosition(db, mixerId, userId), changed: outcome.changed };
}

/**
 * Leaves a mixer (or its waitlist). When a seat frees up, the first waiting member gets it,
 * in the same transaction, and is told in realtime and by mail.
 */
export async function leaveMixer(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  now = new Date(),
  /** Taken out by a rule (the verified badge went), not by choice: no late-leave mark. */
  opts: { noLateLeaveRecord?: boolean } = {},
): Promise<void> {
  const { db } = deps.database;
  const outcome = await db.transaction(async (tx) => {
    const mixer = await lockMixer(tx, mixerId);
    const [mine] = rowsOf<{ state: string; side: string }>(
      await tx.execute(sql`select state, side from mixer_memberships where mixer_id = ${mixerId} and user_id = ${userId}`),
    );
    if (!mine || mine.state === 'left') return { wasJoined: false, promoted: null, mixer };
    if (mixer.status === 'ended') throw new AppError('conflict', MIXER_MESSAGES.leaveEnded);
    await tx.execute(
      sql`update mixer_memberships set state = 'left', left_at = ${now.toISOString()}::timestamptz where mixer_id = ${mixerId} and user_id = ${userId}`,
    );
    const wasJoined = mine.state === 'joined';
    // Leaving a seat in the last hour before the start is recorded, privately (reliability, issue 14).
    const untilStart = Number(mixer.starts_ms) - now.getTime();
    if (!opts.noLateLeaveRecord && wasJoined && mixer.status === 'scheduled' && untilStart > 0 && untilStart <= LATE_LEAVE_MS) {
      await tx.execute(sql`
        insert into mixer_attendance (mixer_id, user_id, outcome, recorded_at)
        values (${mixerId}, ${userId}, 'left_late', ${now.toISOString()}::timestamptz)
        on conflict (mixer_id, user_id) do update set outcome = excluded.outcome, recorded_at = excluded.recorded_at`);
    }
    let promoted: { user_id: string; email: string; name: string | null } | null = null;
    if (wasJoined && (mixer.status === 'scheduled' || mixer.status === 'live')) {
      promoted = await promoteOnSide(tx, mixerId, mine.side, now);
    }
    return { wasJoined, promoted, mixer };
  });

  if (outcome.wasJoined) await publish(`user:${userId}`, { type: 'counter', key: 'mixersJoined', delta: -1 });
  const promoted = outcome.promoted;
  if (promoted) await tellPromoted(deps, publish, promoted, outcome.mixer);
  if (outcome.wasJoined || promoted) await publish(`mixer:${mixerId}`, { type: 'mixer.updated', mixerId });
}

/**
 * Realtime room guard: only joined members may listen to `mixer:{id}`, and in a verified-only
 * mixer only while they hold the badge (losing it also takes their seat: decision 022).
 */
export async function isJoinedMember(db: Db, userId: string, mixerId: string): Promise<boolean> {
  if (!isUuid(mixerId)) return false;
  const rows = rowsOf(
    await db.execute(sql`select 1 from mixer_memberships c join mixers m on m.id = c.mixer_id
      where c.mixer_id = ${mixerId} and c.user_id = ${userId} and c.state = 'joined'
        and (not m.verified_only or ${isVerifiedSql(sql`${userId}`)}) limit 1`),
  );
  return rows.length > 0;
}

/** Cards for these mixers, in this order (the "For you" page), in one round trip plus their audiences. */
export async function mixerSummaries(deps: Deps, userId: string, ids: string[]): Promise<MixerSummary[]> {
  if (!ids.length) return [];
  const rows = await readRows<SummaryRow>(
    deps.database,
    sql`
    select ${summaryColumns(userId)}, ${relevanceColumns(userId)}
      from mixers m
      ${membershipJoin(userId)}
     where m.id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`,
  );
  const byId = new Map(rows.map((r) => [r.id, toSummary(r, deps.signer)]));
  return withAudience(
    deps.database,
    userId,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}
