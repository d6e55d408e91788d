import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ServerEvent } from '../../../shared/realtime/events';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';
import { MATCH_MESSAGES } from '../../../shared/schemas/matches';
import { DM_MESSAGES } from '../../../shared/schemas/messages';
import { AppError } from '../../http/errors';
import { firstNameSql } from '../../lib/chat-sql';
import { iso, query } from '../../lib/sql';
import { guardDirectLine } from '../guard/service';
import { conversationVisibleTo, conversationWritableBy } from '../matches/service';
import { hiddenFrom } from '../safety/service';

/**
 * Changing a private message after it was sent (issue 29): edit within 15 minutes, unsend at
 * any time, reactions. Only the two matched members; edits and reactions only while the
 * conversation is open (matched, no block between them), like sending.
 */

type Changed = Extract<ServerEvent, { type: 'dm.line.changed' }>;

interface State {
  status: string;
  profile1_id: string;
  profile2_id: string;
  found: boolean;
  sender_id: string | null;
  unsent_at: string | null;
  in_window: boolean;
  open: boolean;
  visible: boolean;
}

async function stateOf(app: FastifyInstance, me: string, matchId: string, messageId: string): Promise<State> {
  const [row] = await query<State>(
    app.deps.database.db,
    sql`select m.status, m.profile1_id, m.profile2_id, d.id is not null as found, d.sender_id,
           ${iso(sql`d.unsent_at`)} as unsent_at,
           coalesce(d.created_at > now() - interval '15 minutes', false) as in_window,
           ${conversationWritableBy(me)} as open, ${conversationVisibleTo(me)} as visible
      from matches m left join direct_messages d on d.id = ${messageId} and d.match_id = m.id
     where m.id = ${matchId}`,
  );
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== me && row.profile2_id !== me) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  // A conversation taken away by a block or an unmatch (decision 037) is not found, its lines too.
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (!row.found) throw new AppError('not_found', LINE_MESSAGES.notFound);
  return row;
}

const otherOf = (me: string) => sql`case when m.profile1_id = ${me} then m.profile2_id else m.profile1_id end`;

async function deliver(app: FastifyInstance, matchId: string, other: string, event: ServerEvent) {
  await Promise.all([app.realtime.publish(`conversation:${matchId}`, event), app.realtime.publish(`user:${other}`, event)]);
}

/** Edits my own message within 15 minutes of sending it, while the conversation is open; marked edited for both. */
/** Edits run the detectors like sends (issue 30): an edit to something hurtful is taken as sent anyway and arrives folded. */
export async function editMessage(app: FastifyInstance, me: string, matchId: string, messageId: string, body: string): Promise<Changed> {
  const flag = guardDirectLine(body, true);
  const [row] = await query<{ edited_at: string; other: string }>(
    app.deps.database.db,
    sql`update direct_messages d set body = ${body}, flag = ${flag}::text, edited_at = now()
          from matches m
         where d.id = ${messageId} and d.match_id = ${matchId} and m.id = d.match_id and d.sender_id = ${me}
           and d.unsent_at is null and d.removed_at is null and d.created_at > now() - interval '15 minutes'
           and m.status = 'matched' and not ${hiddenFrom(me, otherOf(me))}
        returning ${iso(sql`d.edited_at`)} as edited_at, d.recipient_id as other`,
  );
  if (!row) {
    const state = await stateOf(app, me, matchId, messageId);
    if (state.sender_id !== me) throw new AppError('forbidden', LINE_MESSAGES.notYours);
    if (state.unsent_at) throw new AppError('conflict', LINE_MESSAGES.unsent);
    if (!state.open) throw new AppError('conflict', DM_MESSAGES.ended);
    throw new AppError('conflict', LINE_MESSAGES.editWindow);
  }
  const event: Changed = { type: 'dm.line.changed', matchId, messageId, body, editedAt: row.edited_at, unsentAt: null, flag };
  await deliver(app, matchId, row.other, event);
  return event;
}

