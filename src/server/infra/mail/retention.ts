import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { startPeriodicJob } from '../jobs/periodic';

/** Mails (sent, kept for the dev mailbox, or given up on) are kept this long, then purged. */
export const MAIL_RETENTION_DAYS = 30;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes every outbox row older than the retention window; returns how many went. */
export async function purgeOldMail(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - MAIL_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const gone = await db.delete(mailOutbox).where(lt(mailOutbox.createdAt, cutoff)).returning({ id: mailOutbox.id });
  return gone.length;
}

export function startMailRetention(app: FastifyInstance, intervalMs = PURGE_INTERVAL_MS) {
  startPeriodicJob(app, 'mail retention', intervalMs, (now) => purgeOldMail(app.deps.database.db, now));
}
