import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_TZ } from '../../../shared/constants';
import { composeMail } from '../../infra/mail/template';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { REMINDER_ACTION, REMINDER_INTERVAL_MS, REMINDER_LEAD_MS } from '../../lib/mixer-reminders';

interface DueRow {
  mixer_id: string;
  title: string;
  starts_at: string | Date;
  email: string;
  name: string;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];

const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, hour: '2-digit', minute: '2-digit' });

/**
 * Mails every joined member of a mixer that starts within the next 15 minutes, once: the
 * reminder is recorded in `audit_log` in the same statement that picks the recipients, under
 * a transaction-scoped advisory lock, so overlapping runs (or several instances) never send
 * it twice. Members who turned "Mixer starting soon" off (`notifyMixerSoon: false`), banned
 * and unverified accounts get nothing. Returns the number of mails sent.
 */
export async function sendMixerReminders(app: FastifyInstance, now: Date): Promise<number> {
  const { db } = app.deps.database;
  const from = now.toISOString();
  const until = new Date(now.getTime() + REMINDER_LEAD_MS).toISOString();
  const due = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('fancy.mixer_reminders'))`);
    return rowsOf<DueRow>(
      await tx.execute(sql`
        with due as (
          select m.id as mixer_id, m.title, m.starts_at, u.id as user_id, u.email,
                 coalesce(nullif(btrim(p.full_name), ''), u.name) as name
            from mixers m
            join mixer_memberships mm on mm.mixer_id = m.id and mm.state = 'joined'
            join "user" u on u.id = mm.user_id
            left join profiles p on p.id = u.id
           where m.status = 'scheduled'
             and m.starts_at > ${from}::timestamptz and m.starts_at <= ${until}::timestamptz
             and u.email_verified and u.banned is not true
             and (p.preferences ->> 'notifyMixerSoon') is distinct from 'false'
             and not exists (
               select 1 from audit_log a
                where a.action = ${REMINDER_ACTION} and a.target = m.id::text || ':' || u.id)
        ),
        marked as (
          insert into audit_log (action, target, details)
          select ${REMINDER_ACTION}, mixer_id::text || ':' || user_id, title from due
          returning target
        )
        select due.mixer_id, due.title, due.starts_at, due.email, due.name
          from due join marked on marked.target = due.mixer_id::text || ':' || due.user_id`),
    );
  });

  const site = app.deps.config.publicUrl;
  for (const row of due) {
    const at = timeFormat.format(new Date(row.starts_at));
    await app.deps.mailer.sendMail(
      composeMail(row.email, {
        subject: `Your mixer "${row.title}" starts soon`,
        greeting: `Hi ${row.name},`,
        lines: [`"${row.title}" starts at ${at} (UK time). Grab a drink, find a comfy spot and say hello to the group.`],
        action: { label: 'Open the mixer', url: `${site}/mixers/${row.mixer_id}` },
        footer: 'You get this because you joined this mixer. Turn these mails off in Settings → Notifications.',
      }),
    );
  }
  return due.length;
}

/**
 * Runs `sendMixerReminders` when the app is ready and every minute after; the timer is
 * unref'd and cleared on close, and close waits for a run in progress.
 */
export function startMixerReminders(app: FastifyInstance, intervalMs = REMINDER_INTERVAL_MS) {
  startPeriodicJob(app, 'mixer reminders', intervalMs, (now) => sendMixerReminders(app, now));
}
