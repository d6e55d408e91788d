import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The one place that decides whether member `viewer` may see or reach member `other`
 * (issue 12). Every route, socket room and fan-out builds on these SQL fragments, so a block
 * or a suspension holds everywhere at once. Arguments are a member id or a SQL column.
 */
type Who = SQL | string;

/** SQL: true when the two members blocked each other either way (blocks hold both ways). */
export const blockedBetween = (a: Who, b: Who) =>
  sql`exists (select 1 from blocks bl where (bl.blocker_id = ${a} and bl.blocked_id = ${b}) or (bl.blocker_id = ${b} and bl.blocked_id = ${a}))`;

/**
 * SQL: true when `other` is hidden from `viewer`: a block either way, or `other` is
 * suspended. A hidden member's lines, photo, city and events do not reach the viewer.
 */
export const hiddenFrom = (viewer: Who, other: Who) =>
  sql`(${blockedBetween(viewer, other)} or exists (select 1 from "user" hu where hu.id = ${other} and hu.banned is true))`;

/**
 * SQL: the ids of every member hidden from `viewer` (the set form of `hiddenFrom`), for a
 * statement that filters many members at once.
 */
export const hiddenSetOf = (viewer: Who) => sql`select bl.blocked_id as uid from blocks bl where bl.blocker_id = ${viewer}
      union select bl.blocker_id from blocks bl where bl.blocked_id = ${viewer}
      union select hu.id from "user" hu where hu.banned is true`;

/**
 * The membership state that makes a member "in" a mixer (spec §3: 'joined' counts as
 * participant). Waiting never counts; leaving — before the start or during it — ends it.
 */
export const IN_MIXER_STATE = 'joined';

/**
 * SQL: true when mixer row `m` has started: live, ended, or scheduled with its start time
 * passed (the lifecycle job may not have run yet). A cancelled mixer never started for anyone.
 */
const started = (m: string) => sql.raw(`(${m}.status in ('live', 'ended') or (${m}.status = 'scheduled' and ${m}.starts_at <= now()))`);

/**
 * SQL: true when members `a` and `b` shared a mixer — mixer `mixer`, or any mixer when it is
 * omitted (decision 024): both hold a joined seat in it now, it has started (issue 32: before
 * the start, a seat unlocks no profile), and neither is hidden from the other (a block either
 * way or a suspension always wins). The one definition that profile cards, participant lists,
 * fancies and the post-mixer prompt all use.
 */
export const sharedMixer = (a: Who, b: Who, mixer?: Who) => sql`(not ${hiddenFrom(a, b)} and exists (
    select 1 from mixer_memberships sa join mixer_memberships sb on sb.mixer_id = sa.mixer_id join mixers sm on sm.id = sa.mixer_id
     where sa.user_id = ${a} and sa.state = ${IN_MIXER_STATE} and sb.user_id = ${b} and sb.state = ${IN_MIXER_STATE}
       and ${started('sm')}
       ${mixer === undefined ? sql`` : sql`and sa.mixer_id = ${mixer}`}))`;

/**
 * SQL: true when `a` and `b` both hold a joined seat in mixer `mixer`, started or not, and neither
 * is hidden from the other. Before the start this shows co-participants to each other as first
 * name, photo and shared interests only (issue 32); the rest of the card waits for `sharedMixer`.
 */
export const seatedTogether = (a: Who, b: Who, mixer: Who) => sql`(not ${hiddenFrom(a, b)} and exists (
    select 1 from mixer_memberships sa join mixer_memberships sb on sb.mixer_id = sa.mixer_id
     where sa.mixer_id = ${mixer} and sa.user_id = ${a} and sa.state = ${IN_MIXER_STATE} and sb.user_id = ${b} and sb.state = ${IN_MIXER_STATE}))`;

/**
 * SQL: true when `viewer` may see `target`'s profile details (name, age, city, photos) in a
 * card or a participant list: not hidden, and either the member shows their profile to
 * 'all' members, or the two shared a mixer (`sharedMixer`), or they are matched
 * ("Who can see my profile", default 'shared_mixer'). Oneself always.
 */
export const profileVisibleTo = (viewer: Who, target: Who) => sql`(${target} = ${viewer} or (not ${hiddenFrom(viewer, target)} and (
    coalesce((select pv.preferences ->> 'profileVisibility' from profiles pv where pv.id = ${target}), 'shared_mixer') = 'all'
    or ${sharedMixer(viewer, target)}
    or exists (select 1 from matches mt where mt.status = 'matched'
                and ((mt.profile1_id = ${viewer} and mt.profile2_id = ${target}) or (mt.profile1_id = ${target} and mt.profile2_id = ${viewer}))))))`;

/**
 * SQL: true when `viewer` may open `target`'s profile card (GET /api/members/:id answers it):
 * the viewer finished onboarding, the target is a member who did too, is not suspended, and
 * `profileVisibleTo` allows it. Participant lists send it along so that only what opens looks
 * openable.
 */
export const cardOpenableBy = (viewer: Who, target: Who) => sql`(${onboarded(viewer)} and ${onboarded(target)}
    and exists (select 1 from "user" cu where cu.id = ${target} and cu.banned is not true)
    and ${profileVisibleTo(viewer, target)})`;

/** SQL: true when `viewer` finished onboarding (only they see other members' details). */
export const onboarded = (viewer: Who) => sql`coalesce((select po.onboarding_completed from profiles po where po.id = ${viewer}), false)`;

/**
 * SQL: true while `member` is muted in mixers by a moderator (issue 30): they can read, but not
 * write, join, be invited or be formed into a mixer.
 */
export const mutedInMixers = (member: Who) => sql`exists (select 1 from moderation_actions mu
    where mu.member_id = ${member} and mu.action = 'mute' and mu.reversed_at is null and mu.ends_at > now())`;

/** Until when a member is muted in mixers (ISO), or null. */
export async function mixerMuteUntil(db: Pick<Db, 'execute'>, member: string): Promise<string | null> {
  const result = (await db.execute(
    sql`select to_char(max(ends_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as until from moderation_actions
         where member_id = ${member} and action = 'mute' and reversed_at is null and ends_at > now()`,
  )) as unknown as { rows: { until: string | null }[] };
  return result.rows[0]?.until ?? null;
}

/** Whether `other` is hidden from `viewer` (see `hiddenFrom`). */
export async function isHiddenFrom(db: Pick<Db, 'execute'>, viewer: string, other: string): Promise<boolean> {
  const result = (await db.execute(sql`select ${hiddenFrom(viewer, other)} as hidden`)) as unknown as { rows: { hidden: boolean }[] };
  return Boolean(result.rows[0]?.hidden);
}
