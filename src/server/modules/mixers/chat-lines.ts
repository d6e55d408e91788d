import { sql } from 'drizzle-orm';
import type { ServerEvent } from '../../../shared/realtime/events';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { Publish } from '../../deps';
import { AppError } from '../../http/errors';
import { firstNameSql } from '../../lib/chat-sql';
import { rowsOf } from '../../lib/sql';
import type { SafetyFlag } from '../guard/service';
import { hiddenFrom, mutedInMixers } from '../safety/service';
import { type Deps, isoMs, joinedMembers, refuseMuted } from './chat';

/**
 * Changing a line after it was sent (issue 29): edit within 15 minutes, unsend at any time,
 * and reactions. Each change is delivered like the line itself: to the room, or one by one
 * around the members hidden from the one who made it.
 */

/** Publishes to the mixer room, or to each joined member not in `hidden` when some are. */
async function deliver(deps: Deps, publish: Publish, mixerId: string, event: ServerEvent, hidden: string[] | null) {
  const skip = new Set(hidden ?? []);
  if (skip.size === 0) return void (await publish(`mixer:${mixerId}`, event));
  const members = await joinedMembers(deps, mixerId);
  await Promise.all(members.filter((m) => !skip.has(m)).map((m) => publish(`user:${m}`, event)));
}

/** Members of the mixer hidden from `who` (blocked either way, banned): they never see `who`'s changes. */
const hiddenMembers = (mixerId: string, who: string) => sql`array(select c.user_id from mixer_memberships c
      where c.mixer_id = ${mixerId} and c.state = 'joined' and c.user_id <> ${who} and ${hiddenFrom(sql`c.user_id`, who)})`;

interface LineState {
  found: boolean;
  member: boolean;
  sender_id: string | null;
  kind: string | null;
  unsent: boolean;
  unsent_at: string | null;
  in_window: boolean;
  live: boolean;
  visible: boolean;
}

/** Why a change to line `messageId` of mixer `mixerId` was refused: the first rule it broke. */
async function lineState(deps: Deps, userId: string, mixerId: string, messageId: string): Promise<LineState> {
  const [row] = rowsOf<LineState>(
    await deps.database.db.execute(sql`
      select mm.id is not null as found,
             exists (select 1 from mixer_memberships c where c.mixer_id = ${mixerId} and c.user_id = ${userId} and c.state = 'joined') as member,
             mm.sender_id, mm.kind, coalesce(mm.unsent_at is not null, false) as unsent, ${isoMs('mm.unsent_at')} as unsent_at,
             coalesce(mm.created_at > now() - interval '15 minutes', false) as in_window,
             exists (select 1 from mixers m where m.id = ${mixerId} and m.status = 'live' and m.ends_at > now()) as live,
             coalesce(mm.hidden_at is null and mm.removed_at is null
                      and (mm.sender_id is null or not ${hiddenFrom(userId, sql`mm.sender_id`)}), false) as visible
        from (select 1) one
        left join mixer_messages mm on mm.id = ${messageId} and mm.mixer_id = ${mixerId}`),
  );
  return row as LineState;
}

function refuseChange(state: LineState, userId: string, opts: { edit: boolean }): AppError {
  // Someone outside the room learns nothing about its lines; a sender who left may still unsend theirs.
  if (!state.member && (!state.found || state.sender_id !== userId)) return new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  if (!state.found || !state.visible) return new AppError('not_found', LINE_MESSAGES.notFound);
  if (state.sender_id !== userId || state.kind !== 'member') return new AppError('forbidden', LINE_MESSAGES.notYours);
  if (state.unsent) return new AppError('conflict', LINE_MESSAGES.unsent);
  if (opts.edit && !state.member) return new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  if (opts.edit && !state.live) return new AppError('conflict', MIXER_MESSAGES.chatEnded);
  if (opts.edit && !state.in_window) return new AppError('conflict', LINE_MESSAGES.editWindow);
  return new AppError('conflict', LINE_MESSAGES.notFound);
}

type Changed = Extract<ServerEvent, { type: 'mixer.line.changed' }>;

/** Edits my own line of a live mixer within 15 minutes of sending it; marked edited for everyone. */
/** `flag`: the detectors' verdict on the new text (issue 30; held lines never get here). */
export async function editLine(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  messageId: string,
  body: string,
  flag: SafetyFlag | null = null,
) {
  const [row] = rowsOf<{ edited_at: string; hidden: string[] }>(
    await deps.database.db.execute(sql`
      update mixer_messages mm set body = ${body}, flag = ${flag}::text, edited_at = now()
        from mixers m
       where mm.id = ${messageId} and mm.mixer_id = ${mixerId} and m.id = mm.mixer_id
         and mm.sender_id = ${userId} and mm.kind = 'member' and mm.unsent_at is null
         and mm.hidden_at is null and mm.removed_at is null
         and mm.created_at > now() - interval '15 minutes'
         and m.status = 'live' and m.ends_at > now()
         and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = 'joined')
         and not ${mutedInMixers(userId)}
      returning ${isoMs('mm.edited_at')} as edited_at, ${hiddenMembers(mixerId, userId)} as hidden`),
  );
  if (!row)
    throw (
      (await refuseMuted(deps.database.db, userId)) ??
      refuseChange(await lineState(deps, userId, mixerId, messageId), userId, { edit: true })
    );
  const event: Changed = { type: 'mixer.line.changed', mixerId, messageId, body, editedAt: row.edited_at, unsentAt: null, flag };
  await deliver(deps, publish, mixerId, event, row.hidden);
  return event;
}

