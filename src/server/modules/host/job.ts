import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '../../../shared/realtime/events';
import { HOST_NUDGE_AFTER_MS, HOST_TEXTS } from '../../../shared/schemas/host';
import type { Db } from '../../db/client';
import type { Publish } from '../../deps';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { epochMs, rowsOf } from '../../lib/sql';
import { defaultPrompts, pollFor, suggestedReply } from './prompts';
import { type HostAction, type HostProgress, type HostWindow, nextHostAction, nudgeDue } from './schedule';

/**
 * The host job (issue 29, docs/decisions/034): on every tick, for each live mixer whose host is
 * on, asks the schedule what is due and posts it; then gives quiet members their one nudge.
 *
 * Exactly once with several instances on one PostgreSQL, the way the lifecycle moves mixers:
 * every line is a single statement whose first step claims it on the mixer's `mixer_hosts` row
 * with a conditional UPDATE (`prompts_posted = <what I read>`, `game_at is null`, …) and whose
 * insert reads from that claim. Two instances that read the same state race on the row lock; the
 * second re-checks the condition after the first commits, matches nothing and inserts nothing.
 * A nudge is claimed by the primary key of `host_nudges` (`on conflict do nothing returning`).
 */

/** How often each instance looks (quiet-room prompts are due to the half-minute). */
const HOST_INTERVAL_MS = 30_000;
/** A run posts at most this many lines per mixer (a late run catches up without flooding). */
const MAX_ACTIONS_PER_MIXER = 3;

const isoMs = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

interface LiveRow {
  id: string;
  topic: string;
  starts_at: number | string;
  ends_at: number | string;
  prompts_posted: number | string;
  slots_done: number | string;
  last_host_at: number | string | null;
  game_posted: boolean;
  wrapup_posted: boolean;
  last_line_at: number | string | null;
  prompts: string[] | null;
}

interface LineRow {
  id: string;
  mixer_id: string;
  body: string;
  created_at: string;
  poll_id?: string | null;
}

export interface HostRun {
  /** Lines posted, by kind of action. */
  posted: { mixerId: string; type: string; messageId: string }[];
  nudged: { mixerId: string; userId: string }[];
}

const num = (v: number | string | null) => (v == null ? null : Number(v));

/** One run of the host at `now` (the injectable clock: tests and e2e choose the moment). */
export async function runHost(db: Db, now: Date, publish: Publish): Promise<HostRun> {
  const at = now.toISOString();
  // Every live mixer gets its claim sheet (the host is on unless an admin switched it off).
  await db.execute(sql`
    insert into mixer_hosts (mixer_id) select id from mixers where status = 'live' and ends_at > ${at}::timestamptz
    on conflict (mixer_id) do nothing`);

  const live = rowsOf<LiveRow>(
    await db.execute(sql`
      select m.id, m.topic, ${epochMs(sql`m.starts_at`)} as starts_at, ${epochMs(sql`m.ends_at`)} as ends_at,
             h.prompts_posted, h.slots_done, ${epochMs(sql`h.last_host_at`)} as last_host_at,
             h.game_at is not null as game_posted, h.wrapup_at is not null as wrapup_posted,
             (select ${epochMs(sql`max(x.created_at)`)} from mixer_messages x where x.mixer_id = m.id) as last_line_at,
             tp.prompts
        from mixers m
        join mixer_hosts h on h.mixer_id = m.id and h.enabled
        left join host_topic_prompts tp on tp.topic = m.topic
       where m.status = 'live' and m.starts_at <= ${at}::timestamptz and m.ends_at > ${at}::timestamptz
         and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.state = 'joined')`),
  );

  const run: HostRun = { posted: [], nudged: [] };
  for (const row of live) {
    const w: HostWindow = { startsAt: Number(row.starts_at), endsAt: Number(row.ends_at) };
    const p: HostProgress = {
      promptsPosted: Number(row.prompts_posted),
      slotsDone: Number(row.slots_done),
      lastHostAt: num(row.last_host_at),
      gamePosted: row.game_posted,
      wrapupPosted: row.wrapup_posted,
    };
    let lastLine = num(row.last_line_at);
    const prompts = row.prompts?.length ? row.prompts : defaultPrompts(row.topic);
    for (let i = 0; i < MAX_ACTIONS_PER_MIXER; i++) {
      const action = nextHostAction(w, p, lastLine, now.getTime());
      if (!action) break;
      const line = await claim(db, row.id, action, p, prompts, at);
      if (!line) break; // another instance got there first: it posts, this one reads again next tick
      applyAction(p, action, now.getTime());
      if (action.type === 'skip-slot') continue;
      lastLine = now.getTime();
      run.posted.push({ mixerId: row.id, type: action.type, messageId: line.id });
      const message: ChatMessage = {
        id: line.id,
        mixerId: row.id,
        kind: 'system',
        body: line.body,
        createdAt: line.created_at,
        sender: null,
      };
      await publish(`mixer:${row.id}`, { type: 'mixer.message', message });
      if (line.poll_id) await publish(`mixer:${row.id}`, { type: 'host.poll', mixerId: row.id, pollId: line.poll_id });
    }
  }

  run.nudged = await nudgeQuietMembers(db, now, publish);
  return run;
}

