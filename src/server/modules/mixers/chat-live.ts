import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '../../../shared/realtime/events';
import { MENTION_MESSAGES, type MixerReadState } from '../../../shared/schemas/chat-live';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { AppDeps, Publish } from '../../deps';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/cursor';
import { rowsOf } from '../../lib/sql';
import { notify } from '../push/service';
import { hiddenFrom } from '../safety/service';

/**
 * The live room around the mixer chat (issue 29): who may be mentioned, who is hidden from
 * whom for typing and presence, read state and the mention badge, and the mention push.
 */

type Deps = Pick<AppDeps, 'database'>;

/** Every mentioned id is another participant of the mixer whom the sender may see; else a 400 that says so. */
export async function checkMentions(deps: Deps, userId: string, mixerId: string, mentions: string[]): Promise<void> {
  const wanted = [...new Set(mentions)];
  if (wanted.includes(userId)) throw new AppError('validation', MENTION_MESSAGES.notParticipant);
  // The socket takes any room name: a malformed id finds no mixer (never a cast error).
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = rowsOf<{ n: number }>(
    await deps.database.db.execute(sql`
      select count(*)::int as n from mixer_memberships c
       where c.mixer_id = ${mixerId} and c.state = 'joined'
         and c.user_id in (select jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb))
         and not ${hiddenFrom(userId, sql`c.user_id`)}`),
  );
  if ((row?.n ?? 0) !== wanted.length) throw new AppError('validation', MENTION_MESSAGES.notParticipant);
}

/** Each participant of a mixer and the participants hidden from them either way: they never see each other's typing or presence. */
export async function hiddenInMixer(deps: Deps, mixerId: string): Promise<Map<string, string[]>> {
  if (!isUuid(mixerId)) return new Map();
  const rows = rowsOf<{ user_id: string; hidden: string[] | string | null }>(
    await deps.database.db.execute(sql`
      select c.user_id,
             array(select o.user_id from mixer_memberships o
                    where o.mixer_id = c.mixer_id and o.state = 'joined' and o.user_id <> c.user_id
                      and ${hiddenFrom(sql`c.user_id`, sql`o.user_id`)}) as hidden
        from mixer_memberships c
       where c.mixer_id = ${mixerId} and c.state = 'joined'`),
  );
  return new Map(rows.map((r) => [r.user_id, Array.isArray(r.hidden) ? r.hidden : []]));
}

/** Unread lines and unread mentions of `userId` in one mixer (or in every mixer they are in). */
export const unreadCounts = (userId: string, mixerId?: string) => sql`
  select count(*)::int as unread,
         count(*) filter (where mm.mentions @> ${JSON.stringify([userId])}::jsonb)::int as mentions
    from mixer_memberships c
    join mixer_messages mm on mm.mixer_id = c.mixer_id
    left join mixer_reads r on r.mixer_id = c.mixer_id and r.user_id = c.user_id
   where c.user_id = ${userId} and c.state = 'joined'
     ${mixerId ? sql`and c.mixer_id = ${mixerId}` : sql``}
     and (r.read_at is null or mm.created_at > r.read_at)
     and mm.unsent_at is null and mm.hidden_at is null and mm.removed_at is null
     and (mm.sender_id is null or (mm.sender_id <> ${userId} and not ${hiddenFrom(userId, sql`mm.sender_id`)}))`;

async function membership(deps: Deps, userId: string, mixerId: string) {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = rowsOf<{ member: boolean; read_at: string | null }>(
    await deps.database.db.execute(sql`
      select exists (select 1 from mixer_memberships where mixer_id = m.id and user_id = ${userId} and state = 'joined') as member,
             (select to_char(read_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from mixer_reads
               where mixer_id = m.id and user_id = ${userId}) as read_at
        from mixers m where m.id = ${mixerId}`),
  );
  if (!row) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) throw new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  return row;
}

/** Where I stopped reading this mixer's chat, and what is new since. */
export async function readState(deps: Deps, userId: string, mixerId: string): Promise<MixerReadState> {
  const { read_at } = await membership(deps, userId, mixerId);
  const [counts] = rowsOf<{ unread: number; mentions: number }>(await deps.database.db.execute(unreadCounts(userId, mixerId)));
  return { readAt: read_at, unread: counts?.unread ?? 0, mentions: counts?.mentions ?? 0 };
}

/**
 * I have seen the chat up to `messageId` (a line of this mixer): the read position moves
 * forward to it, never back. The mentions it clears come off my Mixers badge on every tab.
 */
export async function markRead(deps: Deps, publish: Publish, userId: string, mixerId: string, messageId: string): Promise<MixerReadState> {
  await membership(deps, userId, mixerId);
  const before = await unreadMentionsIn(deps, userId, mixerId);
  const moved = rowsOf<{ ok: number }>(
    await deps.database.db.execute(sql`
      insert into mixer_reads (mixer_id, user_id, read_at)
      select ${mixerId}, ${userId}, mm.created_at from mixer_messages mm where mm.id = ${messageId} and mm.mixer_id = ${mixerId}
      on conflict (mixer_id, user_id) do update set read_at = greatest(mixer_reads.read_at, excluded.read_at)
      returning 1 as ok`),
  );
  if (!moved.length) throw new AppError('not_found', 'That message is not in this chat.');
  const state = await readState(deps, userId, mixerId);
  if (before > state.mentions) await publish(`user:${userId}`, { type: 'counter', key: 'mixerMentions', delta: state.mentions - before });
  return state;
}

async function unreadMentionsIn(deps: Deps, userId: string, mixerId: string): Promise<number> {
  const [row] = rowsOf<{ mentions: number }>(await deps.database.db.execute(unreadCounts(userId, mixerId)));
  return row?.mentions ?? 0;
}

/**
 * A posted line's mentions: +1 on each mentioned member's Mixers badge, and a push per their
 * settings ("Mentions", discreet unless they chose previews; none while the room is open in one
 * of their tabs, none across a block).
 */
export async function announceMentions(app: FastifyInstance, mixerId: string, message: ChatMessage): Promise<void> {
  const sender = message.sender;
  if (!sender || !message.mentions?.length) return;
  const [mixer] = rowsOf<{ title: string }>(await app.deps.database.db.execute(sql`select title from mixers where id = ${mixerId}`));
  await Promise.all(
    message.mentions.map(async (userId) => {
      await app.realtime.publish(`user:${userId}`, { type: 'counter', key: 'mixerMentions', delta: 1 });
      notify(app, userId, {
        category: 'mention',
        url: `/mixers/${mixerId}`,
        key: `mention:${mixerId}`,
        fromUserId: sender.id,
        name: sender.firstName,
        // A line the detectors folded as hurtful never shows on a lock screen (as in private chats).
        detail: message.flag === 'abuse' ? undefined : mixer ? `${mixer.title}: ${message.body}` : message.body,
        openRoom: `mixer:${mixerId}`,
      });
    }),
  );
}
