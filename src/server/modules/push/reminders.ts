import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { HOUR } from '../../http/rate-limiter';
import { REMINDER_INTERVAL_MS, REMINDER_LEAD_MS } from '../../lib/mixer-reminders';
import { notify, removeEndedSubscriptions } from './service';

/** The `audit_log` action that records one push reminder, target `${mixerId}:${userId}` (as the mail's). */
export const PUSH_REMINDER_ACTION = 'mixer_reminder_push';

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];

/**
 * "A mixer I joined starts in 15 minutes" as a push, once per member and mixer, to members with
 * a device (independent of the e-mail choice): claimed in `audit_log` under an advisory lock like
 * the mail reminder, so several instances never push it twice.
 */
export async function sendMixerPushReminders(app: FastifyInstance, now: Date): Promise<number> {
  if (!app.deps.config.vapid) return 0;
  const { db } = app.deps.database;
  const from = now.toISOString();
  const until = new Date(now.getTime() + REMINDER_LEAD_MS).toISOString();
  const due = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('fancy.mixer_push_reminders'))`);
    return rowsOf<{ mixer_id: string; user_id: string; title: string }>(
      await tx.execute(sql`
        with due as (
          select m.id as mixer_id, m.title, mm.user_id
            from mixers m
            join mixer_memberships mm on mm.mixer_id = m.id and mm.state = 'joined'
           where m.status = 'scheduled'
             and m.starts_at > ${from}::timestamptz and m.starts_at <= ${until}::timestamptz
             and exists (select 1 from push_subscriptions s join session se on se.id = s.session_id
                          where s.user_id = mm.user_id and se.expires_at > now())
             and not exists (select 1 from audit_log a where a.action = ${PUSH_REMINDER_ACTION} and a.target = m.id::text || ':' || mm.user_id)
        ),
        marked as (
          insert into audit_log (action, target, details)
          select ${PUSH_REMINDER_ACTION}, mixer_id::text || ':' || user_id, title from due
          returning target
        )
        select due.mixer_id, due.user_id, due.title from due join marked on marked.target = due.mixer_id::text || ':' || due.user_id`),
    );
  });
  for (const r of due) {
    notify(app, r.user_id, { category: 'mixerSoon', url: `/mixers/${r.mixer_id}`, key: `mixer-soon:${r.mixer_id}`, detail: r.title });
  }
  return due.length;
}

export function startMixerPushReminders(app: FastifyInstance, intervalMs = REMINDER_INTERVAL_MS) {
  startPeriodicJob(app, 'mixer push reminders', intervalMs, (now) => sendMixerPushReminders(app, now));
}

/** Removes, hourly, the subscriptions of sessions that expired (sign-outs remove theirs at once). */
export function startPushSubscriptionSweep(app: FastifyInstance, intervalMs = HOUR) {
  startPeriodicJob(app, 'push subscription sweep', intervalMs, () => removeEndedSubscriptions(app));
}
