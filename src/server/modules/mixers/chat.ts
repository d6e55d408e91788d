import { type SQL, sql } from 'drizzle-orm';
import type { ChatMessage, ServerEvent } from '../../../shared/realtime/events';
import { LINE_MESSAGES, type ReactionGroup, type ReplyQuote } from '../../../shared/schemas/chat';
import { type ChatPage, MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import type { AppDeps, Publish } from '../../deps';
import { compiledWrite } from '../../db/prepared';
import { type Admission, type AdmissionSlot, admissionCtes, admissionOutcomeSql } from '../../http/shared-limits';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { isCursorTimestamp, isUuid } from '../../http/cursor';
import { hiddenFrom, mixerMuteUntil, mutedInMixers } from '../safety/service';
import type { SafetyFlag } from '../guard/service';
import { decodeCursor, encodeCursor, exactTs, parseJson, rowsOf } from '../../lib/sql';
import { firstNameOf } from '../../lib/members';
import { reactionsJsonSql, snippetSql } from '../../lib/chat-sql';
import { MODERATION_MESSAGES, muteDate } from '../../../shared/schemas/moderation';

export type Deps = Pick<AppDeps, 'database' | 'signer'>;

export interface MessageRow {
  id: string;
  kind: ChatMessage['kind'];
  body: string;
  flag?: ChatMessage['flag'];
  sender_id: string | null;
  created_at: string;
  cursor_ts: string;
  name: string | null;
  avatar: string | null;
  reply_to_id?: string | null;
  reply_name?: string | null;
  /** null when the original is unsent or hidden from the viewer. */
  reply_body?: string | null;
  reply_sender_id?: string | null;
  reply_flag?: string | null;
  edited_at?: string | null;
  unsent_at?: string | null;
  client_key?: string | null;
  reactions?: ReactionGroup[] | string | null;
  mentions?: string[] | null;
  hidden?: boolean;
}

function quoteOf(row: Pick<MessageRow, 'reply_to_id' | 'reply_name' | 'reply_body' | 'reply_sender_id' | 'reply_flag'>): ReplyQuote | null {
  if (!row.reply_to_id) return null;
  if (row.reply_body === null || row.reply_body === undefined) return { id: row.reply_to_id, senderName: null, body: null };
  return {
    id: row.reply_to_id,
    senderName: firstNameOf(row.reply_name),
    body: row.reply_body,
    senderId: row.reply_sender_id ?? null,
    flag: row.reply_flag ?? null,
  };
}

export function toChatMessage(mixerId: string, row: MessageRow, signer: Deps['signer']): ChatMessage {
  const reactions = parseJson(row.reactions, []);
  return {
    id: row.id,
    mixerId,
    kind: row.kind,
    // An unsent line's text is gone from the database too (decision 032); a line two members
    // reported waits for a moderator (issue 30): neither's words reach the room.
    body: row.unsent_at || row.hidden ? '' : row.body,
    ...(row.hidden ? { hidden: true } : {}),
    createdAt: row.created_at,
    flag: row.flag ?? null,
    sender: row.sender_id
      ? { id: row.sender_id, firstName: firstNameOf(row.name), avatarUrl: row.avatar ? signer.url(row.avatar) : null }
      : null,
    replyTo: quoteOf(row),
    reactions: row.unsent_at ? [] : reactions,
    editedAt: row.edited_at ?? null,
    unsentAt: row.unsent_at ?? null,
    clientKey: row.client_key ?? null,
    ...(row.mentions?.length ? { mentions: row.mentions } : {}),
  };
}

export const isoMs = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The quote of the line `mm` answers (joined as `r`, its author as `ru`/`rp`), as `viewer` may
 * see it: no name and no text when it was unsent or its author is hidden from the viewer.
 */
export const quoteColumns = (
  viewer: string,
) => sql`case when r.id is null or r.unsent_at is not null or r.hidden_at is not null or r.removed_at is not null
                   or (r.sender_id is not null and ${hiddenFrom(viewer, sql`r.sender_id`)}) then null
                  else coalesce(rp.full_name, ru.name, 'Fancy') end as reply_name,
                case when r.id is null or r.unsent_at is not null or r.hidden_at is not null or r.removed_at is not null
                   or (r.sender_id is not null and ${hiddenFrom(viewer, sql`r.sender_id`)}) then null
                  else ${snippetSql(sql`r.body`)} end as reply_body,
                r.sender_id as reply_sender_id, r.flag as reply_flag`;

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
         select mm.id, mm.kind, mm.body, mm.flag, mm.sender_id, mm.mentions, ${isoMs('mm.created_at')} as created_at,
                ${exactTs(sql`mm.created_at`)} as cursor_ts, coalesce(p.full_name, u.name) as name, p.avatar_url as avatar,
                mm.reply_to_id, ${isoMs('mm.edited_at')} as edited_at, ${isoMs('mm.unsent_at')} as unsent_at,
                case when mm.sender_id = ${userId} then mm.client_key end as client_key,
                ${quoteColumns(userId)},
                ${reactionsJsonSql('mixer_message_reactions', sql`mm.id`, (u) => hiddenFrom(userId, u))} as reactions,
                mm.hidden_at is not null as hidden,
                row_number() over (order by mm.created_at desc, mm.id desc) as ord
           from mixer_messages mm
           left join "user" u on u.id = mm.sender_id
           left join profiles p on p.id = mm.sender_id
           left join mixer_messages r on r.id = mm.reply_to_id
           left join "user" ru on ru.id = r.sender_id
           left join profiles rp on rp.id = r.sender_id
          where mm.mixer_id = ${mixerId} and mm.removed_at is null
            and exists (select 1 from mixer_memberships where mixer_id = ${mixerId} and user_id = ${userId} and state = 'joined')
            and (mm.sender_id is null or not ${hiddenFrom(userId, sql`mm.sender_id`)})
            ${older}
          order by mm.created_at desc, mm.id desc
          limit ${opts.limit + 1}) x) as messages`);
  const [row] = rowsOf<{ found: boolean; member: boolean; messages: MessageRow[] | string }>(result);
  if (!row?.found) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) throw new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  const rows = parseJson<MessageRow[]>(row.messages, []);
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const oldest = page.at(-1);
  return {
    items: page.reverse().map((r) => toChatMessage(mixerId, r, deps.signer)),
    nextCursor: more && oldest ? encodeCursor([oldest.cursor_ts, oldest.id]) : null,
  };
}

/** The chat statement's row (`id` null when nothing was posted). */
interface InsertedRow {
  id: string | null;
  fresh: boolean;
  created_at: string;
  body: string;
  name: string | null;
  avatar: string | null;
  blocked: string[] | null;
  client_key: string | null;
  reply_to_id: string | null;
  reply_name: string | null;
  reply_body: string | null;
  reply_sender_id: string | null;
  reply_flag: string | null;
  reply_hidden_for: string[] | null;
  mentions: string[] | null;
  flag: SafetyFlag | null;
  edited_at: string | null;
  unsent_at: string | null;
}

type LineValues = 'mixerId' | 'userId' | 'body' | 'clientKey' | 'replyToId' | 'mentions' | 'flag';

/**
 * The hot statement of group chat, prepared once (decision 016; on PGlite a prepared EXECUTE
 * costs an eighth of parsing and planning this text on every line): membership, the live
 * window, the line it answers (in this room, visible to me), the insert, the sender's name and
 * avatar and who must not see it. A send whose client key was already used returns that first
 * line instead (`fresh` false): the unique index (sender, mixer, key) makes this hold across
 * instances (decision 032). One row, whose `id` is null when nothing was posted. With an
 * `admission`, the chat's limits are taken first in the same statement (`admissionCtes`,
 * decision 023) and the line is inserted only when they let it through.
 */
const chatLineSql = (v: Record<LineValues, unknown>, admission?: SQL) => sql`
    with ${admission ? sql`${admission},` : sql``}
    target as (
      select m.id from mixers m
       where m.id = ${v.mixerId} and m.status = 'live' and m.ends_at > now()
         and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${v.userId} and c.state = 'joined')
         and (${v.replyToId}::uuid is null or exists (
               select 1 from mixer_messages q where q.id = ${v.replyToId}::uuid and q.mixer_id = m.id
                  and (q.sender_id is null or not ${hiddenFrom(v.userId as string, sql`q.sender_id`)})))
         and not ${mutedInMixers(v.userId as string)}
         ${admission ? sql`and exists (select 1 from admit_pace)` : sql``}
    ),
    ins as (
      insert into mixer_messages (mixer_id, sender_id, kind, body, client_key, reply_to_id, mentions, flag)
      select id, ${v.userId}, 'member', ${v.body}, ${v.clientKey}::text, ${v.replyToId}::uuid, ${v.mentions}::jsonb, ${v.flag}::text from target
      on conflict (sender_id, mixer_id, client_key) do nothing
      returning id, created_at, body, client_key, reply_to_id, edited_at, unsent_at, mentions, flag, true as fresh
    ),
    prior as (
      select id, created_at, body, client_key, reply_to_id, edited_at, unsent_at, mentions, flag, false as fresh from mixer_messages
       where ${v.clientKey}::text is not null and sender_id = ${v.userId} and mixer_id = ${v.mixerId} and client_key = ${v.clientKey}::text
    ),
    line as (select * from ins union all select * from prior limit 1)
    select line.id, line.fresh, ${isoMs('line.created_at')} as created_at, line.body, line.client_key, line.reply_to_id, line.mentions, line.flag,
           ${isoMs('line.edited_at')} as edited_at, ${isoMs('line.unsent_at')} as unsent_at,
           coalesce(p.full_name, u.name) as name, p.avatar_url as avatar,
           ${quoteColumns(v.userId as string)},
           case when r.sender_id is null then null else array(select c.user_id from mixer_memberships c
                  where c.mixer_id = ${v.mixerId} and c.state = 'joined' and ${hiddenFrom(sql`c.user_id`, sql`r.sender_id`)}) end as reply_hidden_for,
           case when line.id is null then null else array(select c.user_id from mixer_memberships c
                  where c.mixer_id = ${v.mixerId} and c.state = 'joined' and c.user_id <> ${v.userId}
                    and ${hiddenFrom(sql`c.user_id`, v.userId as string)}) end as blocked
           ${admission ? sql`, ${admissionOutcomeSql}` : sql``}
      from (select 1) as one left join line on true
      left join "user" u on u.id = ${v.userId} left join profiles p on p.id = u.id
      left join mixer_messages r on r.id = line.reply_to_id
      left join "user" ru on ru.id = r.sender_id
      left join profiles rp on rp.id = r.sender_id`;

const insertChatLine = compiledWrite<InsertedRow, LineValues>((v) => chatLineSql(v));
const insertAdmittedChatLine = compiledWrite<
  InsertedRow & { admit_counted: boolean | null; admit_tat: unknown },
  LineValues | AdmissionSlot
>((v) => chatLineSql(v, admissionCtes(v)));

/** The first line sent with this key, when a concurrent send (another instance) committed it first. */
async function lineByKey(deps: Deps, userId: string, mixerId: string, clientKey: string): Promise<ChatMessage | null> {
  const result = await deps.database.db.execute(sql`
    select mm.id, mm.kind, mm.body, mm.flag, mm.sender_id, mm.mentions, ${isoMs('mm.created_at')} as created_at, '' as cursor_ts,
           coalesce(p.full_name, u.name) as name, p.avatar_url as avatar, mm.reply_to_id, mm.client_key,
           ${isoMs('mm.edited_at')} as edited_at, ${isoMs('mm.unsent_at')} as unsent_at, ${quoteColumns(userId)},
           ${reactionsJsonSql('mixer_message_reactions', sql`mm.id`, (who) => hiddenFrom(userId, who))} as reactions
      from mixer_messages mm join "user" u on u.id = mm.sender_id left join profiles p on p.id = mm.sender_id
      left join mixer_messages r on r.id = mm.reply_to_id
      left join "user" ru on ru.id = r.sender_id
      left join profiles rp on rp.id = r.sender_id
     where mm.sender_id = ${userId} and mm.mixer_id = ${mixerId} and mm.client_key = ${clientKey}`);
  const [row] = rowsOf<MessageRow>(result);
  return row ? toChatMessage(mixerId, row, deps.signer) : null;
}

/** What a member sends: the text, and optionally the line's client key and the line it answers. */
export interface ChatLineInput {
  body: string;
  clientKey?: string;
  replyToId?: string;
  /** Participants the line mentions (issue 29; the body carries `@First` for each), checked by the caller (`checkMentions`). */
  mentions?: string[];
  /** The detectors' verdict (issue 30, guard service): 'abuse' for a line sent anyway. */
  flag?: SafetyFlag | null;
}

/**
 * Posts a member's message to a live mixer and delivers it. Membership, the live window,
 * the insert, the sender's name and avatar and who must not see it: one statement.
 * Delivery goes to the mixer room, or, when blocks sit between the sender (or the author of the
 * line it answers) and some participants, to each other participant's own room so blocked
 * members never receive it (and never see a quote of someone hidden from them).
 * A retry with a used client key answers the first line and delivers nothing again.
 */
export async function postMessage(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  input: ChatLineInput,
): Promise<{ message: ChatMessage; fresh: boolean }> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = await insertChatLine(deps.database, lineValues(userId, mixerId, input));
  return deliverLine(deps, publish, userId, mixerId, input, row);
}

/**
 * As postMessage, with the chat's limits taken in the same statement (`Limits.admission`, one
 * round trip for all three). Null when the first limit was not counted (nothing was): the
 * caller then takes the limits one at a time, which says why; the second one's 429 is thrown.
 */
export async function postAdmittedMessage(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  input: ChatLineInput,
  admission: Admission,
): Promise<{ message: ChatMessage; fresh: boolean } | null> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = await insertAdmittedChatLine(deps.database, { ...lineValues(userId, mixerId, input), ...admission.values });
  if (!(await admission.settle({ admit_counted: row?.admit_counted ?? null, admit_tat: row?.admit_tat }))) return null;
  return deliverLine(deps, publish, userId, mixerId, input, row);
}

const lineValues = (userId: string, mixerId: string, input: ChatLineInput) => {
  const mentions = [...new Set(input.mentions ?? [])];
  return {
    mixerId,
    userId,
    body: input.body,
    clientKey: input.clientKey ?? null,
    replyToId: input.replyToId ?? null,
    mentions: mentions.length ? JSON.stringify(mentions) : null,
    flag: input.flag ?? null,
  };
};

/** The statement's row delivered to the room, or why nothing was posted. */
async function deliverLine(
  deps: Deps,
  publish: Publish,
  userId: string,
  mixerId: string,
  input: ChatLineInput,
  row: InsertedRow | undefined,
): Promise<{ message: ChatMessage; fresh: boolean }> {
  if (!row?.id) {
    const clientKey = input.clientKey ?? null;
    // The same key committed by a concurrent send (another instance) after this statement began.
    const first = clientKey ? await lineByKey(deps, userId, mixerId, clientKey) : null;
    if (first) return { message: first, fresh: false };
    throw await whyNotPosted(deps, userId, mixerId, input.replyToId ?? null);
  }

  const message = toChatMessage(
    mixerId,
    { ...row, id: row.id, kind: 'member', sender_id: userId, cursor_ts: '', reactions: [] },
    deps.signer,
  );
  if (!row.fresh) return { message, fresh: false };
  const event = { type: 'mixer.message' as const, message };
  const blocked = new Set(row.blocked ?? []);
  const quoteHidden = new Set(row.reply_hidden_for ?? []);
  if (blocked.size === 0 && quoteHidden.size === 0) {
    await publish(`mixer:${mixerId}`, event);
  } else {
    // Rare: someone here blocked the sender (or the other way round), or the author of the line it answers.
    const unavailable: ServerEvent = {
      type: 'mixer.message',
      message: { ...message, replyTo: message.replyTo ? { id: message.replyTo.id, senderName: null, body: null } : null },
    };
    const members = await joinedMembers(deps, mixerId);
    await Promise.all(members.filter((m) => !blocked.has(m)).map((m) => publish(`user:${m}`, quoteHidden.has(m) ? unavailable : event)));
  }
  await publish(`user:${userId}`, { type: 'counter', key: 'messagesSent', delta: 1 });
  return { message, fresh: true };
}

export async function joinedMembers(deps: Deps, mixerId: string): Promise<string[]> {
  const rows = rowsOf<{ user_id: string }>(
    await deps.database.db.execute(sql`select user_id from mixer_memberships where mixer_id = ${mixerId} and state = 'joined'`),
  );
  return rows.map((r) => r.user_id);
}

/** A member muted by a moderator writes nothing in mixers: no line, no edit, no reaction, no vote (issue 30). */
export async function refuseMuted(db: Pick<Db, 'execute'>, userId: string): Promise<AppError | null> {
  const muted = await mixerMuteUntil(db, userId);
  return muted ? new AppError('forbidden', MODERATION_MESSAGES.mutedInMixers(muteDate(muted))) : null;
}

export async function whyNotPosted(deps: Deps, userId: string, mixerId: string, replyToId: string | null = null): Promise<AppError> {
  if (!isUuid(mixerId)) return new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = rowsOf<{ status: string | null; open: boolean | null; member: boolean; reply_ok: boolean }>(
    await deps.database.db.execute(sql`
      select m.status, m.ends_at > now() as open,
             exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = 'joined') as member,
             (${replyToId}::uuid is null or exists (
               select 1 from mixer_messages q where q.id = ${replyToId}::uuid and q.mixer_id = m.id
                  and (q.sender_id is null or not ${hiddenFrom(userId, sql`q.sender_id`)}))) as reply_ok
        from mixers m where m.id = ${mixerId}`),
  );
  if (!row) return new AppError('not_found', MIXER_MESSAGES.notFound);
  if (!row.member) return new AppError('forbidden', MIXER_MESSAGES.chatMembersOnly);
  const muted = await refuseMuted(deps.database.db, userId);
  if (muted) return muted;
  if (!row.reply_ok) return new AppError('validation', LINE_MESSAGES.replyElsewhere);
  if (row.status === 'scheduled' && row.open) return new AppError('conflict', MIXER_MESSAGES.chatNotStarted);
  return new AppError('conflict', MIXER_MESSAGES.chatEnded);
}
