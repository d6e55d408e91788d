import { sql } from 'drizzle-orm';
import type { Queryable } from './sql';

/**
 * Records one action (who, what, when); `actorId` null for automatic ones (expiry, formation).
 * Pass the transaction of the action so the entry exists exactly when the action happened.
 * Lives here rather than in the admin module, which reads the log, so that any module can
 * write an entry without importing admin's files (decision 027): profiles records identity
 * changes, and admin's own files import profiles' neighbours.
 */
export async function recordAudit(
  db: Queryable,
  actorId: string | null,
  action: string,
  target: string | null,
  details?: Record<string, unknown> | string | null,
): Promise<void> {
  const text = details == null ? null : typeof details === 'string' ? details : JSON.stringify(details);
  await db.execute(sql`insert into audit_log (actor_id, action, target, details) values (${actorId}, ${action}, ${target}, ${text})`);
}
