import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { BlockedMember } from '../../../shared/schemas/safety';
import { type Queryable, query } from '../../lib/sql';
import { firstNameOf } from '../../lib/members';
import { blockedBetween } from './visibility';

/**
 * What other modules use of safety (DESIGN §3, decision 027): the visibility rules every list,
 * room and fan-out applies. Blocking itself (`./block`) ends matches and clears fancies, so it
 * lives beside this file: those modules import these rules, and this file imports none of them.
 */
export {
  blockedBetween,
  cardOpenableBy,
  hiddenFrom,
  hiddenSetOf,
  IN_MIXER_STATE,
  isHiddenFrom,
  mixerMuteUntil,
  mutedInMixers,
  onboarded,
  profileVisibleTo,
  seatedTogether,
  sharedMixer,
} from './visibility';

/** Lifts your block. An ended match stays ended; they can meet in a mixer again. */
export async function unblock(app: FastifyInstance, me: string, targetId: string): Promise<{ blocked: false }> {
  await app.deps.database.db.execute(sql`delete from blocks where blocker_id = ${me} and blocked_id = ${targetId}`);
  return { blocked: false };
}

/** The members you blocked, newest first (for Settings). */
export async function listBlocked(app: FastifyInstance, me: string): Promise<BlockedMember[]> {
  const found = await query<{ id: string; name: string | null; created_at: Date | string }>(
    app.deps.database.db,
    sql`select u.id, coalesce(nullif(trim(p.full_name), ''), u.name) as name, b.created_at
      from blocks b join "user" u on u.id = b.blocked_id left join profiles p on p.id = u.id
      where b.blocker_id = ${me} order by b.created_at desc limit 500`,
  );
  return found.map((r) => ({
    id: r.id,
    firstName: firstNameOf(r.name),
    // A block holds both ways: the blocker gets no new picture of the blocked member either.
    avatarUrl: null,
    blockedAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * Everyone hidden from a member: whom they blocked and who blocked them. For the mixers module
 * (participants, chat) and anything else that lists members.
 */
export async function blockedIdsFor(db: Queryable, userId: string): Promise<Set<string>> {
  const found = await query<{ id: string }>(
    db,
    sql`select blocked_id as id from blocks where blocker_id = ${userId}
      union select blocker_id as id from blocks where blocked_id = ${userId}`,
  );
  return new Set(found.map((r) => r.id));
}

/** Whether either of two members blocked the other. */
export async function isBlockedBetween(db: Queryable, a: string, b: string): Promise<boolean> {
  const [row] = await query<{ blocked: boolean }>(db, sql`select ${blockedBetween(a, b)} as blocked`);
  return Boolean(row?.blocked);
}

export { reportLine, reportMember } from './report';
export { conversationVisibleTo, conversationWritableBy, otherOf } from './conversation-access';
