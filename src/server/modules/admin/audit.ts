import { sql } from 'drizzle-orm';
import type { AuditEntry, Page } from '../../../shared/schemas/admin';
import { REMINDER_ACTION } from '../../lib/mixer-reminders';
import { decodeCursor, encodeCursor, micros } from './sql';
import { iso, type Queryable, query } from '../../lib/sql';

export { recordAudit } from '../../lib/audit';

export interface AuditRow {
  id: string;
  action: string;
  target: string | null;
  details: string | null;
  created_at: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
}

/** An audit_log row joined with its actor (`actor_name`, `actor_email`) → what the admin pages show. */
export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    action: r.action,
    target: r.target,
    details: r.details,
    createdAt: r.created_at,
    actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' } : null,
  };
}

/** The admin actions in the audit log, newest first, keyset-paginated (the reminder mails it also records are not admin actions). */
export async function listAudit(db: Queryable, opts: { cursor?: string; limit: number }): Promise<Page<AuditEntry>> {
  const cursor = decodeCursor(opts.cursor);
  const after = cursor
    ? sql`(${micros(sql`a.created_at`)} < ${cursor.sort}::bigint or (${micros(sql`a.created_at`)} = ${cursor.sort}::bigint and a.id < ${cursor.id}::uuid))`
    : sql`true`;
  const rows = await query<AuditRow & { sort: string }>(
    db,
    sql`select a.id, a.action, a.target, a.details, ${iso(sql`a.created_at`)} as created_at, ${micros(sql`a.created_at`)}::text as sort,
          a.actor_id, u.name as actor_name, u.email as actor_email
        from audit_log a left join "user" u on u.id = a.actor_id
       where ${after} and a.action <> ${REMINDER_ACTION}
       order by a.created_at desc, a.id desc
       limit ${opts.limit + 1}`,
  );
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map(toAuditEntry),
    nextCursor: more && last ? encodeCursor(last.sort, last.id) : null,
  };
}
