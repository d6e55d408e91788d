import { sql } from 'drizzle-orm';
import type { ChatMessage } from '../../../shared/realtime/events';
import { type ChatPage, MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { AppDeps, Publish } from '../../deps';
import { compiledWrite } from '../../db/prepared';
import { AppError } from '../../http/errors';
import { isCursorTimestamp, isUuid } from '../../http/cursor';
import { hiddenFrom, mixerMuteUntil, mutedInMixers } from '../safety/service';
import { decodeCursor, encodeCursor, exactTs, rowsOf } from '../../lib/sql';
import { firstNameOf } from '../../lib/members';
import { MODERATION_MESSAGES, muteDate } from '../../../shared/moderation';

type Deps = Pick<AppDeps, 'database' | 'signer'>;

interface MessageRow {
  id: string;
  kind: ChatMessage['kind'];
  body: string;
  sender_id: string | null;
  created_at: string;
  cursor_ts: string;
  name: string | null;
  avatar: string | null;
  hidden?: boolean;
}

function toChatMessage(mixerId: string, row: MessageRow, signer: Deps['signer']): ChatMessage {
  return {
    id: row.id,
    mixerId,
    kind: row.kind,
    // A line two members reported waits for a moderator: its words do not reach the room (issue 30).
    body: row.hidden ? '' : row.body,
    ...(row.hidden ? { hidden: true } : {}),
    createdAt: row.created_at,
    sender: row.sender_id
      ? { id: row.sender_id, firstName: firstNameOf(row.name), avatarUrl: row.avatar ? signer.url(row.avatar) : null }
      : null,
  };
}

const isoMs = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

type ChatCursor = [string, string];
const isChatCursor = (v: unknown[]): v is ChatCursor => v.length === 2 && isCursorTimestamp(v[0]) && isUuid(v[1]);

/**
 * A page of chat history for a joined member, newest page first (older pages by cursor),
 * without the lines of anyone hidden from me (blocked either way, or suspended). Membership check and page: one round trip.
 */
export async function listMessages(
  deps: Deps,
  userId: string,
  mixerId: string,
  opts: { before?: string; limit: number },
): Promise<ChatPage> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const cursor = decodeCursor(opts.before, isChatCursor);
  const older = cursor ? sql`and (mm.created_at, mm.id) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)` : sql``;
  const result = await deps.database.db.execute(sql`
    select
      exists (select 1 from mixers where id = ${mixerId}) as found,
      exists (select 1 from mixer_memberships where mixer_id = ${mixerId} and user_id = ${userId} and state = 'joined') as member,
      (select coalesce(json_agg(row_to_json(x) order by x.ord), '[]'::json) from (
         select mm.id, mm.kind, mm.body, mm.sender_id, ${isoMs('mm.created_at')} as created_at,
                ${exactTs(sql`mm.created_at`)} as cursor_ts, coalesce(p.full_name, u.name) as name, p.avatar_url as avatar,
                mm.hidden_at is not null as hidden,
                row_number() over (order by mm.created_at desc, mm.id desc) as ord
           from mixer_messages mm
           left join "user" u on u.id = mm.sender_id
           left join profiles p on p.id = mm.sender_id
          where mm.mixer_id = ${mixerId} and mm.removed_at is null
            and exists (select 1 from mixer_memberships where mixer_id = ${mixerId} and user_id = ${userId} and state = 'joined')
            and (mm.sender_id is null or not ${hiddenFrom(userId, sql`mm.sender_id`)})
            ${older}
          order by mm.created_at desc, mm.id desc
          limit ${opts.limit + 1}) x) as messages`);
  const [row] = rowsOf<{ found: boolean; member: boolean; messages: MessageRow[] | string }>(result);
  if (!row?.found) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) throw new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  const rows: MessageRow[] = typeof row.messages === 'string' ? JSON.parse(row.messages) : row.messages;
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const oldest = page.at(-1);
  return {
    items: page.reverse().map((r) => toChatMessage(mixerId, r, deps.signer)),
    nextCursor: more && oldest ? encodeCursor([oldest.cursor_ts, oldest.id]) : null,
  };
}