/**
 * Unsends my own message at any time (also once the conversation has ended): the text is
 * emptied in the database at once, so no later page, event or export of the other member can
 * carry it; its reactions go. Unsending twice answers the same.
 */
export async function unsendMessage(app: FastifyInstance, me: string, matchId: string, messageId: string): Promise<Changed> {
  const [row] = await query<{ unsent_at: string; edited_at: string | null; other: string }>(
    app.deps.database.db,
    sql`with upd as (
          update direct_messages d set body = '', unsent_at = now()
           where d.id = ${messageId} and d.match_id = ${matchId} and d.sender_id = ${me} and d.unsent_at is null
             and exists (select 1 from matches m where m.id = d.match_id and ${conversationVisibleTo(me)})
          returning d.id, d.unsent_at, d.edited_at, d.recipient_id
        ),
        gone as (delete from direct_message_reactions x using upd where x.message_id = upd.id)
        select ${iso(sql`upd.unsent_at`)} as unsent_at, ${iso(sql`upd.edited_at`)} as edited_at, upd.recipient_id as other from upd`,
  );
  if (!row) {
    const state = await stateOf(app, me, matchId, messageId);
    if (state.sender_id !== me) throw new AppError('forbidden', LINE_MESSAGES.notYours);
    return { type: 'dm.line.changed', matchId, messageId, body: '', editedAt: null, unsentAt: state.unsent_at };
  }
  const event: Changed = { type: 'dm.line.changed', matchId, messageId, body: '', editedAt: row.edited_at, unsentAt: row.unsent_at };
  await deliver(app, matchId, row.other, event);
  return event;
}

/**
 * Chooses a reaction on a message of an open conversation: another replaces mine, the same one
 * removes it. Live for both; never an unread count, a push or a mail.
 */
export async function reactToMessage(
  app: FastifyInstance,
  me: string,
  matchId: string,
  messageId: string,
  emoji: string,
): Promise<{ messageId: string; emoji: string | null }> {
  const [row] = await query<{ ok: boolean; emoji: string | null; first_name: string; other: string }>(
    app.deps.database.db,
    sql`with msg as (
          select d.id, ${otherOf(me)} as other from direct_messages d join matches m on m.id = d.match_id
           where d.id = ${messageId} and d.match_id = ${matchId} and d.unsent_at is null and d.removed_at is null
             and m.status = 'matched' and ${me} in (m.profile1_id, m.profile2_id) and not ${hiddenFrom(me, otherOf(me))}
        ),
        old as (select x.emoji from direct_message_reactions x join msg on msg.id = x.message_id where x.user_id = ${me}),
        del as (
          delete from direct_message_reactions x using msg
           where x.message_id = msg.id and x.user_id = ${me} and x.emoji = ${emoji}
          returning 1
        ),
        up as (
          insert into direct_message_reactions (message_id, user_id, emoji)
          select msg.id, ${me}, ${emoji} from msg where not exists (select 1 from old where old.emoji = ${emoji})
          on conflict (message_id, user_id) do update set emoji = excluded.emoji, created_at = now()
          returning emoji
        )
        select exists (select 1 from msg) as ok, (select emoji from up) as emoji, (select other from msg) as other,
               (select ${firstNameSql(sql`coalesce(p.full_name, u.name)`)} from "user" u left join profiles p on p.id = u.id where u.id = ${me}) as first_name`,
  );
  if (!row?.ok) {
    const state = await stateOf(app, me, matchId, messageId);
    if (state.unsent_at) throw new AppError('conflict', LINE_MESSAGES.unsent);
    throw new AppError('conflict', DM_MESSAGES.ended);
  }
  await app.realtime.publish(`conversation:${matchId}`, {
    type: 'dm.reaction',
    matchId,
    messageId,
    user: { id: me, firstName: row.first_name },
    emoji: row.emoji,
  });
  return { messageId, emoji: row.emoji };
}
