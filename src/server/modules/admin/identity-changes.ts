import { type SQL, sql } from 'drizzle-orm';
import { IDENTITY_CHANGES_SHOWN, type IdentityChange } from '../../../shared/schemas/admin';
import { IDENTITY_AUDIT_ACTIONS, type IdentityKind } from '../../../shared/schemas/profile';
import { iso, parseJson, type Queryable, query } from '../../lib/sql';

/**
 * A member's latest identity changes as admins see them (issue 32): the audit entries the
 * profile module writes for gender identity and orientation/looking-for, newest first. Never
 * shown to other members.
 */

const KIND_OF: Record<string, IdentityKind> = Object.fromEntries(
  Object.entries(IDENTITY_AUDIT_ACTIONS).map(([kind, action]) => [action, kind as IdentityKind]),
);
const ACTIONS = Object.values(IDENTITY_AUDIT_ACTIONS);

/** SQL: a json array of { action, at, details } for member `userId` (a column or an id), newest first. */
export const identityChangesJson = (userId: SQL | string) => sql`(
  select coalesce(json_agg(json_build_object('action', y.action, 'at', y.at, 'details', y.details) order by y.created_at desc), '[]'::json)
    from (select a.action, a.details, a.created_at, ${iso(sql`a.created_at`)} as at from audit_log a
           where a.target = ${userId} and a.action in (${sql.join(
             ACTIONS.map((a) => sql`${a}`),
             sql`, `,
           )})
           order by a.created_at desc limit ${IDENTITY_CHANGES_SHOWN}) y)`;

type Values = Record<string, string[] | undefined>;
const label = (v: Values | undefined) =>
  [...(v?.genderIdentities ?? []), ...(v?.sexualOrientations ?? []), ...(v?.lookingFor ?? [])].join(' · ') || '—';

/** The rows of `identityChangesJson` (parsed or not) as the admin pages show them. */
export function toIdentityChanges(raw: unknown): IdentityChange[] {
  const rows = parseJson(raw as { action: string; at: string; details: string | null }[] | string | null, []);
  return rows.flatMap((r) => {
    const kind = KIND_OF[r.action];
    if (!kind) return [];
    let details: { from?: Values; to?: Values } = {};
    try {
      details = r.details ? JSON.parse(r.details) : {};
    } catch {
      details = {};
    }
    return [{ kind, at: r.at, from: label(details.from), to: label(details.to) }];
  });
}

/** GET /api/admin/members/:id/identity-changes */
export async function listIdentityChanges(db: Queryable, userId: string): Promise<{ changes: IdentityChange[] }> {
  const [row] = await query<{ changes: unknown }>(db, sql`select ${identityChangesJson(userId)} as changes`);
  return { changes: toIdentityChanges(row?.changes) };
}
