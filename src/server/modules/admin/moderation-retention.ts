import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EVIDENCE_RETENTION_MONTHS } from '../../../shared/schemas/moderation';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { query } from '../../lib/sql';

const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Frozen evidence (issue 30) is kept 12 months after its report was closed, then purged: the
 * copied lines and profile text are dropped, the photo copy deleted and the line quoted in the
 * moderation actions on the report cleared. The report row (reason, the reporter's own words, the
 * outcome) and the action (rule, dates) stay. Idempotent, so every instance may run it.
 */
export async function purgeOldEvidence(app: FastifyInstance, now: Date): Promise<number> {
  const db = app.deps.database.db;
  const cutoff = sql`${now.toISOString()}::timestamptz - make_interval(months => ${EVIDENCE_RETENTION_MONTHS})`;
  const gone = await query<{ key: string | null }>(
    db,
    sql`with old as (
          select id, evidence_photo_key from reports
           where status <> 'open' and evidence is not null and resolved_at < ${cutoff}
           for update skip locked
        )
        update reports r set evidence = null, evidence_photo_key = null from old where r.id = old.id
        returning old.evidence_photo_key as key`,
  );
  // The line quoted in the decisions about those reports goes with them.
  await db.execute(
    sql`update moderation_actions a set quote = null from reports r
         where r.id = a.report_id and a.quote is not null and r.status <> 'open' and r.resolved_at < ${cutoff}`,
  );
  for (const { key } of gone) if (key) await app.deps.storage.remove(key).catch(() => {});
  return gone.length;
}

/** A suspension for 1, 7 or 30 days ends by itself: the member may sign in again and reappears in rooms. */
export async function liftEndedSuspensions(app: FastifyInstance, now: Date): Promise<number> {
  const lifted = await query<{ id: string }>(
    app.deps.database.db,
    sql`update "user" set banned = false, ban_reason = null, ban_expires = null, updated_at = now()
         where banned is true and ban_expires is not null and ban_expires <= ${now.toISOString()}::timestamptz returning id`,
  );
  return lifted.length;
}

export function startModerationRetention(app: FastifyInstance, intervalMs = INTERVAL_MS) {
  startPeriodicJob(app, 'moderation retention', intervalMs, async (now) => {
    await liftEndedSuspensions(app, now);
    return purgeOldEvidence(app, now);
  });
}
