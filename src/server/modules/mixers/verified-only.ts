import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { onProfileWrite } from '../../http/profile-writes';
import { onBadgeLost } from '../../lib/badge-lost';
import { query } from '../../lib/sql';
import { isVerifiedSql } from '../verification/service';
import { leaveMixer } from './service';

/**
 * A verified-only room is a promise to its other members (decision 022): after any write to a
 * member's profile (the verification module's reaction has re-checked a changed main photo by
 * then), a member who is no longer verified leaves the upcoming and live verified-only mixers
 * they hold a seat or waitlist place in — quietly, the seat freed for the next verified member
 * waiting, their sockets out of the room. Never fails the write.
 */
export function leaveVerifiedOnlyWhenBadgeGoes(app: FastifyInstance) {
  // …and after a badge lost without a write (the background re-check of earlier badges).
  onBadgeLost(app, async (userId) => {
    try {
      await leaveVerifiedOnlyMixers(app, userId);
    } catch (err) {
      app.log.warn({ err }, 'could not take a member without the badge out of verified-only mixers');
    }
  });
  onProfileWrite(app, {
    stage: 'settle',
    async run(req, userId) {
      try {
        await leaveVerifiedOnlyMixers(app, userId);
      } catch (err) {
        req.log.warn({ err }, 'could not take a member without the badge out of verified-only mixers');
      }
    },
  });
}

async function leaveVerifiedOnlyMixers(app: FastifyInstance, userId: string): Promise<void> {
  const rows = await query<{ id: string }>(
    app.deps.database.db,
    sql`select m.id from mixers m join mixer_memberships c on c.mixer_id = m.id
         where c.user_id = ${userId} and c.state in ('joined', 'waitlisted') and m.verified_only and m.status in ('scheduled', 'live')
           and not ${isVerifiedSql(sql`${userId}`)}`,
  );
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  for (const { id } of rows) {
    await leaveMixer(app.deps, publish, userId, id, new Date(), { noLateLeaveRecord: true });
    await app.realtime.removeFromRoom(userId, `mixer:${id}`);
  }
}