function applyAction(p: HostProgress, action: HostAction, now: number) {
  if (action.type === 'skip-slot') {
    p.slotsDone = action.slotsDone;
    return;
  }
  p.lastHostAt = now;
  if (action.type === 'prompt') {
    p.promptsPosted += 1;
    p.slotsDone = action.slotsDone;
  } else if (action.type === 'game') p.gamePosted = true;
  else p.wrapupPosted = true;
}

/** Claims one action on the mixer's row and posts its line in the same statement; null when it was not ours to post. */
async function claim(db: Db, mixerId: string, action: HostAction, p: HostProgress, prompts: string[], at: string): Promise<LineRow | null> {
  const stillLive = sql`exists (select 1 from mixers m where m.id = h.mixer_id and m.status = 'live')`;
  if (action.type === 'skip-slot') {
    const done = rowsOf<{ mixer_id: string }>(
      await db.execute(sql`
        update mixer_hosts h set slots_done = ${action.slotsDone}
         where h.mixer_id = ${mixerId} and h.enabled and h.slots_done = ${p.slotsDone} returning h.mixer_id`),
    );
    return done.length ? { id: '', mixer_id: mixerId, body: '', created_at: at } : null;
  }

  let update: SQL;
  let body: string;
  let poll: { question: string; options: string[] } | undefined;
  if (action.type === 'prompt') {
    body = prompts[p.promptsPosted % prompts.length];
    update = sql`
      update mixer_hosts h set prompts_posted = h.prompts_posted + 1, slots_done = ${action.slotsDone},
             last_host_at = ${at}::timestamptz, current_prompt = ${body}
       where h.mixer_id = ${mixerId} and h.enabled and ${stillLive}
         and h.prompts_posted = ${p.promptsPosted} and h.slots_done = ${p.slotsDone}
      returning h.mixer_id`;
  } else if (action.type === 'game') {
    poll = pollFor(mixerId);
    body = `${HOST_TEXTS.pollPrefix}${poll.question}`;
    update = sql`
      update mixer_hosts h set game_at = ${at}::timestamptz, last_host_at = ${at}::timestamptz
       where h.mixer_id = ${mixerId} and h.enabled and ${stillLive} and h.game_at is null
      returning h.mixer_id`;
  } else {
    body = HOST_TEXTS.wrapUp;
    update = sql`
      update mixer_hosts h set wrapup_at = ${at}::timestamptz, last_host_at = ${at}::timestamptz
       where h.mixer_id = ${mixerId} and h.enabled and ${stillLive} and h.wrapup_at is null
      returning h.mixer_id`;
  }
  const pollInsert = poll
    ? sql`, poll as (
        insert into host_polls (mixer_id, message_id, question, options)
        select mixer_id, id, ${poll.question}, array[${sql.join(
          poll.options.map((o) => sql`${o}`),
          sql`, `,
        )}]::text[] from line
        returning id)`
    : sql``;
  const [line] = rowsOf<LineRow>(
    await db.execute(sql`
      with claim as (${update}),
      line as (
        insert into mixer_messages (mixer_id, sender_id, kind, body, created_at)
        select mixer_id, null, 'system', ${body}, ${at}::timestamptz from claim
        returning id, mixer_id, body, created_at
      )${pollInsert}
      select line.id, line.mixer_id, line.body, ${isoMs('line.created_at')} as created_at,
             ${poll ? sql`(select id from poll)` : sql`null::uuid`} as poll_id
        from line`),
  );
  return line ?? null;
}

