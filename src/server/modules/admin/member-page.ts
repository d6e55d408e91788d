import { sql } from 'drizzle-orm';
import type {
  AdminMemberAction,
  AdminMemberDetail,
  AdminMemberHit,
  AdminMemberReport,
  AdminMemberRestriction,
  AdminMemberSearch,
} from '../../../shared/schemas/admin-members';
import { ADMIN_MEMBER_MESSAGES } from '../../../shared/schemas/admin-members';
import { IDENTITY_AUDIT_ACTIONS } from '../../../shared/schemas/profile';
import { AppError } from '../../http/errors';
import { iso, type Queryable, query } from '../../lib/sql';
import { toIdentityChanges } from './identity-changes';

/**
 * The admin member pages (issue 32): search members by name or e-mail, and one member's account,
 * identity changes (from the audit log) and moderation history. Admins only.
 */

/** How many identity changes, actions and reports the member page lists (newest first). */
const HISTORY_SHOWN = 50;

const displayName = sql`coalesce(nullif(btrim(p.full_name), ''), u.name)`;
/** A suspension or mute still running, or a ban not reversed. */
const inForce = sql`a.reversed_at is null and (a.action = 'ban' or (a.action in ('suspend', 'mute') and a.ends_at > now()))`;

/** `%…%` for ILIKE, with the wildcards in the text taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** GET /api/admin/members?q= — case-insensitive, by display name, account name or e-mail; exact e-mail first. */
export async function searchMembers(db: Queryable, q: string, limit: number): Promise<AdminMemberSearch> {
  const pattern = likePattern(q);
  const rows = await query<{
    id: string;
    name: string;
    email: string;
    joined_at: string;
    role: string | null;
    verified: boolean;
    restricted: boolean;
  }>(
    db,
    sql`select u.id, ${displayName} as name, u.email, ${iso(sql`u.created_at`)} as joined_at, u.role,
               exists (select 1 from member_verifications v where v.user_id = u.id and v.status = 'verified') as verified,
               (coalesce(u.banned, false) or exists (select 1 from moderation_actions a
                  where a.member_id = u.id and ${inForce} and a.action in ('suspend', 'ban'))) as restricted
          from "user" u
          left join profiles p on p.id = u.id
         where u.email ilike ${pattern} or u.name ilike ${pattern} or p.full_name ilike ${pattern}
         order by (lower(u.email) = lower(${q})) desc, lower(${displayName}), u.id
         limit ${limit + 1}`,
  );
  const hits: AdminMemberHit[] = rows.slice(0, limit).map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    joinedAt: r.joined_at,
    role: r.role ?? 'user',
    verified: Boolean(r.verified),
    restricted: Boolean(r.restricted),
  }));
  return { members: hits, more: rows.length > limit };
}

