import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SuspendedMember } from '../../../shared/schemas/admin';
import { MODERATION_MESSAGES, mayDecideAppeal, muteDate, ruleText } from '../../../shared/schemas/moderation';
import { AppError } from '../../http/errors';
import { composeMail } from '../../infra/mail/template';
import { iso, type Queryable, query } from '../../lib/sql';
import { recordAudit } from './audit';
import { announceLine, type Reversible, reverseAction } from './moderation-actions';
import { firstName, isUuid } from './sql';

/**
 * Suspensions (issue 30, decision 036): a suspension is a `moderation_actions` row; it runs until
 * it ends or is reversed. Lifting one early is a reversal like an upheld appeal, by an admin other
 * than the one who suspended the member.
 */

const running = sql`a.action = 'suspend' and a.reversed_at is null and a.ends_at > now()`;

/** Running suspensions, latest first, with who suspended the member, when, and under which rule. */
export async function listSuspended(db: Queryable, me: string): Promise<SuspendedMember[]> {
  const rows = await query<{
    action_id: string;
    member_id: string;
    name: string;
    email: string;
    rule: string;
    days: number | null;
    suspended_at: string;
    ends_at: string | null;
    actor_id: string | null;
    actor_name: string | null;
  }>(
    db,
    sql`select a.id as action_id, a.member_id, coalesce(nullif(btrim(p.full_name), ''), u.name) as name, u.email, a.rule, a.days,
               ${iso(sql`a.created_at`)} as suspended_at, ${iso(sql`a.ends_at`)} as ends_at, a.actor_id, au.name as actor_name
          from moderation_actions a
          join "user" u on u.id = a.member_id
          left join profiles p on p.id = a.member_id
          left join "user" au on au.id = a.actor_id
         where ${running}
         order by a.created_at desc, a.id
         limit 200`,
  );
  return rows.map((r) => ({
    actionId: r.action_id,
    id: r.member_id,
    name: r.name,
    email: r.email,
    rule: ruleText(r.rule),
    days: r.days,
    suspendedAt: r.suspended_at,
    endsAt: r.ends_at,
    suspendedBy: r.actor_name,
    liftable: r.member_id !== me && mayDecideAppeal(r.actor_id, me),
  }));
}

interface LockedSuspension extends Reversible {
  actor_id: string | null;
  running: boolean;
  member_email: string;
  member_name: string | null;
}

/**
 * Lifts a running suspension: the action is reversed (`reverseAction`), so the member may sign in
 * again unless another suspension of theirs is still running. Refused to the admin who suspended
 * them and in one's own case. The member is told by mail, with the reason. Audited.
 */
export async function liftSuspension(
  app: FastifyInstance,
  me: string,
  actionId: string,
  reason: string,
): Promise<{ status: 'lifted'; suspendedUntil: string | null }> {
  if (!isUuid(actionId)) throw new AppError('not_found', MODERATION_MESSAGES.suspensionNotFound);
  const out = await app.deps.database.db.transaction(async (tx) => {
    const [a] = await query<LockedSuspension>(
      tx,
      sql`select a.id as action_id, a.action, a.actor_id, a.member_id, a.removed_line, a.email_hash, a.report_id,
                 r.target_kind, r.message_id, r.mixer_id, r.match_id, coalesce(${running}, false) as running,
                 u.email as member_email, coalesce(nullif(btrim(p.full_name), ''), u.name) as member_name
            from moderation_actions a
            join "user" u on u.id = a.member_id
            left join profiles p on p.id = a.member_id
            left join reports r on r.id = a.report_id
           where a.id = ${actionId}::uuid and a.action = 'suspend'
           for update of a`,
    );
    if (!a) throw new AppError('not_found', MODERATION_MESSAGES.suspensionNotFound);
    if (!a.running) throw new AppError('conflict', MODERATION_MESSAGES.suspensionEnded);
    if (a.member_id === me) throw new AppError('forbidden', MODERATION_MESSAGES.ownCase);
    if (!mayDecideAppeal(a.actor_id, me)) throw new AppError('forbidden', MODERATION_MESSAGES.liftSameAdmin);
    const undone = await reverseAction(tx, a, me, reason);
    await recordAudit(tx, me, 'moderation.lift', a.member_id, { actionId: a.action_id, reason });
    return { a, ...undone };
  });
  const { a, lineBack, suspendedUntil } = out;
  if (lineBack) await announceLine(app, a, 'visible');
  await app.deps.mailer.sendMail(
    composeMail(a.member_email, {
      subject: suspendedUntil ? 'A suspension of your Fancy account has been lifted' : 'Your Fancy account is active again',
      greeting: `Hi ${firstName(a.member_name)},`,
      lines: suspendedUntil
        ? [
            'We have lifted one suspension of your account.',
            `The reason: ${reason}`,
            `Another suspension is still running, so you can sign in again from ${muteDate(suspendedUntil)}.`,
          ]
        : ['We have lifted the suspension of your account, so you can sign in again.', `The reason: ${reason}`, 'Welcome back.'],
      action: { label: 'Log in to Fancy', url: `${app.deps.config.publicUrl}/auth/login` },
    }),
  );
  return { status: 'lifted', suspendedUntil };
}
