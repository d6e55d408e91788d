import { sql } from 'drizzle-orm';
import type { ChatMessage } from '../../../shared/realtime/events';
import { HOST_MESSAGES, type HostAdminOverview, type HostPoll, type HostView, type NudgeAction } from '../../../shared/schemas/host';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { AppDeps, Publish } from '../../deps';
import type { Db } from '../../db/client';
import { isUuid } from '../../http/cursor';
import { AppError } from '../../http/errors';
import { recordAudit } from '../../lib/audit';
import { parseJson, query, rowsOf } from '../../lib/sql';
import { postMessage, refuseMuted } from '../mixers/service';
import { hiddenFrom } from '../safety/service';
import { defaultPrompts, isKnownTopic } from './prompts';

export { runAppHost, runHost, startHost } from './job';

/** What a member's request may touch: the mixer exists (404) and they are in it (403, as the chat answers). */
async function requireParticipant(db: Db, userId: string, mixerId: string): Promise<{ live: boolean; enabled: boolean }> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = await query<{ member: boolean; live: boolean; enabled: boolean | null }>(
    db,
    sql`select exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = 'joined') as member,
               (m.status = 'live' and m.ends_at > now()) as live,
               (select enabled from mixer_hosts where mixer_id = m.id) as enabled
          from mixers m where m.id = ${mixerId}`,
  );
  if (!row) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) throw new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  return { live: row.live, enabled: row.enabled !== false };
}

interface PollRow {
  id: string;
  message_id: string;
  question: string;
  options: string[];
  counts: Record<string, number | string> | string | null;
  my_vote: number | null;
}

/**
 * The host's side of a room for one participant: the polls with counts that leave out the votes
 * of anyone hidden from them (blocked either way, or suspended) and their own vote, and their
 * open nudge while they have not written. One round trip for the polls.
 */
export async function hostView(db: Db, userId: string, mixerId: string): Promise<HostView> {
  const { live, enabled } = await requireParticipant(db, userId, mixerId);
  const rows = await query<PollRow>(
    db,
    sql`select p.id, p.message_id, p.question, p.options,
               (select json_object_agg(t.option, t.n) from (
                  select v.option, count(*) as n from host_poll_votes v
                   where v.poll_id = p.id and (v.user_id = ${userId} or not ${hiddenFrom(userId, sql`v.user_id`)})
                   group by v.option) t) as counts,
               (select v.option from host_poll_votes v where v.poll_id = p.id and v.user_id = ${userId}) as my_vote
          from host_polls p where p.mixer_id = ${mixerId} order by p.created_at`,
  );
  const [nudge] = await query<{ prompt: string; reply: string }>(
    db,
    // Offered to a member who has not written yet: once they have, it has done its work.
    sql`select n.prompt, n.reply from host_nudges n
         where n.mixer_id = ${mixerId} and n.user_id = ${userId} and n.state = 'open'
           and not exists (select 1 from mixer_messages w where w.mixer_id = n.mixer_id and w.sender_id = n.user_id and w.kind = 'member')`,
  );
  return {
    enabled,
    polls: rows.map((r) => toPoll(r, live)),
    nudge: live && enabled && nudge ? nudge : null,
  };
}

function toPoll(r: PollRow, open: boolean): HostPoll {
  const counts = parseJson<Record<string, number | string>>(r.counts, {});
  const options = r.options.map((label, i) => ({ label, votes: Number(counts[String(i)] ?? 0) }));
  return {
    id: r.id,
    messageId: r.message_id,
    question: r.question,
    options,
    total: options.reduce((n, o) => n + o.votes, 0),
    myVote: r.my_vote == null ? null : Number(r.my_vote),
    open,
  };
}

/** One vote per participant per poll, while the mixer is live; the room is told to refresh its counts. */
export async function votePoll(db: Db, publish: Publish, userId: string, pollId: string, option: number): Promise<HostView> {
  if (!isUuid(pollId)) throw new AppError('not_found', HOST_MESSAGES.pollNotFound);
  const [poll] = await query<{ mixer_id: string; options: string[] }>(
    db,
    sql`select mixer_id, options from host_polls where id = ${pollId}`,
  );
  if (!poll) throw new AppError('not_found', HOST_MESSAGES.pollNotFound);
  const { live } = await requireParticipant(db, userId, poll.mixer_id);
  if (!live) throw new AppError('conflict', HOST_MESSAGES.pollClosed);
  // A vote is a say in the room, like a reaction: a member a moderator muted has none.
  const muted = await refuseMuted(db, userId);
  if (muted) throw muted;
  if (option >= poll.options.length) throw new AppError('validation', HOST_MESSAGES.optionUnknown, { option: HOST_MESSAGES.optionUnknown });
  const inserted = rowsOf<{ option: number }>(
    await db.execute(sql`
      insert into host_poll_votes (poll_id, user_id, option) values (${pollId}, ${userId}, ${option})
      on conflict (poll_id, user_id) do nothing returning option`),
  );
  if (!inserted.length) throw new AppError('conflict', HOST_MESSAGES.alreadyVoted);
  await publish(`mixer:${poll.mixer_id}`, { type: 'host.poll', mixerId: poll.mixer_id, pollId });
  return hostView(db, userId, poll.mixer_id);
}

