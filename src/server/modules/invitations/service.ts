import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fittingPools } from '../../../shared/audience';
import { DEFAULT_TZ } from '../../../shared/constants';
import type { InvitationStatus } from '../../../shared/formation';
import {
  INVITATION_MESSAGES,
  type InvitationAnswer,
  type InvitationList,
  type InvitationView,
  invitationWhy,
  partOfDay,
  RECENT_INVITATIONS_DAYS,
  RECENT_INVITATIONS_MAX,
} from '../../../shared/schemas/invitations';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { MODERATION_MESSAGES, muteDate } from '../../../shared/schemas/moderation';
import { mixerMuteUntil } from '../safety/service';
import type { AppDeps, Publish } from '../../deps';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { recordAudit } from '../../lib/audit';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import {
  ensureEligible,
  leaveMixer,
  loadViewer,
  tellPromoted,
  type Promoted,
  promoteOnSide,
  takeSeat,
  mixerSummaries,
} from '../mixers/service';
import { epochMs, isoFromMs, rowsOf } from '../../lib/sql';
import { isUuid } from '../../http/cursor';

/** Formation announces the invitations it made (DESIGN §3, decision 027). */
export { announceInvitations } from './announce';

/**
 * Invitations to automatically formed mixers (issue 14, docs/decisions/013): the member's list,
 * accept (take the held seat), decline and expiry (release it to the side's waitlist), and the
 * admin cancel hook (withdraw). Every answer is audited with the member as actor; expiry with none.
 */

type Deps = Pick<AppDeps, 'config' | 'database' | 'mailer' | 'signer'>;

/** How often each instance expires invitations past their hold. */
export const EXPIRY_INTERVAL_MS = 60_000;

interface InvitationRow {
  id: string;
  mixer_id: string;
  side: string;
  status: InvitationStatus;
  expires_ms: number;
  responded_ms: number | null;
  others: number | string;
  topic: string;
  starts_ms: number;
}

const weekdayHour = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, weekday: 'long', hour: 'numeric', hourCycle: 'h23' });

function whyOf(r: InvitationRow): string {
  const parts = weekdayHour.formatToParts(new Date(Number(r.starts_ms)));
  const weekday = parts.find((p) => p.type === 'weekday')?.value ?? '';
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 19);
  return invitationWhy(Number(r.others), r.topic, weekday, partOfDay(hour));
}

/** My pending invitations (still holding a seat in an upcoming mixer) and the ones answered lately. */
export async function listInvitations(deps: Deps, userId: string, now = new Date()): Promise<InvitationList> {
  const nowIso = now.toISOString();
  const rows = rowsOf<InvitationRow & { live: boolean }>(
    await deps.database.db.execute(sql`
      select i.id, i.mixer_id, i.side, i.status, ${epochMs(sql`i.expires_at`)} as expires_ms, ${epochMs(sql`i.responded_at`)} as responded_ms,
             m.topic, ${epochMs(sql`m.starts_at`)} as starts_ms,
             (i.status = 'pending' and i.expires_at > ${nowIso}::timestamptz and m.status = 'scheduled') as live,
             (select count(distinct x.user_id) from (
                select o.user_id from mixer_invitations o where o.mixer_id = i.mixer_id and o.status in ('pending', 'accepted')
                union all
                select c.user_id from mixer_memberships c where c.mixer_id = i.mixer_id and c.state = 'joined') x
               where x.user_id <> ${userId}) as others
        from mixer_invitations i join mixers m on m.id = i.mixer_id
       where i.user_id = ${userId}
         and ((i.status = 'pending' and i.expires_at > ${nowIso}::timestamptz and m.status = 'scheduled')
              or coalesce(i.responded_at, i.expires_at) > ${nowIso}::timestamptz - make_interval(days => ${RECENT_INVITATIONS_DAYS}))
       order by m.starts_at, i.id
       limit 50`),
  );
  const pendingRows = rows.filter((r) => r.live);
  const recentRows = rows
    .filter((r) => !r.live && r.status !== 'pending')
    .sort((a, b) => Number(b.responded_ms ?? b.expires_ms) - Number(a.responded_ms ?? a.expires_ms))
    .slice(0, RECENT_INVITATIONS_MAX);
  const cards = new Map(
    (await mixerSummaries(deps, userId, [...new Set([...pendingRows, ...recentRows].map((r) => r.mixer_id))])).map((m) => [m.id, m]),
  );
  const view = (r: InvitationRow): InvitationView[] => {
    const mixer = cards.get(r.mixer_id);
    if (!mixer) return [];
    return [
      {
        id: r.id,
        status: r.status,
        expiresAt: isoFromMs(r.expires_ms),
        respondedAt: r.responded_ms == null ? null : isoFromMs(r.responded_ms),
        why: whyOf(r),
        mixer,
      },
    ];
  };
  return { pending: pendingRows.flatMap(view), recent: recentRows.flatMap(view) };
}

