import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  APPEAL_DAYS,
  actionLabel,
  type ModerationActInput,
  MODERATION_MESSAGES,
  type ModerationAction,
  whatHappensNow,
  RULES,
  type RuleKey,
} from '../../../shared/schemas/moderation';
import { SIGNED_URL_TTL_S } from '../../../shared/constants';
import { emailHash } from '../../auth/banned-emails';
import { AppError } from '../../http/errors';
import { composeMail } from '../../infra/mail/template';
import { type Queryable, iso, query } from '../../lib/sql';
import { takeOutOfMixers, withdrawMemberInvitations } from '../invitations/service';
import { deleteAccount } from '../settings/service';
import { recordAudit } from './audit';
import { firstName, isUuid } from './sql';

export { emailHash };

/** A signed, expiring link to appeal one action without signing in (suspended or banned members). */
export function appealToken(app: FastifyInstance, actionId: string, now = Date.now()): string {
  // The signer's URLs live SIGNED_URL_TTL_S past the time given: start that much before 14 days from now.
  const url = app.deps.signer.url(`appeal/${actionId}`, now + APPEAL_DAYS * 86_400_000 - SIGNED_URL_TTL_S * 1000);
  // The URL carries exp and sig; the token is the action id with them.
  const q = new URL(url, 'http://x').searchParams;
  return `${actionId}.${q.get('exp')}.${q.get('sig')}`;
}

/** The action id of a valid appeal token, or null. */
export function actionOfToken(app: FastifyInstance, token: string): string | null {
  const [id, exp, sig] = token.split('.');
  if (!id || !exp || !sig || !isUuid(id)) return null;
  return app.deps.signer.verify(`appeal/${id}`, Number(exp), sig) ? id : null;
}