/**
 * The hot statement of group chat, prepared once (decision 016; on PGlite a prepared EXECUTE
 * costs an eighth of parsing and planning this text on every line): membership, the live
 * window, the insert, the sender's name and avatar and who must not see it.
 */
const insertChatLine = compiledWrite<
  { id: string; created_at: string; name: string | null; avatar: string | null; blocked: string[] },
  'mixerId' | 'userId' | 'body'
>(
  (v) => sql`
    with target as (
      select m.id from mixers m
       where m.id = ${v.mixerId} and m.status = 'live' and m.ends_at > now()
         and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${v.userId} and c.state = 'joined')
         and not ${mutedInMixers(v.userId as string)}
    ),
    ins as (
      insert into mixer_messages (mixer_id, sender_id, kind, body)
      select id, ${v.userId}, 'member', ${v.body} from target
      returning id, created_at
    )
    select ins.id, ${isoMs('ins.created_at')} as created_at, coalesce(p.full_name, u.name) as name, p.avatar_url as avatar,
           array(select c.user_id from mixer_memberships c
                  where c.mixer_id = ${v.mixerId} and c.state = 'joined' and c.user_id <> ${v.userId}
                    and ${hiddenFrom(sql`c.user_id`, v.userId as string)}) as blocked
      from ins join "user" u on u.id = ${v.userId} left join profiles p on p.id = u.id`,
);

/**
 * Posts a member's message to a live mixer and delivers it. Membership, the live window,
 * the insert, the sender's name and avatar and who must not see it: one statement.
 * Delivery goes to the mixer room, or, when blocks sit between the sender and some
 * participants, to each other participant's own room so blocked members never receive it.
 */
export async function postMessage(deps: Deps, publish: Publish, userId: string, mixerId: string, body: string): Promise<ChatMessage> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = await insertChatLine(deps.database, { mixerId, userId, body });
  if (!row) throw await whyNotPosted(deps, userId, mixerId);

  const message = toChatMessage(
    mixerId,
    { id: row.id, kind: 'member', body, sender_id: userId, created_at: row.created_at, cursor_ts: '', name: row.name, avatar: row.avatar },
    deps.signer,
  );
  const event = { type: 'mixer.message' as const, message };
  const blocked = new Set(row.blocked ?? []);
  if (blocked.size === 0) {
    await publish(`mixer:${mixerId}`, event);
  } else {
    // Rare: someone here blocked the sender (or the other way round). Deliver one by one.
    const members = rowsOf<{ user_id: string }>(
      await deps.database.db.execute(sql`select user_id from mixer_memberships where mixer_id = ${mixerId} and state = 'joined'`),
    );
    await Promise.all(members.filter((m) => !blocked.has(m.user_id)).map((m) => publish(`user:${m.user_id}`, event)));
  }
  await publish(`user:${userId}`, { type: 'counter', key: 'messagesSent', delta: 1 });
  return message;
}

async function whyNotPosted(deps: Deps, userId: string, mixerId: string): Promise<AppError> {
  const [row] = rowsOf<{ status: string | null; open: boolean | null; member: boolean }>(
    await deps.database.db.execute(sql`
      select m.status, m.ends_at > now() as open,
             exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = 'joined') as member
        from mixers m where m.id = ${mixerId}`),
  );
  if (!row) return new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) return new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  const muted = await mixerMuteUntil(deps.database.db, userId);
  if (muted) return new AppError('forbidden', MODERATION_MESSAGES.mutedInMixers(muteDate(muted)));
  if (row.status === 'scheduled' && row.open) return new AppError('conflict', MIXER_MESSAGES.chatNotStarted);
  return new AppError('conflict', MIXER_MESSAGES.chatEnded);
}
