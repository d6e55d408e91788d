import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  type AdminAppeal,
  appealOpen,
  MODERATION_MESSAGES,
  type MemberAction,
  type MyReport,
  mayDecideAppeal,
  ruleText,
} from '../../../shared/schemas/moderation';
import { AppError } from '../../http/errors';
import { composeMail } from '../../infra/mail/template';
import { type Queryable, iso, query } from '../../lib/sql';
import { recordAudit } from './audit';
import { actionOfToken, actionsOf, announceLine, emailHash, type Reversible, reverseAction } from './moderation-actions';
import { firstName, isUuid } from './sql';

/**
 * Appeals (issue 30, decision 036): once per action, within 14 days, with a short text — from the
 * notice or Settings while signed in (muted members included), or by the one-time link mailed to
 * a suspended or banned member. Decided by an admin other than the one who acted; a reversal
 * undoes the action.
 */

/** The member's decisions (with their appeal state) and their own reports (whether action was taken, never which). */
export async function myModeration(db: Queryable, me: string, now = Date.now()): Promise<{ actions: MemberAction[]; reports: MyReport[] }> {
  const [actions, reports] = await Promise.all([
    actionsOf(db, me),
    query<{ id: string; reason: string; details: string; created_at: string; status: string }>(
      db,
      sql`select id, reason, details, ${iso(sql`created_at`)} as created_at, status from reports
           where reporter_id = ${me} order by created_at desc limit 100`,
    ),
  ]);
  return {
    actions: actions.map((a) => ({
      id: a.id,
      action: a.action as MemberAction['action'],
      rule: a.rule,
      ruleText: ruleText(a.rule),
      quote: a.quote,
      days: a.days,
      endsAt: a.ends_at,
      createdAt: a.created_at,
      reversed: a.reversed,
      appeal: a.appeal_status ? { status: a.appeal_status as 'open' | 'upheld' | 'reversed', decidedAt: a.appeal_decided } : null,
      appealable: !a.appeal_status && !a.reversed && appealOpen(a.created_at, now),
    })),
    reports: reports.map((r) => ({
      id: r.id,
      reason: r.reason,
      details: r.details,
      createdAt: r.created_at,
      outcome: r.status === 'open' ? 'open' : r.status === 'dismissed' ? 'no_action' : 'action_taken',
    })),
  };
}

interface ActionRow {
  id: string;
  action: string;
  member_id: string | null;
  email_hash: string | null;
  created_at: string;
  reversed: boolean;
}

async function fileAppeal(
  db: Queryable,
  action: ActionRow | undefined,
  memberId: string | null,
  text: string,
  contactEmail: string | null,
): Promise<{ id: string }> {
  if (!action) throw new AppError('not_found', MODERATION_MESSAGES.appealNotFound);
  if (action.action === 'dismiss') throw new AppError('bad_request', MODERATION_MESSAGES.appealDismiss);
  if (action.reversed) throw new AppError('conflict', MODERATION_MESSAGES.appealReversed);
  if (!appealOpen(action.created_at)) throw new AppError('conflict', MODERATION_MESSAGES.appealLate);
  const [row] = await query<{ id: string }>(
    db,
    sql`insert into appeals (action_id, member_id, text, contact_email) values (${action.id}::uuid, ${memberId}, ${text}, ${contactEmail})
        on conflict (action_id) do nothing returning id`,
  );
  if (!row) throw new AppError('conflict', MODERATION_MESSAGES.appealTwice);
  await recordAudit(db, memberId, 'appeal.filed', action.id, null);
  return row;
}

const actionSql = (id: string) =>
  sql`select id, action, member_id, email_hash, ${iso(sql`created_at`)} as created_at, reversed_at is not null as reversed
        from moderation_actions where id = ${id}::uuid`;

/** A signed-in member appeals one of their own actions. */
export async function appeal(db: Queryable, me: string, input: { actionId: string; text: string }) {
  const [action] = await query<ActionRow>(db, actionSql(input.actionId));
  return fileAppeal(db, action && action.member_id === me ? action : undefined, me, input.text, null);
}

/** A suspended or banned member appeals by the link we mailed; a ban also asks for the address, checked against its hash. */
export async function appealByLink(app: FastifyInstance, input: { token: string; text: string; email?: string }) {
  const id = actionOfToken(app, input.token);
  if (!id) throw new AppError('forbidden', MODERATION_MESSAGES.appealLink);
  const db = app.deps.database.db;
  const [action] = await query<ActionRow>(db, actionSql(id));
  if (action?.action === 'ban') {
    if (!input.email || !action.email_hash || emailHash(input.email) !== action.email_hash)
      throw new AppError('forbidden', MODERATION_MESSAGES.appealLink);
  }
  return fileAppeal(
    db,
    action,
    action?.member_id ?? null,
    input.text,
    action?.action === 'ban' && input.email ? input.email.trim().toLowerCase() : null,
  );
}

/** What the appeal-by-link page shows about the decision. */
export async function appealLinkInfo(app: FastifyInstance, token: string) {
  const id = actionOfToken(app, token);
  if (!id) throw new AppError('forbidden', MODERATION_MESSAGES.appealLink);
  const [a] = await query<{ action: string; rule: string; quote: string | null; appealed: boolean; days: number | null }>(
    app.deps.database.db,
    sql`select a.action, a.rule, a.quote, a.days, exists (select 1 from appeals ap where ap.action_id = a.id) as appealed
          from moderation_actions a where a.id = ${id}::uuid`,
  );
  if (!a) throw new AppError('forbidden', MODERATION_MESSAGES.appealLink);
  return { action: a.action, days: a.days, rule: ruleText(a.rule), quote: a.quote, appealed: a.appealed, needsEmail: a.action === 'ban' };
}

