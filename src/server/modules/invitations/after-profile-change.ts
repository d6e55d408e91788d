import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fittingPools, SIDE_LABELS, type SeatKey, type SeatPlan, type Side } from '../../../shared/audience';
import { IDENTITY_MESSAGES } from '../../../shared/schemas/profile';
import { parseJson, query } from '../../lib/sql';
import { forgetForYou, leaveMixer, loadViewer } from '../mixers/service';
import { declineNoLongerFitting } from './service';

/**
 * After a profile change that may move a member to other seat-plan sides (issue 32): every
 * place they hold in a mixer that has not started — a seat or a waitlist place — and every
 * pending invitation whose side no longer fits them is given up (the seat goes to the first
 * member waiting on that side, as on any leave or decline), and the member gets an in-app
 * notice saying why. Live and ended mixers are history and stay as they are. Nobody else is
 * told anything beyond the usual seat change. Beside the invitations service (which it uses,
 * with the mixers service) and imported only by invitations' routes (decision 027).
 */
export async function releaseSeatsThatNoLongerFit(
  app: FastifyInstance,
  userId: string,
  now = new Date(),
): Promise<{ left: string[]; declined: string[] }> {
  const { db } = app.deps.database;
  const publish = (room: string, event: Parameters<typeof app.realtime.publish>[1]) => app.realtime.publish(room, event);
  const at = now.toISOString();
  const places = await query<{
    kind: 'seat' | 'invitation';
    id: string;
    mixer_id: string;
    title: string;
    side: string;
    plan: SeatPlan | string;
  }>(
    db,
    sql`select 'seat' as kind, c.id, m.id as mixer_id, m.title, c.side, m.seat_plan as plan
          from mixer_memberships c join mixers m on m.id = c.mixer_id
         where c.user_id = ${userId} and c.state in ('joined', 'waitlisted')
           and m.status = 'scheduled' and m.starts_at > ${at}::timestamptz and m.seat_plan <> '[]'::jsonb
        union all
        select 'invitation', i.id, m.id, m.title, i.side, m.seat_plan
          from mixer_invitations i join mixers m on m.id = i.mixer_id
         where i.user_id = ${userId} and i.status = 'pending' and i.expires_at > ${at}::timestamptz
           and m.status = 'scheduled' and m.starts_at > ${at}::timestamptz and m.seat_plan <> '[]'::jsonb`,
  );
  const left: string[] = [];
  const declined: string[] = [];
  if (!places.length) return { left, declined };
  const viewer = await loadViewer(db, userId, now);
  forgetForYou(userId);
  for (const p of places) {
    const plan = parseJson<SeatPlan>(p.plan, []);
    if (fittingPools(plan, viewer).includes(p.side as SeatKey)) continue;
    const side = SIDE_LABELS[p.side as Side] ?? p.side;
    if (p.kind === 'seat') {
      await leaveMixer(app.deps, publish, userId, p.mixer_id, now);
      await app.realtime.removeFromRoom(userId, `mixer:${p.mixer_id}`);
      left.push(p.mixer_id);
      await publish(`user:${userId}`, {
        type: 'notice',
        title: IDENTITY_MESSAGES.seatLeftTitle,
        description: IDENTITY_MESSAGES.seatLeft(p.title, side),
      });
      await publish(`user:${userId}`, { type: 'mixer.updated', mixerId: p.mixer_id });
    } else if (await declineNoLongerFitting(app.deps, publish, userId, p.id, now)) {
      declined.push(p.id);
      await publish(`user:${userId}`, {
        type: 'notice',
        title: IDENTITY_MESSAGES.invitationDeclinedTitle,
        description: IDENTITY_MESSAGES.invitationDeclined(p.title, side),
      });
      await publish(`user:${userId}`, { type: 'mixer.updated', mixerId: p.mixer_id });
    }
  }
  return { left, declined };
}