interface QuietRow {
  mixer_id: string;
  user_id: string;
  joined_at: number | string;
  starts_at: number | string;
  ends_at: number | string;
  prompt: string | null;
  topic: string;
  prompts: string[] | null;
}

/** Each member who has been in a live room for 10 minutes without a line gets one private nudge. */
async function nudgeQuietMembers(db: Db, now: Date, publish: Publish): Promise<{ mixerId: string; userId: string }[]> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - HOST_NUDGE_AFTER_MS).toISOString();
  const quiet = rowsOf<QuietRow>(
    await db.execute(sql`
      select c.mixer_id, c.user_id, ${epochMs(sql`c.joined_at`)} as joined_at,
             ${epochMs(sql`m.starts_at`)} as starts_at, ${epochMs(sql`m.ends_at`)} as ends_at,
             coalesce(h.current_prompt,
                      (select i.body from mixer_messages i where i.mixer_id = m.id and i.kind = 'icebreaker' order by i.created_at limit 1)) as prompt,
             m.topic, tp.prompts
        from mixer_memberships c
        join mixers m on m.id = c.mixer_id
        join mixer_hosts h on h.mixer_id = m.id and h.enabled
        join "user" u on u.id = c.user_id and u.banned is not true
        left join host_topic_prompts tp on tp.topic = m.topic
       where c.state = 'joined' and m.status = 'live' and m.ends_at > ${at}::timestamptz
         and m.starts_at <= ${since}::timestamptz and c.joined_at <= ${since}::timestamptz
         and not exists (select 1 from mixer_messages w where w.mixer_id = c.mixer_id and w.sender_id = c.user_id and w.kind = 'member')
         and not exists (select 1 from host_nudges n where n.mixer_id = c.mixer_id and n.user_id = c.user_id)`),
  );
  const nudged: { mixerId: string; userId: string }[] = [];
  for (const q of quiet) {
    const w = { startsAt: Number(q.starts_at), endsAt: Number(q.ends_at) };
    // Before any prompt or icebreaker line, the nudge answers the topic's first prompt.
    const prompt = q.prompt ?? (q.prompts?.length ? q.prompts : defaultPrompts(q.topic))[0];
    if (!nudgeDue(w, { joinedAt: Number(q.joined_at), hasWritten: false, nudged: false }, now.getTime())) continue;
    const reply = suggestedReply(`${q.mixer_id}:${q.user_id}`, prompt);
    const inserted = rowsOf<{ user_id: string }>(
      await db.execute(sql`
        insert into host_nudges (mixer_id, user_id, prompt, reply, created_at)
        values (${q.mixer_id}, ${q.user_id}, ${prompt}, ${reply}, ${at}::timestamptz)
        on conflict (mixer_id, user_id) do nothing returning user_id`),
    );
    if (!inserted.length) continue;
    nudged.push({ mixerId: q.mixer_id, userId: q.user_id });
    await publish(`user:${q.user_id}`, { type: 'host.nudge', mixerId: q.mixer_id });
  }
  return nudged;
}

/** Runs the host on this app every HOST_INTERVAL_MS (and once when ready). */
export function startHost(app: FastifyInstance, intervalMs = HOST_INTERVAL_MS) {
  // Under test the host posts only when a test runs it at a chosen moment (HOST_JOB=on to run it anyway).
  if (app.deps.config.hostJob === false) return;
  startPeriodicJob(app, 'mixer host', intervalMs, (now) => runAppHost(app, now));
}

/** One host run of this app at `now`: its database and its realtime hub. */
export function runAppHost(app: FastifyInstance, now: Date) {
  return runHost(app.deps.database.db, now, (room, event) => app.realtime.publish(room, event));
}