interface LockedInvitation {
  id: string;
  mixer_id: string;
  side: string;
  status: InvitationStatus;
  expired: boolean;
  title: string;
  mixer_status: string;
  starts_ms: number;
}

/** The invitation (mine only) with its mixer, the mixer row locked like a join or leave. */
async function lockInvitation(tx: Db, userId: string, id: string, now: Date): Promise<LockedInvitation> {
  if (!isUuid(id)) throw new AppError('not_found', INVITATION_MESSAGES.notFound);
  const [inv] = rowsOf<{ mixer_id: string }>(
    await tx.execute(sql`select mixer_id from mixer_invitations where id = ${id}::uuid and user_id = ${userId}`),
  );
  if (!inv) throw new AppError('not_found', INVITATION_MESSAGES.notFound);
  await tx.execute(sql`select id from mixers where id = ${inv.mixer_id}::uuid for update`);
  const [row] = rowsOf<LockedInvitation>(
    await tx.execute(sql`
      select i.id, i.mixer_id, i.side, i.status, (i.expires_at <= ${now.toISOString()}::timestamptz) as expired,
             m.title, m.status as mixer_status, ${epochMs(sql`m.starts_at`)} as starts_ms
        from mixer_invitations i join mixers m on m.id = i.mixer_id
       where i.id = ${id}::uuid and i.user_id = ${userId}`),
  );
  if (!row) throw new AppError('not_found', INVITATION_MESSAGES.notFound);
  return row;
}

/** Why an invitation that is not `pending` (or is past its hold) cannot be answered. */
function refusal(inv: LockedInvitation): AppError {
  if (inv.status === 'declined') return new AppError('conflict', INVITATION_MESSAGES.declined);
  if (inv.status === 'withdrawn') return new AppError('conflict', INVITATION_MESSAGES.withdrawn);
  if (inv.status === 'accepted') return new AppError('conflict', INVITATION_MESSAGES.accepted);
  return new AppError('conflict', INVITATION_MESSAGES.expired);
}

/**
 * Takes the seat an invitation holds: a `joined` membership on the invitation's side, under the
 * mixer row lock like any join. A second accept answers the same. Refused with a clear message
 * when the invitation was answered, withdrawn or expired, when the mixer was cancelled or has
 * started, or when the member no longer fits its audience.
 */
export async function acceptInvitation(
  deps: Deps,
  publish: Publish,
  userId: string,
  id: string,
  now = new Date(),
): Promise<InvitationAnswer> {
  const { db } = deps.database;
  const [profile] = rowsOf<{ done: boolean }>(
    await db.execute(sql`select onboarding_completed as done from profiles where id = ${userId}`),
  );
  const viewer = await loadViewer(db, userId, now);
  const outcome = await db
    .transaction(async (tx) => {
      const inv = await lockInvitation(tx, userId, id, now);
      if (inv.status === 'accepted') {
        const [seat] = rowsOf(
          await tx.execute(
            sql`select 1 from mixer_memberships where mixer_id = ${inv.mixer_id} and user_id = ${userId} and state = 'joined'`,
          ),
        );
        if (seat) return { inv, changed: false };
        throw new AppError('conflict', INVITATION_MESSAGES.acceptedThenLeft);
      }
      if (inv.status !== 'pending') throw refusal(inv);
      if (inv.mixer_status === 'cancelled') throw new AppError('conflict', MIXER_MESSAGES.cancelled);
      if (inv.mixer_status !== 'scheduled' || Number(inv.starts_ms) <= now.getTime())
        throw new AppError('conflict', INVITATION_MESSAGES.started);
      if (inv.expired) throw refusal(inv);
      if (!profile?.done) throw new AppError('forbidden', MIXER_MESSAGES.profileIncomplete);
      const muted = await mixerMuteUntil(tx, userId);
      if (muted) throw new AppError('forbidden', MODERATION_MESSAGES.mutedInMixers(muteDate(muted)));
      const audience = await ensureEligible(tx, viewer, inv.mixer_id);
      if (!fittingPools(audience.seatPlan, viewer).includes(inv.side as never))
        throw new AppError('not_for_you', INVITATION_MESSAGES.noLongerFits);
      const seat = await takeSeat(tx, inv.mixer_id, viewer, { waitlist: false }, now);
      await tx.execute(sql`
      update mixer_invitations set status = 'accepted', responded_at = coalesce(responded_at, ${now.toISOString()}::timestamptz)
       where id = ${id}::uuid and status in ('pending', 'accepted')`);
      await recordAudit(tx, userId, 'invitation.accepted', id, { mixerId: inv.mixer_id, side: inv.side });
      return { inv, changed: seat.changed };
    })
    .catch(async (err: unknown) => {
      // No longer fits the audience (a profile change): the invitation closes and its seat is
      // released now, not when the hold runs out (QA of issue 14).
      if (err instanceof AppError && err.code === 'not_for_you') {
        await closeInvitation(deps, publish, userId, id, now, 'withdrawn');
        throw new AppError('not_for_you', INVITATION_MESSAGES.noLongerFits);
      }
      throw err;
    });
  if (outcome.changed) {
    await publish(`user:${userId}`, { type: 'counter', key: 'mixersJoined', delta: 1 });
    await publish(`mixer:${outcome.inv.mixer_id}`, { type: 'mixer.updated', mixerId: outcome.inv.mixer_id });
    await publish(`user:${userId}`, { type: 'mixer.updated', mixerId: outcome.inv.mixer_id });
  }
  return { status: 'accepted', mixerId: outcome.inv.mixer_id };
}

