import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { FANCY_MESSAGES } from '../../../shared/schemas/matches';
import { SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { AppError } from '../../http/errors';
import { clearFancies } from '../fancies/service';
import { endMatch, orderedPair, rows } from '../matches/service';

/**
 * Blocks hide each member from the other everywhere (the rules live in safety/visibility); here the
 * pair's fancies go, any match ends as `blocked` (read-only, hidden from both lists) and both
 * leave its conversation room. Idempotent.
 */
export async function block(app: FastifyInstance, me: string, targetId: string): Promise<{ blocked: true }> {
  if (targetId === me) throw new AppError('bad_request', SAFETY_MESSAGES.blockSelf);
  const db = app.deps.database.db;
  const inserted = await rows<{ ok: number }>(
    db,
    sql`insert into blocks (blocker_id, blocked_id) select ${me}, id from "user" where id = ${targetId}
      on conflict (blocker_id, blocked_id) do nothing returning 1 as ok`,
  );
  if (!inserted.length) {
    const exists = await rows<{ ok: number }>(db, sql`select 1 as ok from "user" where id = ${targetId}`);
    if (!exists.length) throw new AppError('not_found', FANCY_MESSAGES.unknownMember);
  }
  await clearFancies(app, me, targetId);
  await endMatch(app, { pair: [me, targetId] }, 'blocked', me);
  // Sockets already listening to the conversation stop hearing it (new subscriptions are refused).
  const [p1, p2] = orderedPair(me, targetId);
  const [match] = await rows<{ id: string }>(db, sql`select id from matches where profile1_id = ${p1} and profile2_id = ${p2}`);
  if (match) await Promise.all([me, targetId].map((id) => app.realtime.removeFromRoom(id, `conversation:${match.id}`)));
  // Typing and presence in shared mixer rooms stop crossing the block at once (issue 29).
  await app.realtime.visibilityChanged([me, targetId]);
  return { blocked: true };
}
