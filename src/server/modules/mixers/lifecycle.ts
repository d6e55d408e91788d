import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '../../../shared/realtime/events';
import { ATTENDED_ARRIVED_WITHIN, ATTENDED_PRESENT_FOR } from '../../../shared/reliability';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import type { Publish } from '../../deps';
import { rowsOf } from '../../lib/sql';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { afterMixerHook } from '../after-mixer/service';

/** How often each instance moves mixers along (DESIGN §6: status follows the clock on the server). */
export const LIFECYCLE_INTERVAL_MS = 20_000;

interface TransitionRow {
  mixer_id: string;
  message_id: string;
  body: string;
  created_at: string;
  members: string[];
}

const isoMs = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Moves mixers along by the clock: scheduled → live (posting the topic icebreaker), live →
 * ended (posting a closing line), and scheduled mixers whose whole window passed → ended.
 *
 * Each transition is one conditional `UPDATE … WHERE status = … RETURNING` with its message
 * insert in the same statement, so it is idempotent and safe when several instances (or two
 * overlapping runs) do it at once: a row changes status, and gets its message, exactly once.
 */
export async function advanceMixers(
  db: Db,
  now: Date,
  publish: Publish,
  /** Runs once with the mixers this call moved live → ended (the "Who did you click with?" prompt). */
  onEnded?: (mixerIds: string[]) => Promise<void>,
): Promise<{ started: string[]; ended: string[] }> {
  const at = now.toISOString();

  const started = rowsOf<TransitionRow>(
    await db.execute(sql`
      with started as (
        update mixers set status = 'live'
         where status = 'scheduled' and starts_at <= ${at}::timestamptz and ends_at > ${at}::timestamptz
        returning id, topic, icebreaker, starts_at
      ),
      ice as (
        insert into mixer_messages (mixer_id, sender_id, kind, body, created_at)
        select id, null, 'icebreaker',
               coalesce(nullif(btrim(icebreaker), ''), 'Welcome, everyone! To break the ice: what first got you into ' || topic || ', and what do you love most about it?'),
               starts_at
          from started
        returning id, mixer_id, body, created_at
      )
      select ice.mixer_id, ice.id as message_id, ice.body, ${isoMs('ice.created_at')} as created_at,
             array(select c.user_id from mixer_memberships c where c.mixer_id = ice.mixer_id and c.state = 'joined') as members
        from ice`),
  );

  const ended = rowsOf<TransitionRow>(
    await db.execute(sql`
      with ended as (
        update mixers set status = 'ended'
         where status = 'live' and ends_at <= ${at}::timestamptz
        returning id, starts_at, ends_at
      ),
      closing as (
        insert into mixer_messages (mixer_id, sender_id, kind, body, created_at)
        select id, null, 'system', ${MIXER_MESSAGES.endedSystem}, ends_at from ended
        returning id, mixer_id, body, created_at
      ),
      attendance as (
        -- Each member still in it, or who left while it was live: attended or no_show — leaving
        -- once it started does not wipe the record. Attended (decision 014, issue 32): wrote a
        -- line, and was there from within the first quarter and still at the end, or for at least
        -- half of it (their last stay: a rejoin restarts joined_at). An upsert, so a member who
        -- left late and came back gets their real outcome (reliability, issue 14).
        insert into mixer_attendance (mixer_id, user_id, outcome, recorded_at)
        select e.id, c.user_id,
               case when exists (select 1 from mixer_messages w
                                  where w.mixer_id = e.id and w.sender_id = c.user_id and w.kind = 'member')
                     and ((c.state = 'joined'
                           and greatest(c.joined_at, e.starts_at) <= e.starts_at + (e.ends_at - e.starts_at) * ${ATTENDED_ARRIVED_WITHIN}::float8)
                          or (case when c.state = 'joined' then e.ends_at else least(c.left_at, e.ends_at) end)
                             - greatest(c.joined_at, e.starts_at) >= (e.ends_at - e.starts_at) * ${ATTENDED_PRESENT_FOR}::float8)
                    then 'attended' else 'no_show' end,
               e.ends_at
          from ended e join mixer_memberships c
            on c.mixer_id = e.id and (c.state = 'joined' or (c.state = 'left' and c.left_at >= e.starts_at))
        on conflict (mixer_id, user_id) do update set outcome = excluded.outcome, recorded_at = excluded.recorded_at
        returning 1
      )
      select closing.mixer_id, closing.id as message_id, closing.body, ${isoMs('closing.created_at')} as created_at,
             array(select c.user_id from mixer_memberships c where c.mixer_id = closing.mixer_id and c.state = 'joined') as members
        from closing`),
  );

  // Mixers whose whole window passed while no instance was running never went live.
  const missed = rowsOf<{ id: string }>(
    await db.execute(sql`
      update mixers set status = 'ended' where status = 'scheduled' and ends_at <= ${at}::timestamptz returning id`),
  );

  const announce = async (rows: TransitionRow[], kind: ChatMessage['kind'], delta: 1 | -1) => {
    for (const row of rows) {
      const message: ChatMessage = {
        id: row.message_id,
        mixerId: row.mixer_id,
        kind,
        body: row.body,
        createdAt: row.created_at,
        sender: null,
      };
      await publish(`mixer:${row.mixer_id}`, { type: 'mixer.message', message });
      await publish(`mixer:${row.mixer_id}`, { type: 'mixer.updated', mixerId: row.mixer_id });
      for (const userId of row.members ?? []) {
        await publish(`user:${userId}`, { type: 'counter', key: 'activeMixers', delta });
        await publish(`user:${userId}`, { type: 'mixer.updated', mixerId: row.mixer_id });
      }
    }
  };
  await announce(started, 'icebreaker', 1);
  await announce(ended, 'system', -1);
  for (const { id } of missed) await publish(`mixer:${id}`, { type: 'mixer.updated', mixerId: id });
  if (onEnded && ended.length) await onEnded(ended.map((r) => r.mixer_id));

  return { started: started.map((r) => r.mixer_id), ended: [...ended.map((r) => r.mixer_id), ...missed.map((r) => r.id)] };
}

/**
 * Runs `advanceMixers` when the app is ready and every LIFECYCLE_INTERVAL_MS after; the
 * timer is unref'd and cleared on close, and close waits for a run in progress.
 */
export function startMixerLifecycle(app: FastifyInstance, intervalMs = LIFECYCLE_INTERVAL_MS) {
  startPeriodicJob(app, 'mixer lifecycle', intervalMs, (now) => advanceAppMixers(app, now));
}

/** One lifecycle run of this app: its database, its realtime hub, and the after-mixer prompts. */
export function advanceAppMixers(app: FastifyInstance, now: Date) {
  return advanceMixers(app.deps.database.db, now, (room, event) => app.realtime.publish(room, event), afterMixerHook(app));
}