/**
 * Releases the seat a pending invitation held (decline and expiry): the first member waiting on
 * that side takes it, reliable members first. Runs under the mixer row lock.
 */
async function releaseHeldSeat(tx: Db, mixerId: string, side: string, mixerStatus: string, now: Date): Promise<Promoted | null> {
  if (mixerStatus !== 'scheduled' && mixerStatus !== 'live') return null;
  return promoteOnSide(tx, mixerId, side, now);
}

/** Declines a pending invitation; its seat goes to the side's waitlist. A second decline answers the same. */
export async function declineInvitation(
  deps: Deps,
  publish: Publish,
  userId: string,
  id: string,
  now = new Date(),
): Promise<InvitationAnswer> {
  return closeInvitation(deps, publish, userId, id, now, 'declined');
}

/**
 * Declines a pending invitation whose seat no longer fits the member after a profile change
 * (issue 32): like their own decline (the seat goes to the side's waitlist), with the reason in
 * the audit entry. Answers false when it was no longer pending.
 */
export async function declineNoLongerFitting(deps: Deps, publish: Publish, userId: string, id: string, now = new Date()): Promise<boolean> {
  try {
    await closeInvitation(deps, publish, userId, id, now, 'declined', 'profile_change');
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict') return false;
    throw err;
  }
}

/**
 * Withdraws every pending invitation of a member a moderator muted or suspended (issue 30): they
 * cannot be invited, so the seats they held go to the waitlists at once.
 */
