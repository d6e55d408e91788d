import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ADMIN_MESSAGES, type AdminReport, type Page, type ReportAction, type SuspendedMember } from '../../../shared/schemas/admin';
import { AppError } from '../../http/errors';
import { composeMail, memberNameForMail } from '../../infra/mail/template';
import { takeOutOfMixers } from '../invitations/service';
import { recordAudit } from './audit';
import { identityChangesJson, toIdentityChanges } from './identity-changes';
import { decodeCursor, encodeCursor, firstName, isUuid, micros, parseJson } from './sql';
import { iso, type Queryable, query } from '../../lib/sql';

/** Context lines shown with a report. */
const CONTEXT_LINES = 10;

const displayName = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}p.full_name), ''), ${alias}u.name)`);

interface ReportRow {
  id: string;
  reason: string;
  details: string;
  status: AdminReport['status'];
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
  sort: string;
  reporter_id: string | null;
  reporter_name: string | null;
  reporter_email: string | null;
  reported_id: string | null;
  reported_name: string | null;
  reported_email: string | null;
  reported_joined: string | null;
  reported_banned: boolean | null;
  reported_total: number;
  reported_warnings: number;
  reported_identity: unknown;
  mixer_id: string | null;
  mixer_title: string | null;
  mixer_status: string | null;
  mixer_starts: string | null;
  mixer_messages: AdminReport['mixerMessages'] | string | null;
  direct_messages: AdminReport['directMessages'] | string | null;
}

/**
 * The report queue: open reports oldest first (the queue order), or handled ones latest first,
 * each with its context — the reported member's latest lines in the mixer's chat and the latest
 * private messages between the two — in one round trip per page.
 */
export async function listReports(
  db: Queryable,
  opts: { status: 'open' | 'resolved'; cursor?: string; limit: number },
): Promise<Page<AdminReport>> {
  const cursor = decodeCursor(opts.cursor);
  const open = opts.status === 'open';
  const tsCol = open ? sql`r.created_at` : sql`coalesce(r.resolved_at, r.created_at)`;
  const key = micros(tsCol);
  const after: SQL = !cursor
    ? sql`true`
    : open
      ? sql`(${key} > ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and r.id > ${cursor.id}::uuid))`
      : sql`(${key} < ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and r.id < ${cursor.id}::uuid))`;
  const order = open ? sql`r.created_at asc, r.id asc` : sql`coalesce(r.resolved_at, r.created_at) desc, r.id desc`;
  const rows = await query<ReportRow>(
    db,
    sql`select r.id, r.reason, r.details, r.status, r.resolution, rb.name as resolved_by,
               ${iso(sql`r.resolved_at`)} as resolved_at, ${iso(sql`r.created_at`)} as created_at, ${key}::text as sort,
               r.reporter_id, ${displayName('rp')} as reporter_name, rpu.email as reporter_email,
               r.reported_id, ${displayName('dp')} as reported_name, dpu.email as reported_email,
               ${iso(sql`dpu.created_at`)} as reported_joined, dpu.banned as reported_banned,
               (select count(*)::int from reports x where x.reported_id = r.reported_id) as reported_total,
               (select count(*)::int from reports x where x.reported_id = r.reported_id and x.status = 'warned') as reported_warnings,
               ${identityChangesJson(sql`r.reported_id`)} as reported_identity,
               m.id as mixer_id, m.title as mixer_title, m.status as mixer_status, ${iso(sql`m.starts_at`)} as mixer_starts,
               (select coalesce(json_agg(json_build_object('id', y.id, 'body', y.body, 'createdAt', y.created_at) order by y.created_at), '[]'::json)
                  from (select mm.id, mm.body, ${iso(sql`mm.created_at`)} as created_at from mixer_messages mm
                         where r.mixer_id is not null and mm.mixer_id = r.mixer_id and mm.sender_id = r.reported_id
                         order by mm.created_at desc limit ${CONTEXT_LINES}) y) as mixer_messages,
               (select coalesce(json_agg(json_build_object('id', y.id, 'body', y.body, 'createdAt', y.created_at, 'fromReported', y.from_reported)
                                          order by y.created_at), '[]'::json)
                  from (select dm.id, dm.body, ${iso(sql`dm.created_at`)} as created_at, dm.sender_id = r.reported_id as from_reported
                          from direct_messages dm
                         where r.reporter_id is not null
                           and ((dm.sender_id = r.reported_id and dm.recipient_id = r.reporter_id)
                             or (dm.sender_id = r.reporter_id and dm.recipient_id = r.reported_id))
                         order by dm.created_at desc limit ${CONTEXT_LINES}) y) as direct_messages
          from reports r
          left join "user" dpu on dpu.id = r.reported_id
          left join profiles dpp on dpp.id = r.reported_id
          left join "user" rpu on rpu.id = r.reporter_id
          left join profiles rpp on rpp.id = r.reporter_id
          left join "user" rb on rb.id = r.resolved_by
          left join mixers m on m.id = r.mixer_id
         where ${open ? sql`r.status = 'open'` : sql`r.status <> 'open'`} and ${after}
         order by ${order}
         limit ${opts.limit + 1}`,
  );
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      reason: r.reason,
      details: r.details,
      status: r.status,
      resolution: r.resolution,
      resolvedBy: r.resolved_by,
      resolvedAt: r.resolved_at,
      createdAt: r.created_at,
      reporter: r.reporter_id ? { id: r.reporter_id, name: r.reporter_name ?? '', email: r.reporter_email ?? '' } : null,
      // A member who deleted their account leaves the report behind, anonymised.
      reported: r.reported_id
        ? {
            id: r.reported_id,
            name: r.reported_name ?? '',
            email: r.reported_email ?? '',
            joinedAt: r.reported_joined ?? '',
            suspended: Boolean(r.reported_banned),
            reportsTotal: r.reported_total,
            warnings: r.reported_warnings,
            identityChanges: toIdentityChanges(r.reported_identity),
          }
        : null,
      mixer: r.mixer_id
        ? { id: r.mixer_id, title: r.mixer_title ?? '', status: r.mixer_status ?? '', startsAt: r.mixer_starts ?? '' }
        : null,
      mixerMessages: parseJson(r.mixer_messages, []),
      directMessages: parseJson(r.direct_messages, []),
    })),
    nextCursor: more && last ? encodeCursor(last.sort, last.id) : null,
  };
}

interface LockedReport {
  id: string;
  status: string;
  reporter_id: string | null;
  reporter_email: string | null;
  reporter_name: string | null;
  reported_id: string | null;
  reported_email: string | null;
  reported_name: string | null;
  reported_role: string | null;
}

interface Contact {
  id: string;
  email: string;
  name: string | null;
}

/**
 * Suspends a member in one transaction: banned (better-auth then refuses their sign-in), every
 * session deleted, and every open report against them resolved as suspended. Returns the
 * reporters of those reports. The caller ends the member's sockets after commit.
 */
async function suspendInTx(tx: Queryable, actorId: string, memberId: string, reason: string, reportId: string | null): Promise<Contact[]> {
  await tx.execute(
    sql`update "user" set banned = true, ban_reason = ${reason}, ban_expires = null, updated_at = now() where id = ${memberId}`,
  );
  await tx.execute(sql`delete from session where user_id = ${memberId}`);
  const reporters = await query<Contact>(
    tx,
    sql`with done as (
          update reports set status = 'suspended', resolution = ${reason}, resolved_by = ${actorId}, resolved_at = now()
           where reported_id = ${memberId} and status = 'open'
          returning reporter_id
        )
        select distinct u.id, u.email, ${displayName('')} as name
          from done join "user" u on u.id = done.reporter_id left join profiles p on p.id = u.id`,
  );
  await recordAudit(tx, actorId, 'member.suspend', memberId, { reason, reportId });
  return reporters;
}

/** Ends a suspended member's sockets at once, on every instance, and frees every seat and invitation they held (issue 30). */
async function endSockets(app: FastifyInstance, memberId: string) {
  await app.realtime.closeUser(memberId, 'suspended');
  await takeOutOfMixers(app.deps, (room, event) => app.realtime.publish(room, event), memberId);
}

const reporterThanks = (to: Contact, reportedName: string | null, acted: boolean, reason: string, publicUrl: string) => {
  const about = reportedName ? memberNameForMail(firstName(reportedName), 'the member') : 'the member';
  return composeMail(to.email, {
    subject: 'About your report',
    greeting: `Hi ${firstName(to.name)},`,
    lines: acted
      ? [
          `Thank you for telling us about ${about}. We looked into it and have taken action.`,
          "To protect everyone's privacy we can't share the details, but reports like yours keep Fancy kind and safe.",
        ]
      : [
          `Thank you for telling us about ${about}. We looked into it carefully and did not find a breach of our guidelines this time.`,
          `Our note: ${reason}`,
          'If anything else happens, you can block the member and report again at any time.',
        ],
    action: { label: 'Open Fancy', url: `${publicUrl}/home` },
  });
};

/** Handles an open report: dismiss (the reporter is told why), warn (mail) or suspend, with the reason the member is told. */
export async function resolveReport(
  app: FastifyInstance,
  actorId: string,
  reportId: string,
  input: { action: ReportAction; reason: string },
): Promise<{ status: AdminReport['status'] }> {
  if (!isUuid(reportId)) throw new AppError('not_found', ADMIN_MESSAGES.reportNotFound);
  const { publicUrl } = app.deps.config;
  const outcome = await app.deps.database.db.transaction(async (tx) => {
    const [report] = await query<LockedReport>(
      tx,
      sql`select r.id, r.status, r.reporter_id, rpu.email as reporter_email, ${displayName('rp')} as reporter_name,
                 r.reported_id, dpu.email as reported_email, ${displayName('dp')} as reported_name, dpu.role as reported_role
            from reports r
            left join "user" dpu on dpu.id = r.reported_id left join profiles dpp on dpp.id = r.reported_id
            left join "user" rpu on rpu.id = r.reporter_id left join profiles rpp on rpp.id = r.reporter_id
           where r.id = ${reportId}::uuid
           for update of r`,
    );
    if (!report) throw new AppError('not_found', ADMIN_MESSAGES.reportNotFound);
    if (report.status !== 'open') throw new AppError('conflict', ADMIN_MESSAGES.reportHandled);
    const reporter: Contact | null = report.reporter_id
      ? { id: report.reporter_id, email: report.reporter_email ?? '', name: report.reporter_name }
      : null;
    if (!report.reported_id && input.action !== 'dismiss') throw new AppError('conflict', ADMIN_MESSAGES.reportedAccountDeleted);
    if (input.action === 'suspend' && report.reported_id) {
      if (report.reported_role === 'admin') throw new AppError('conflict', ADMIN_MESSAGES.cannotSuspendAdmin);
      const reporters = await suspendInTx(tx, actorId, report.reported_id, input.reason, report.id);
      return { report, status: 'suspended' as const, reporters };
    }
    const status = input.action === 'dismiss' ? ('dismissed' as const) : ('warned' as const);
    await tx.execute(
      sql`update reports set status = ${status}, resolution = ${input.reason}, resolved_by = ${actorId}, resolved_at = now() where id = ${report.id}::uuid`,
    );
    await recordAudit(tx, actorId, input.action === 'dismiss' ? 'report.dismiss' : 'report.warn', report.id, {
      member: report.reported_id,
      reason: input.reason,
    });
    return { report, status, reporters: reporter ? [reporter] : [] };
  });

  const { report, status, reporters } = outcome;
  const mailer = app.deps.mailer;
  if (status === 'suspended' && report.reported_id && report.reported_email) {
    await endSockets(app, report.reported_id);
    await mailer.sendMail(
      composeMail(report.reported_email, {
        subject: 'Your Fancy account has been suspended',
        greeting: `Hi ${firstName(report.reported_name)},`,
        lines: [
          'We reviewed a report about your account and have suspended it, so you can no longer sign in.',
          `The reason: ${input.reason}`,
          'If you think this is a mistake, contact our support team and tell us why.',
        ],
        action: { label: 'Contact support', url: `${publicUrl}/contact-support` },
      }),
    );
  } else if (status === 'warned' && report.reported_id && report.reported_email) {
    await app.realtime.publish(`user:${report.reported_id}`, {
      type: 'notice',
      title: 'A warning from the Fancy team',
      description: input.reason,
    });
    await mailer.sendMail(
      composeMail(report.reported_email, {
        subject: 'A warning about your Fancy account',
        greeting: `Hi ${firstName(report.reported_name)},`,
        lines: [
          'Another member reported something that happened on Fancy, and we have reviewed it.',
          `What we found: ${input.reason}`,
          'Please keep to our community guidelines: be kind, respectful and honest. If it happens again, we may suspend your account.',
        ],
        action: { label: 'Read our terms', url: `${publicUrl}/terms` },
      }),
    );
  }
  for (const r of reporters) {
    if (r.email) await mailer.sendMail(reporterThanks(r, report.reported_name, status !== 'dismissed', input.reason, publicUrl));
  }
  return { status };
}

/** Lifts a suspension; the member is told why by mail. */
export async function unsuspendMember(app: FastifyInstance, actorId: string, memberId: string, reason: string): Promise<{ ok: true }> {
  const member = await app.deps.database.db.transaction(async (tx) => {
    const [row] = await query<Contact & { banned: boolean | null }>(
      tx,
      sql`select u.id, u.email, ${displayName('')} as name, u.banned from "user" u left join profiles p on p.id = u.id
           where u.id = ${memberId} for update of u`,
    );
    if (!row) throw new AppError('not_found', ADMIN_MESSAGES.memberNotFound);
    if (!row.banned) throw new AppError('conflict', ADMIN_MESSAGES.notSuspended);
    await tx.execute(
      sql`update "user" set banned = false, ban_reason = null, ban_expires = null, updated_at = now() where id = ${memberId}`,
    );
    await recordAudit(tx, actorId, 'member.unsuspend', memberId, { reason });
    return row;
  });
  await app.deps.mailer.sendMail(
    composeMail(member.email, {
      subject: 'Your Fancy account is active again',
      greeting: `Hi ${firstName(member.name)},`,
      lines: ['We have lifted the suspension of your account, so you can sign in again.', `The reason: ${reason}`, 'Welcome back.'],
      action: { label: 'Log in to Fancy', url: `${app.deps.config.publicUrl}/auth/login` },
    }),
  );
  return { ok: true };
}

/** Suspended members, latest suspension first, with who suspended them and why. */
export async function listSuspended(db: Queryable): Promise<SuspendedMember[]> {
  const rows = await query<{
    id: string;
    name: string;
    email: string;
    reason: string | null;
    suspended_at: string | null;
    suspended_by: string | null;
  }>(
    db,
    sql`select u.id, ${displayName('')} as name, u.email, u.ban_reason as reason,
               ${iso(sql`a.created_at`)} as suspended_at, au.name as suspended_by
          from "user" u
          left join profiles p on p.id = u.id
          left join lateral (select created_at, actor_id from audit_log
                              where action = 'member.suspend' and target = u.id order by created_at desc limit 1) a on true
          left join "user" au on au.id = a.actor_id
         where u.banned
         order by a.created_at desc nulls last, u.id
         limit 200`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    reason: r.reason,
    suspendedAt: r.suspended_at,
    suspendedBy: r.suspended_by,
  }));
}