const dn = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}p.full_name), ''), ${alias}u.name)`);

interface Locked {
  id: string;
  status: string;
  target_kind: 'member' | 'mixer' | 'direct';
  message_id: string | null;
  mixer_id: string | null;
  match_id: string | null;
  reported_id: string | null;
  reported_email: string | null;
  reported_name: string | null;
  reported_role: string | null;
  quote: string | null;
}

interface Closed {
  reporter_id: string | null;
  email: string | null;
  name: string | null;
  notify: boolean;
}

const STATUS: Record<ModerationAction, string> = {
  dismiss: 'dismissed',
  remove: 'actioned',
  warn: 'warned',
  mute: 'actioned',
  suspend: 'suspended',
  ban: 'actioned',
};

/** The report's line of an action: where it is, to remove it or put it back. */
type LineOf = { target_kind: string | null; message_id: string | null; mixer_id: string | null; match_id: string | null };

/** Puts a moderated line into a state: visible again (no longer hidden or removed), or removed. */
async function setLine(tx: Queryable, r: Pick<LineOf, 'target_kind' | 'message_id'>, state: 'visible' | 'removed'): Promise<boolean> {
  if (!r.message_id) return false;
  const table = r.target_kind === 'direct' ? sql`direct_messages` : sql`mixer_messages`;
  const set =
    state === 'removed'
      ? sql`removed_at = now()`
      : r.target_kind === 'direct'
        ? sql`removed_at = null`
        : sql`removed_at = null, hidden_at = null`;
  const changed = await query<{ id: string }>(tx, sql`update ${table} set ${set} where id = ${r.message_id}::uuid returning id`);
  return changed.length > 0;
}

/** Tells the room (and a private chat's two members) that a line changed state. */
export async function announceLine(app: FastifyInstance, r: LineOf, state: 'visible' | 'removed') {
  if (!r.message_id) return;
  if (r.target_kind === 'mixer' && r.mixer_id) {
    await app.realtime.publish(`mixer:${r.mixer_id}`, { type: 'mixer.line', mixerId: r.mixer_id, messageId: r.message_id, state });
  } else if (r.target_kind === 'direct' && r.match_id && state === 'removed') {
    await app.realtime.publish(`conversation:${r.match_id}`, { type: 'dm.removed', matchId: r.match_id, messageId: r.message_id });
  }
}

/**
 * One moderator decision on an open report (issue 30): dismiss (a hidden line is restored),
 * remove the line, warn, mute in mixers, suspend (1, 7 or 30 days) or ban — each naming the rule,
 * in the audit log, closing the other open reports of the same line (and, for a suspension or a
 * ban, every open report against the member). The reporter is told whether action was taken;
 * the member which rule, which line and what happens now.
 */
export async function actOnReport(
  app: FastifyInstance,
  actorId: string,
  reportId: string,
  input: ModerationActInput & { removeLine?: boolean; note?: string },
  now = new Date(),
): Promise<{ status: string; actionId: string }> {
  if (!isUuid(reportId)) throw new AppError('not_found', MODERATION_MESSAGES.reportNotFound);
  const action = input.action;
  const removing = action === 'remove' || (Boolean(input.removeLine) && action !== 'dismiss');
  const rule = (input.rule ?? null) as RuleKey | null;
  const days = action === 'mute' || action === 'suspend' ? (input.days ?? null) : null;
  const endsAt = days ? new Date(now.getTime() + days * 86_400_000).toISOString() : null;

  const outcome = await app.deps.database.db.transaction(async (tx) => {
    const [r] = await query<Locked>(
      tx,
      sql`select r.id, r.status, r.target_kind, r.message_id, r.mixer_id, r.match_id, r.reported_id,
                 du.email as reported_email, ${dn('d')} as reported_name, du.role as reported_role,
                 r.evidence -> 'line' ->> 'body' as quote
            from reports r left join "user" du on du.id = r.reported_id left join profiles dp on dp.id = r.reported_id
           where r.id = ${reportId}::uuid for update of r`,
    );
    if (!r) throw new AppError('not_found', MODERATION_MESSAGES.reportNotFound);
    if (r.status !== 'open') throw new AppError('conflict', MODERATION_MESSAGES.reportHandled);
    if (r.reported_id === actorId) throw new AppError('forbidden', MODERATION_MESSAGES.ownCase);
    if (removing && !r.message_id) throw new AppError('conflict', MODERATION_MESSAGES.noLine);
    if (!r.reported_id && action !== 'dismiss' && action !== 'remove') throw new AppError('conflict', MODERATION_MESSAGES.memberGone);
    if (r.reported_role === 'admin' && (action === 'mute' || action === 'suspend' || action === 'ban'))
      throw new AppError('conflict', MODERATION_MESSAGES.cannotActOnAdmin);

    const lineChanged = removing ? await setLine(tx, r, 'removed') : await setLine(tx, r, 'visible');
    const hash = action === 'ban' && r.reported_email ? emailHash(r.reported_email) : null;
    if (hash) await tx.execute(sql`insert into banned_emails (email_hash) values (${hash}) on conflict do nothing`);
    if (action === 'suspend' && r.reported_id) {
      await tx.execute(
        // A suspension already running that ends later keeps its end.
        sql`update "user" set banned = true, ban_reason = ${rule ? RULES[rule] : null}, updated_at = now(),
                   ban_expires = case when banned and ban_expires > ${endsAt}::timestamptz then ban_expires else ${endsAt}::timestamptz end
             where id = ${r.reported_id}`,
      );
      await tx.execute(sql`delete from session where user_id = ${r.reported_id}`);
    }
    const [row] = await query<{ id: string }>(
      tx,
      sql`insert into moderation_actions (report_id, member_id, action, rule, note, days, ends_at, quote, removed_line, email_hash, actor_id, created_at)
          values (${r.id}::uuid, ${r.reported_id}, ${action}, ${rule ?? ''}, ${input.note ?? ''}, ${days}, ${endsAt}::timestamptz,
                  ${r.quote}, ${removing}, ${hash}, ${actorId}, ${now.toISOString()}::timestamptz)
          returning id`,
    );
    const status = STATUS[action];
    const wholeMember = (action === 'suspend' || action === 'ban') && r.reported_id;
    const closed = await query<Closed>(
      tx,
      sql`with done as (
            update reports set status = ${status}, resolution = ${rule ? RULES[rule] : input.note || 'No breach found'},
                   resolved_by = ${actorId}, resolved_at = ${now.toISOString()}::timestamptz
             where status = 'open' and (id = ${r.id}::uuid
                   ${r.message_id ? sql`or message_id = ${r.message_id}::uuid` : sql``}
                   ${wholeMember ? sql`or reported_id = ${r.reported_id}` : sql``})
            returning reporter_id
          )
          select distinct done.reporter_id, u.email, ${dn('')} as name,
                 coalesce((p.preferences ->> 'notifyReports') is distinct from 'false', true) as notify
            from done left join "user" u on u.id = done.reporter_id left join profiles p on p.id = u.id`,
    );
    await recordAudit(
      tx,
      actorId,
      action === 'dismiss' && lineChanged ? 'moderation.restore' : `moderation.${action}`,
      r.reported_id ?? r.id,
      {
        reportId: r.id,
        actionId: row.id,
        rule,
        days,
        removeLine: removing,
      },
    );
    return { r, actionId: row.id, status, closed, lineChanged };
  });

  const { r, actionId, status, closed, lineChanged } = outcome;
  if (lineChanged) await announceLine(app, r, removing ? 'removed' : 'visible');
  await tellReporters(app, closed, action !== 'dismiss');
  if (action !== 'dismiss' && r.reported_id) await tellMember(app, r, { action, rule, endsAt, actionId, days });
  if ((action === 'mute' || action === 'suspend') && r.reported_id) {
    await withdrawMemberInvitations(app.deps, (room, e) => app.realtime.publish(room, e), r.reported_id, now);
  }
  if (action === 'suspend' && r.reported_id) {
    // Out of every mixer they hold a seat or a waitlist place in, as the admin's suspend does.
    await takeOutOfMixers(app.deps, (room, e) => app.realtime.publish(room, e), r.reported_id, now);
    await app.realtime.closeUser(r.reported_id, 'suspended');
  }
  if (action === 'ban' && r.reported_id) {
    await app.realtime.closeUser(r.reported_id, 'suspended');
    await deleteAccount(app.deps, r.reported_id, app.log);
    // The mail goes after the deletion, which purges every mail to that address.
    if (r.reported_email) await app.deps.mailer.sendMail(memberMail(app, r, { action, rule, endsAt, actionId, days }));
  }
  return { status, actionId };
}

/** An action to undo, with its report's line. */
export interface Reversible extends LineOf {
  action_id: string;
  action: string;
  member_id: string | null;
  removed_line: boolean;
  email_hash: string | null;
  report_id: string | null;
}

/**
 * Undoes an action (decision 036) — the one place for it, whether an appeal reverses it or an
 * admin lifts a suspension: the action is marked reversed and an open appeal of it decided so; a
 * removed line comes back; a mute ends; a suspension is lifted unless another of the member's is
 * still running (the ban then lasts until that one ends); a banned address may register again;
 * its report counts as dismissed. In the caller's transaction; after the commit the caller
 * announces a line that came back (`announceLine`) and tells the member.
 */
export async function reverseAction(
  tx: Queryable,
  a: Reversible,
  by: string,
  note: string,
): Promise<{ lineBack: boolean; suspendedUntil: string | null }> {
  await tx.execute(sql`update moderation_actions set reversed_at = now() where id = ${a.action_id}::uuid`);
  await tx.execute(
    sql`update appeals set status = 'reversed', decided_by = ${by}, decision = ${note}, decided_at = now(), contact_email = null
         where action_id = ${a.action_id}::uuid and status = 'open'`,
  );
  const lineBack = (a.removed_line || a.action === 'remove') && a.message_id ? await setLine(tx, a, 'visible') : false;
  let suspendedUntil: string | null = null;
  if (a.action === 'suspend' && a.member_id) {
    const [u] = await query<{ until: string | null }>(
      tx,
      sql`update "user" u set banned = o.until is not null, ban_expires = o.until,
                 ban_reason = case when o.until is null then null else u.ban_reason end, updated_at = now()
            from (select max(ends_at) as until from moderation_actions
                   where member_id = ${a.member_id} and action = 'suspend' and reversed_at is null and ends_at > now()) o
           where u.id = ${a.member_id}
          returning ${iso(sql`o.until`)} as until`,
    );
    suspendedUntil = u?.until ?? null;
  }
  if (a.action === 'ban' && a.email_hash) await tx.execute(sql`delete from banned_emails where email_hash = ${a.email_hash}`);
  if (a.report_id) await tx.execute(sql`update reports set status = 'dismissed' where id = ${a.report_id}::uuid`);
  return { lineBack, suspendedUntil };
}

interface Told {
  action: ModerationAction;
  rule: RuleKey | null;
  endsAt: string | null;
  actionId: string;
  days: number | null;
}

function memberMail(app: FastifyInstance, r: Locked, t: Told) {
  const { publicUrl } = app.deps.config;
  const signedOut = t.action === 'suspend' || t.action === 'ban';
  const link = signedOut
    ? { label: 'Appeal this decision', url: `${publicUrl}/appeal?token=${encodeURIComponent(appealToken(app, t.actionId))}` }
    : { label: 'See the decision and appeal', url: `${publicUrl}/settings/safety` };
  return composeMail(r.reported_email ?? '', {
    subject:
      t.action === 'ban' ? 'Your Fancy account has been closed' : `${actionLabel(t.action, t.days)}: a decision about your Fancy account`,
    greeting: `Hi ${firstName(r.reported_name)},`,
    lines: [
      'Another member reported something you shared on Fancy, and our team reviewed it.',
      `The rule: ${t.rule ? RULES[t.rule] : ''}.`,
      ...(r.quote ? [`The line: "${r.quote}"`] : []),
      `What happens now: ${whatHappensNow(t.action, t.endsAt)}`,
      `If you think we got it wrong, you can appeal once within ${APPEAL_DAYS} days.${signedOut ? ' The link works once.' : ''}`,
    ],
    action: link,
  });
}

async function tellMember(app: FastifyInstance, r: Locked, t: Told) {
  if (t.action !== 'ban' && t.action !== 'suspend') {
    await app.realtime.publish(`user:${r.reported_id}`, {
      type: 'notice',
      title: `${actionLabel(t.action, t.days)}: ${t.rule ? RULES[t.rule] : ''}`,
      description: whatHappensNow(t.action, t.endsAt),
      link: { label: 'See and appeal', href: '/settings/safety' },
    });
  }
  if (t.action !== 'ban' && r.reported_email) await app.deps.mailer.sendMail(memberMail(app, r, t));
}

/** The reporter learns whether action was taken, never which (in the app and, per settings, by mail). */
async function tellReporters(app: FastifyInstance, closed: Closed[], acted: boolean) {
  const { publicUrl } = app.deps.config;
  const said = acted
    ? 'We looked into your report and took action. To protect everyone’s privacy we can’t say what.'
    : 'We looked into your report carefully and did not find a breach of our rules this time.';
  for (const c of closed) {
    if (!c.reporter_id) continue;
    await app.realtime.publish(`user:${c.reporter_id}`, {
      type: 'notice',
      title: 'About your report',
      description: said,
      link: { label: 'Your reports', href: '/settings/safety' },
    });
    if (c.notify && c.email) {
      await app.deps.mailer.sendMail(
        composeMail(c.email, {
          subject: 'About your report',
          greeting: `Hi ${firstName(c.name)},`,
          lines: [said, 'Thank you for telling us: reports like yours keep Fancy kind and safe.'],
          action: { label: 'Open Fancy', url: `${publicUrl}/settings/safety` },
        }),
      );
    }
  }
}

/** A member's own actions (for their notices and appeals), newest first. */
export async function actionsOf(db: Queryable, memberId: string) {
  return query<{
    id: string;
    action: string;
    rule: string;
    quote: string | null;
    days: number | null;
    ends_at: string | null;
    created_at: string;
    reversed: boolean;
    appeal_status: string | null;
    appeal_decided: string | null;
  }>(
    db,
    sql`select a.id, a.action, a.rule, a.quote, a.days, ${iso(sql`a.ends_at`)} as ends_at, ${iso(sql`a.created_at`)} as created_at,
               a.reversed_at is not null as reversed, ap.status as appeal_status, ${iso(sql`ap.decided_at`)} as appeal_decided
          from moderation_actions a left join appeals ap on ap.action_id = a.id
         where a.member_id = ${memberId} and a.action <> 'dismiss'
         order by a.created_at desc limit 100`,
  );
}