/** Open appeals, oldest first; `decidable` is false for the admin who took the action. */
export async function listAppeals(db: Queryable, me: string): Promise<{ appeals: AdminAppeal[] }> {
  const rows = await query<{
    id: string;
    text: string;
    created_at: string;
    member_id: string | null;
    member_name: string | null;
    action_id: string;
    action: string;
    rule: string;
    quote: string | null;
    days: number | null;
    acted_at: string;
    actor_id: string | null;
    actor_name: string | null;
  }>(
    db,
    sql`select ap.id, ap.text, ${iso(sql`ap.created_at`)} as created_at, ap.member_id,
               coalesce(nullif(btrim(mp.full_name), ''), mu.name) as member_name,
               a.id as action_id, a.action, a.rule, a.quote, a.days, ${iso(sql`a.created_at`)} as acted_at,
               a.actor_id, au.name as actor_name
          from appeals ap join moderation_actions a on a.id = ap.action_id
          left join "user" mu on mu.id = ap.member_id left join profiles mp on mp.id = ap.member_id
          left join "user" au on au.id = a.actor_id
         where ap.status = 'open' order by ap.created_at asc limit 200`,
  );
  return {
    appeals: rows.map((r) => ({
      id: r.id,
      text: r.text,
      createdAt: r.created_at,
      member: r.member_id ? { id: r.member_id, name: r.member_name ?? '' } : null,
      action: {
        id: r.action_id,
        action: r.action,
        rule: ruleText(r.rule),
        quote: r.quote,
        days: r.days,
        createdAt: r.acted_at,
        actorId: r.actor_id,
        actorName: r.actor_name,
      },
      decidable: r.member_id !== me && mayDecideAppeal(r.actor_id, me),
    })),
  };
}

interface LockedAppeal extends Reversible {
  id: string;
  status: string;
  contact_email: string | null;
  actor_id: string | null;
  member_email: string | null;
  member_name: string | null;
}

/**
 * Decides an appeal: upheld, or reversed — the action is undone (`reverseAction`: a removed line
 * comes back, a mute ends, a suspension is lifted, a banned address may register again). The
 * member is told. Audited.
 */
export async function decideAppeal(
  app: FastifyInstance,
  me: string,
  appealId: string,
  input: { decision: 'uphold' | 'reverse'; note: string },
): Promise<{ status: 'upheld' | 'reversed' }> {
  if (!isUuid(appealId)) throw new AppError('not_found', MODERATION_MESSAGES.appealNotFound);
  const out = await app.deps.database.db.transaction(async (tx) => {
    const [a] = await query<LockedAppeal>(
      tx,
      sql`select ap.id, ap.status, ap.contact_email, a.id as action_id, a.action, a.actor_id, a.member_id, a.removed_line, a.email_hash,
                 a.report_id, r.target_kind, r.message_id, r.mixer_id, r.match_id,
                 u.email as member_email, coalesce(nullif(btrim(p.full_name), ''), u.name) as member_name
            from appeals ap join moderation_actions a on a.id = ap.action_id
            left join reports r on r.id = a.report_id
            left join "user" u on u.id = a.member_id left join profiles p on p.id = a.member_id
           where ap.id = ${appealId}::uuid for update of ap, a`,
    );
    if (!a) throw new AppError('not_found', MODERATION_MESSAGES.appealNotFound);
    if (a.status !== 'open') throw new AppError('conflict', MODERATION_MESSAGES.appealDecided);
    if (a.member_id === me) throw new AppError('forbidden', MODERATION_MESSAGES.ownCase);
    if (!mayDecideAppeal(a.actor_id, me)) throw new AppError('forbidden', MODERATION_MESSAGES.appealSameAdmin);
    const status = input.decision === 'reverse' ? ('reversed' as const) : ('upheld' as const);
    await tx.execute(
      sql`update appeals set status = ${status}, decided_by = ${me}, decision = ${input.note}, decided_at = now(), contact_email = null
           where id = ${a.id}::uuid`,
    );
    const lineBack = status === 'reversed' && (await reverseAction(tx, a, me, input.note)).lineBack;
    await recordAudit(tx, me, `appeal.${status}`, a.action_id, { appealId: a.id, note: input.note });
    return { a, status, lineBack };
  });
  const { a, status, lineBack } = out;
  if (lineBack) await announceLine(app, a, 'visible');
  const said =
    status === 'reversed'
      ? `We looked at your appeal again and reversed our decision: it no longer applies to your account.${a.action === 'ban' ? ' You may register again with this address.' : ''}`
      : 'We looked at your appeal carefully and our decision stands.';
  if (a.member_id) {
    await app.realtime.publish(`user:${a.member_id}`, {
      type: 'notice',
      title: status === 'reversed' ? 'Your appeal: decision reversed' : 'Your appeal: decision upheld',
      description: said,
      link: { label: 'See it', href: '/settings/safety' },
    });
  }
  const to = a.member_email ?? a.contact_email;
  if (to) {
    await app.deps.mailer.sendMail(
      composeMail(to, {
        subject: 'About your appeal',
        greeting: `Hi ${firstName(a.member_name)},`,
        lines: [said, `Our note: ${input.note}`],
        action: { label: 'Open Fancy', url: `${app.deps.config.publicUrl}/${a.member_id ? 'settings/safety' : 'auth/register'}` },
      }),
    );
  }
  return { status };
}