/**
 * Sends the nudge's suggested reply as the member's own line, or dismisses it. The nudge is
 * claimed first (open → sent/dismissed), so a double tap never sends twice; a send that fails
 * (the mixer ended, too fast) puts it back.
 */
export async function actOnNudge(
  deps: Pick<AppDeps, 'database' | 'signer'>,
  publish: Publish,
  userId: string,
  mixerId: string,
  action: NudgeAction['action'],
): Promise<{ message: ChatMessage | null }> {
  const db = deps.database.db;
  await requireParticipant(db, userId, mixerId);
  const state = action === 'send' ? 'sent' : 'dismissed';
  const [claimed] = await query<{ reply: string }>(
    db,
    sql`update host_nudges set state = ${state} where mixer_id = ${mixerId} and user_id = ${userId} and state = 'open' returning reply`,
  );
  if (!claimed) throw new AppError('not_found', HOST_MESSAGES.nudgeNotFound);
  let message: ChatMessage | null = null;
  if (action === 'send') {
    try {
      message = (await postMessage(deps, publish, userId, mixerId, { body: claimed.reply })).message;
    } catch (err) {
      await db.execute(sql`update host_nudges set state = 'open' where mixer_id = ${mixerId} and user_id = ${userId} and state = 'sent'`);
      throw err;
    }
  }
  await publish(`user:${userId}`, { type: 'host.nudge', mixerId });
  return { message };
}

// Admin

/** Every topic with a template (and 'General'), with its prompts; and the mixers whose host is off. */
export async function hostAdminOverview(db: Db): Promise<HostAdminOverview> {
  const rows = await query<{ topic: string; prompts: string[] | null }>(
    db,
    sql`select t.topic, p.prompts from (select topic from topic_templates union select 'General') t
          left join host_topic_prompts p on p.topic = t.topic
         order by t.topic = 'General' desc, t.topic`,
  );
  const off = await query<{ mixer_id: string }>(db, sql`select mixer_id from mixer_hosts where not enabled`);
  return {
    topics: rows.map((r) => ({ topic: r.topic, prompts: r.prompts ?? defaultPrompts(r.topic), custom: Boolean(r.prompts) })),
    disabledMixers: off.map((r) => r.mixer_id),
  };
}

/** Replaces a topic's prompts (an admin's own list); audited. */
export async function setTopicPrompts(db: Db, actorId: string, topic: string, prompts: string[]) {
  const [known] = await query<{ found: boolean }>(db, sql`select exists (select 1 from topic_templates where topic = ${topic}) as found`);
  if (!known?.found && !isKnownTopic(topic)) throw new AppError('not_found', HOST_MESSAGES.topicNotFound);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into host_topic_prompts (topic, prompts, updated_at, updated_by)
      values (${topic}, array[${sql.join(
        prompts.map((p) => sql`${p}`),
        sql`, `,
      )}]::text[], now(), ${actorId})
      on conflict (topic) do update set prompts = excluded.prompts, updated_at = now(), updated_by = excluded.updated_by`);
    await recordAudit(tx, actorId, 'host.prompts', topic, { count: prompts.length, prompts });
  });
  return { topic, prompts, custom: true };
}

/** Switches a mixer's host on or off; audited when it changes. */
export async function setHostEnabled(
  db: Db,
  actorId: string,
  mixerId: string,
  enabled: boolean,
): Promise<{ mixerId: string; enabled: boolean }> {
  if (!isUuid(mixerId)) throw new AppError('not_found', HOST_MESSAGES.mixerNotFound);
  return db.transaction(async (tx) => {
    const [mixer] = await query<{ was: boolean | null }>(
      tx,
      sql`select (select enabled from mixer_hosts where mixer_id = m.id) as was from mixers m where m.id = ${mixerId}`,
    );
    if (!mixer) throw new AppError('not_found', HOST_MESSAGES.mixerNotFound);
    await tx.execute(sql`
      insert into mixer_hosts (mixer_id, enabled, updated_by) values (${mixerId}, ${enabled}, ${actorId})
      on conflict (mixer_id) do update set enabled = excluded.enabled, updated_by = excluded.updated_by`);
    if ((mixer.was ?? true) !== enabled) await recordAudit(tx, actorId, enabled ? 'host.on' : 'host.off', mixerId, { enabled });
    return { mixerId, enabled };
  });
}