/** GET /api/admin/members/:id — 404 for an unknown id. */
export async function memberDetail(db: Queryable, id: string): Promise<AdminMemberDetail> {
  const [u] = await query<{
    id: string;
    name: string;
    email: string;
    email_verified: boolean;
    joined_at: string;
    last_seen_at: string | null;
    role: string | null;
    onboarding_complete: boolean;
    banned: boolean | null;
    ban_reason: string | null;
    ban_expires: string | null;
  }>(
    db,
    sql`select u.id, ${displayName} as name, u.email, u.email_verified, ${iso(sql`u.created_at`)} as joined_at,
               ${iso(sql`u.last_seen_at`)} as last_seen_at, u.role, u.onboarding_complete, u.banned, u.ban_reason,
               ${iso(sql`u.ban_expires`)} as ban_expires
          from "user" u left join profiles p on p.id = u.id
         where u.id = ${id}`,
  );
  if (!u) throw new AppError('not_found', ADMIN_MEMBER_MESSAGES.notFound);

  const identityActions = Object.values(IDENTITY_AUDIT_ACTIONS);
  const [verification, identity, actions, reportCounts, latestReports] = await Promise.all([
    query<{ status: string; method: string; model_version: string; verified_at: string | null; revoked_reason: string | null }>(
      db,
      sql`select status, method, model_version, ${iso(sql`verified_at`)} as verified_at, revoked_reason
            from member_verifications where user_id = ${id}`,
    ),
    query<{ action: string; at: string; details: string | null }>(
      db,
      sql`select a.action, ${iso(sql`a.created_at`)} as at, a.details from audit_log a
           where a.target = ${id} and a.action in (${sql.join(
             identityActions.map((a) => sql`${a}`),
             sql`, `,
           )})
           order by a.created_at desc, a.id desc limit ${HISTORY_SHOWN}`,
    ),
    query<{
      id: string;
      action: AdminMemberAction['action'];
      rule: string;
      at: string;
      ends_at: string | null;
      days: number | null;
      reversed_at: string | null;
      by: string | null;
      report_id: string | null;
      in_force: boolean;
    }>(
      db,
      sql`select a.id, a.action, a.rule, ${iso(sql`a.created_at`)} as at, ${iso(sql`a.ends_at`)} as ends_at, a.days,
                 ${iso(sql`a.reversed_at`)} as reversed_at, au.name as by, a.report_id, (${inForce}) as in_force
            from moderation_actions a left join "user" au on au.id = a.actor_id
           where a.member_id = ${id}
           order by a.created_at desc, a.id desc limit ${HISTORY_SHOWN}`,
    ),
    query<{ total: number; open: number; made: number }>(
      db,
      sql`select (select count(*)::int from reports where reported_id = ${id}) as total,
                 (select count(*)::int from reports where reported_id = ${id} and status = 'open') as open,
                 (select count(*)::int from reports where reporter_id = ${id}) as made`,
    ),
    query<{ id: string; reason: string; status: string; at: string; reporter: string | null }>(
      db,
      sql`select r.id, r.reason, r.status, ${iso(sql`r.created_at`)} as at, coalesce(nullif(btrim(rp.full_name), ''), ru.name) as reporter
            from reports r left join "user" ru on ru.id = r.reporter_id left join profiles rp on rp.id = r.reporter_id
           where r.reported_id = ${id}
           order by r.created_at desc, r.id desc limit ${HISTORY_SHOWN}`,
    ),
  ]);

  const restrictions: AdminMemberRestriction[] = actions
    .filter((a) => a.in_force && (a.action === 'suspend' || a.action === 'mute' || a.action === 'ban'))
    .map((a) => ({
      kind: a.action as AdminMemberRestriction['kind'],
      rule: a.rule,
      since: a.at,
      endsAt: a.action === 'ban' ? null : a.ends_at,
    }));
  // The account's own block flag (set by a suspension or ban) with no running action behind it.
  if (u.banned && !restrictions.some((r) => r.kind === 'ban' || r.kind === 'suspend')) {
    restrictions.push({ kind: 'ban', rule: u.ban_reason, since: null, endsAt: u.ban_expires });
  }
  const v = verification[0];
  const counts = reportCounts[0] ?? { total: 0, open: 0, made: 0 };
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: Boolean(u.email_verified),
    joinedAt: u.joined_at,
    lastSeenAt: u.last_seen_at,
    role: u.role ?? 'user',
    onboardingComplete: Boolean(u.onboarding_complete),
    verification: v
      ? { status: v.status, method: v.method, modelVersion: v.model_version, verifiedAt: v.verified_at, revokedReason: v.revoked_reason }
      : null,
    restrictions,
    identityChanges: toIdentityChanges(identity),
    actions: actions.map((a) => ({
      id: a.id,
      action: a.action,
      rule: a.rule,
      at: a.at,
      endsAt: a.ends_at,
      days: a.days,
      reversedAt: a.reversed_at,
      by: a.by,
      reportId: a.report_id,
    })),
    reports: {
      total: Number(counts.total),
      open: Number(counts.open),
      made: Number(counts.made),
      latest: latestReports satisfies AdminMemberReport[],
    },
  };
}