export async function withdrawMemberInvitations(deps: Deps, publish: Publish, userId: string, now = new Date()): Promise<number> {
  const pending = rowsOf<{ id: string }>(
    await deps.database.db.execute(sql`select id from mixer_invitations where user_id = ${userId} and status = 'pending'`),
  );
  let n = 0;
  for (const { id } of pending) {
    try {
      await closeInvitation(deps, publish, userId, id, now, 'withdrawn');
      n++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return n;
}

/** Closes a pending invitation (declined by the member, or withdrawn when it no longer fits) and releases its seat. */
async function closeInvitation(
  deps: Deps,
  publish: Publish,
  userId: string,
  id: string,
  now: Date,
  status: 'declined' | 'withdrawn',
  reason?: 'profile_change',
): Promise<InvitationAnswer> {
  const { db } = deps.database;
  const outcome = await db.transaction(async (tx) => {
    const inv = await lockInvitation(tx, userId, id, now);
    if (inv.status === status) return { inv, promoted: null, changed: false };
    if (inv.status !== 'pending' || inv.expired) throw refusal(inv);
    await tx.execute(
      sql`update mixer_invitations set status = ${status}, responded_at = ${now.toISOString()}::timestamptz where id = ${id}::uuid`,
    );
    await recordAudit(tx, userId, `invitation.${status}`, id, { mixerId: inv.mixer_id, side: inv.side, ...(reason && { reason }) });
    return { inv, promoted: await releaseHeldSeat(tx, inv.mixer_id, inv.side, inv.mixer_status, now), changed: true };
  });
  const { inv, promoted } = outcome;
  if (promoted)
    await tellPromoted(deps, publish, promoted, { id: inv.mixer_id, title: inv.title, status: inv.mixer_status, starts_ms: inv.starts_ms });
  if (outcome.changed) await publish(`mixer:${inv.mixer_id}`, { type: 'mixer.updated', mixerId: inv.mixer_id });
  return { status, mixerId: inv.mixer_id };
}

/**
 * Marks every pending invitation past its hold `expired` and releases its seat, one mixer at a
 * time under that mixer's row lock. The conditional UPDATE … WHERE status = 'pending' … RETURNING
 * means two runs (on one instance or several) never expire or release the same invitation twice.
 * Returns how many expired.
 */
export async function expireInvitations(deps: Deps, publish: Publish, now: Date): Promise<number> {
  const { db } = deps.database;
  const nowIso = now.toISOString();
  const due = rowsOf<{ mixer_id: string }>(
    await db.execute(sql`
      select distinct mixer_id from mixer_invitations
       where status = 'pending' and expires_at <= ${nowIso}::timestamptz
       limit 500`),
  );
  let expired = 0;
  for (const { mixer_id } of due) {
    const outcome = await db.transaction(async (tx) => {
      const [mixer] = rowsOf<{ title: string; status: string; starts_ms: number }>(
        await tx.execute(
          sql`select title, status, ${epochMs(sql`starts_at`)} as starts_ms from mixers where id = ${mixer_id}::uuid for update`,
        ),
      );
      const rows = rowsOf<{ id: string; user_id: string; side: string }>(
        await tx.execute(sql`
          update mixer_invitations set status = 'expired', responded_at = ${nowIso}::timestamptz
           where mixer_id = ${mixer_id}::uuid and status = 'pending' and expires_at <= ${nowIso}::timestamptz
          returning id, user_id, side`),
      );
      const promoted: Promoted[] = [];
      for (const r of rows) {
        await recordAudit(tx, null, 'invitation.expired', r.id, { mixerId: mixer_id, userId: r.user_id, side: r.side });
        const p = mixer ? await releaseHeldSeat(tx, mixer_id, r.side, mixer.status, now) : null;
        if (p) promoted.push(p);
      }
      return { mixer, rows, promoted };
    });
    expired += outcome.rows.length;
    const { mixer } = outcome;
    if (mixer) {
      for (const p of outcome.promoted)
        await tellPromoted(deps, publish, p, { id: mixer_id, title: mixer.title, status: mixer.status, starts_ms: mixer.starts_ms });
    }
    for (const r of outcome.rows) await publish(`user:${r.user_id}`, { type: 'mixer.updated', mixerId: mixer_id });
    if (outcome.rows.length) await publish(`mixer:${mixer_id}`, { type: 'mixer.updated', mixerId: mixer_id });
  }
  return expired;
}

/**
 * When a mixer is cancelled: its pending invitations become `withdrawn` (call inside the
 * cancel's transaction, after the mixer row is locked). Returns the members whose seat was held.
 */
export async function withdrawInvitations(tx: Pick<Db, 'execute'>, mixerId: string, now = new Date()): Promise<string[]> {
  return rowsOf<{ user_id: string }>(
    await tx.execute(sql`
      update mixer_invitations set status = 'withdrawn', responded_at = ${now.toISOString()}::timestamptz
       where mixer_id = ${mixerId}::uuid and status = 'pending'
      returning user_id`),
  ).map((r) => r.user_id);
}

/**
 * A suspended or banned member leaves every mixer that has not ended (issue 30): each pending
 * invitation is withdrawn and its held seat released, and each seat or waitlist place is left
 * (the seat goes to the side's waitlist; no late-leave mark: a rule took them out). Their lines
 * already vanish from rooms through `hiddenFrom`; this frees what they held. Returns the mixers left.
 */
export async function takeOutOfMixers(deps: Deps, publish: Publish, memberId: string, now = new Date()): Promise<string[]> {
  const { db } = deps.database;
  const pending = rowsOf<{ id: string }>(
    await db.execute(sql`select id from mixer_invitations where user_id = ${memberId} and status = 'pending'`),
  );
  for (const inv of pending) {
    try {
      await closeInvitation(deps, publish, memberId, inv.id, now, 'withdrawn');
    } catch (err) {
      // Expired or answered in the meantime: nothing is held any more.
      if (!(err instanceof AppError)) throw err;
    }
  }
  const seats = rowsOf<{ mixer_id: string }>(
    await db.execute(sql`select mm.mixer_id from mixer_memberships mm join mixers m on m.id = mm.mixer_id
      where mm.user_id = ${memberId} and mm.state in ('joined', 'waitlisted') and m.status in ('scheduled', 'live')`),
  );
  for (const seat of seats) await leaveMixer(deps, publish, memberId, seat.mixer_id, now, { noLateLeaveRecord: true });
  return seats.map((s) => s.mixer_id);
}

/** Runs `expireInvitations` when the app is ready and every minute after. */
export function startInvitationExpiry(app: FastifyInstance, intervalMs = EXPIRY_INTERVAL_MS) {
  startPeriodicJob(app, 'invitation expiry', intervalMs, (now) =>
    expireInvitations(app.deps, (room, event) => app.realtime.publish(room, event), now),
  );
}
