import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { query } from '../../lib/sql';
import { leaveMixer } from '../mixers/service';
import { type MainPhotoOutcome, reconcileMainPhoto } from './service';

/**
 * After any write to a member's profile: re-checks a changed main photo (`reconcileMainPhoto`) and, when the
 * badge goes, takes the member out of the verified-only mixers they hold a place in (seat freed
 * for the next verified member waiting, sockets out of the room) — a verified-only room is a
 * promise to its other members (decision 022). Never fails the request that changed the photo.
 */
export async function afterProfileWrite(app: FastifyInstance, userId: string): Promise<MainPhotoOutcome | 'error'> {
  try {
    const outcome = await reconcileMainPhoto(app.deps, app.faces, userId);
    if (outcome === 'removed') await leaveVerifiedOnlyMixers(app, userId);
    return outcome;
  } catch (err) {
    app.log.warn({ err }, 'could not re-check the main photo against the verification');
    return 'error';
  }
}

/** Upcoming and live verified-only mixers the member holds a seat or waitlist place in: left, quietly. */
export async function leaveVerifiedOnlyMixers(app: FastifyInstance, userId: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    app.deps.database.db,
    sql`select m.id from mixers m join mixer_memberships c on c.mixer_id = m.id
         where c.user_id = ${userId} and c.state in ('joined', 'waitlisted') and m.verified_only and m.status in ('scheduled', 'live')`,
  );
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  for (const { id } of rows) {
    await leaveMixer(app.deps, publish, userId, id, new Date(), { noLateLeaveRecord: true });
    await app.realtime.removeFromRoom(userId, `mixer:${id}`);
  }
  return rows.map((r) => r.id);
}