/**
 * Unsends my own line, at any time: its text is emptied in the database at once (so no later
 * response, event, export or push can carry it), its reactions go, and every view of it (and of
 * quotes of it) says it was unsent. Unsending twice answers the same.
 */
export async function unsendLine(deps: Deps, publish: Publish, userId: string, mixerId: string, messageId: string) {
  const [row] = rowsOf<{ unsent_at: string; edited_at: string | null; hidden: string[] }>(
    await deps.database.db.execute(sql`
      with upd as (
        update mixer_messages mm set body = '', unsent_at = now(), mentions = null
         where mm.id = ${messageId} and mm.mixer_id = ${mixerId} and mm.sender_id = ${userId} and mm.kind = 'member'
           and mm.unsent_at is null
        returning mm.id, mm.unsent_at, mm.edited_at
      ),
      gone as (delete from mixer_message_reactions x using upd where x.message_id = upd.id)
      select ${isoMs('upd.unsent_at')} as unsent_at, ${isoMs('upd.edited_at')} as edited_at, ${hiddenMembers(mixerId, userId)} as hidden
        from upd`),
  );
  if (!row) {
    const state = await lineState(deps, userId, mixerId, messageId);
    if (state.found && state.sender_id === userId && state.unsent) {
      return { type: 'mixer.line.changed', mixerId, messageId, body: '', editedAt: null, unsentAt: state.unsent_at } satisfies Changed;
    }
    throw refuseChange(state, userId, { edit: false });
  }
  const event: Changed = { type: 'mixer.line.changed', mixerId, messageId, body: '', editedAt: row.edited_at, unsentAt: row.unsent_at };
  await deliver(deps, publish, mixerId, event, row.hidden);
  return event;
}

/**
 * Chooses a reaction on a line of a live mixer I am in: another one replaces mine, the same one
 * removes it (one statement). Delivered live to everyone who may see me; never a counter or push.
 */
export async function reactToLine(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  messageId: string,
  emoji: string,
): Promise<{ messageId: string; emoji: string | null }> {
  const [row] = rowsOf<{ ok: boolean; emoji: string | null; first_name: string; hidden: string[] }>(
    await deps.database.db.execute(sql`
      with msg as (
        select mm.id from mixer_messages mm join mixers m on m.id = mm.mixer_id
         where mm.id = ${messageId} and mm.mixer_id = ${mixerId} and mm.unsent_at is null
           and mm.hidden_at is null and mm.removed_at is null
           and m.status = 'live' and m.ends_at > now()
           and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = 'joined')
           and (mm.sender_id is null or not ${hiddenFrom(userId, sql`mm.sender_id`)})
           and not ${mutedInMixers(userId)}
      ),
      old as (select x.emoji from mixer_message_reactions x join msg on msg.id = x.message_id where x.user_id = ${userId}),
      del as (
        delete from mixer_message_reactions x using msg
         where x.message_id = msg.id and x.user_id = ${userId} and x.emoji = ${emoji}
        returning 1
      ),
      up as (
        insert into mixer_message_reactions (message_id, user_id, emoji)
        select msg.id, ${userId}, ${emoji} from msg where not exists (select 1 from old where old.emoji = ${emoji})
        on conflict (message_id, user_id) do update set emoji = excluded.emoji, created_at = now()
        returning emoji
      )
      select exists (select 1 from msg) as ok, (select emoji from up) as emoji,
             (select ${firstNameSql(sql`coalesce(p.full_name, u.name)`)} from "user" u left join profiles p on p.id = u.id where u.id = ${userId}) as first_name,
             ${hiddenMembers(mixerId, userId)} as hidden`),
  );
  if (!row?.ok) {
    const state = await lineState(deps, userId, mixerId, messageId);
    if (!state.member) throw new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
    const muted = await refuseMuted(deps.database.db, userId);
    if (muted) throw muted;
    if (!state.found || !state.visible) throw new AppError('not_found', LINE_MESSAGES.notFound);
    if (state.unsent) throw new AppError('conflict', LINE_MESSAGES.unsent);
    throw new AppError('conflict', MIXER_MESSAGES.chatEnded);
  }
  const event: ServerEvent = {
    type: 'mixer.reaction',
    mixerId,
    messageId,
    user: { id: userId, firstName: row.first_name },
    emoji: row.emoji,
  };
  await deliver(deps, publish, mixerId, event, row.hidden);
  return { messageId, emoji: row.emoji };
}
