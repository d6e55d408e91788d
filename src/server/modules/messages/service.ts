import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { DirectMessage } from '../../../shared/realtime/events';
import { MATCH_MESSAGES, type MatchStatus } from '../../../shared/schemas/matches';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';
import { type ConversationDetail, type ConversationsPage, DM_MAIL_INTERVAL_MS, DM_MESSAGES } from '../../../shared/schemas/messages';
import { compiledRead } from '../../db/prepared';
import { AppError } from '../../http/errors';
import { composeMail, memberNameForMail } from '../../infra/mail/template';
import { firstNameOf } from '../../lib/members';
import { firstNameSql, snippetSql } from '../../lib/chat-sql';
import { hiddenFrom } from '../safety/service';
import { notify } from '../push/service';
import { guardDirectLine, type SafetyFlag } from '../guard/service';
import {
  conversationVisibleTo,
  conversationWritableBy,
  decodeCursor,
  encodeCursor,
  memberView,
  otherMemberColumns,
  type OtherMemberRow,
  lastMessageJoin,
  otherMemberJoins,
  unreadForMe,
  type PreviewRow,
  previewView,
  rows,
  sortKeySql,
  toIso,
  toNumber,
} from '../matches/service';

/**
 * Your conversations, latest activity first (latest message, else when you matched), with
 * previews and unread counts: one statement, keyset-paginated. Current matches, and ended
 * conversations that have messages for the member who ended them (read-only); the other side of
 * an unmatch or a block never finds them (`conversationVisibleTo`).
 */
export async function listConversations(
  app: FastifyInstance,
  me: string,
  opts: { cursor?: string; limit: number },
): Promise<ConversationsPage> {
  const after = decodeCursor(opts.cursor);
  const sortAt = sql`coalesce(lm.created_at, m.created_at)`;
  const result = await rows<
    OtherMemberRow &
      PreviewRow & {
        id: string;
        status: MatchStatus;
        sort_at: Date | string;
        sort_key: string;
        mixer_id: string | null;
        mixer_title: string | null;
        unread: number;
      }
  >(
    app.deps.database.db,
    sql`select m.id, m.status, ${sortAt} as sort_at, ${sortKeySql(sortAt)} as sort_key, m.mixer_id, mx.title as mixer_title,
        ${otherMemberColumns(me)},
        lm.body as lm_body, lm.sender_id as lm_sender, lm.created_at as lm_at, lm.is_read as lm_read,
        case when m.status = 'matched' then
          ${unreadForMe(me)}
        else 0 end as unread
      from matches m
      ${otherMemberJoins(me)}
      left join mixers mx on mx.id = m.mixer_id
      ${lastMessageJoin}
      where (m.profile1_id = ${me} or m.profile2_id = ${me})
        and ${conversationVisibleTo(me)} and (m.status = 'matched' or lm.created_at is not null)
        ${after ? sql`and (${sortAt}, m.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by ${sortAt} desc, m.id desc
      limit ${opts.limit + 1}`,
  );
  const page = result.slice(0, opts.limit);
  const last = page[page.length - 1];
  return {
    conversations: page.map((r) => ({
      id: r.id,
      status: r.status,
      other: memberView(app, r),
      mixer: r.mixer_id && r.mixer_title ? { id: r.mixer_id, title: r.mixer_title } : null,
      lastMessage: previewView(r),
      unreadCount: toNumber(r.unread),
      updatedAt: toIso(r.sort_at) as string,
    })),
    nextCursor: result.length > opts.limit && last ? encodeCursor(last.sort_key, last.id) : null,
  };
}

/** The thread header: who, where you met, and whether you can still write. */
export async function getConversation(app: FastifyInstance, me: string, matchId: string): Promise<ConversationDetail> {
  const [row] = await rows<
    OtherMemberRow & {
      id: string;
      status: MatchStatus;
      created_at: Date | string;
      ended_at: Date | string | null;
      profile1_id: string;
      profile2_id: string;
      mixer_id: string | null;
      mixer_title: string | null;
      mixer_topic: string | null;
      blocked_by_me: boolean;
      visible: boolean;
      writable: boolean;
    }
  >(
    app.deps.database.db,
    sql`select m.id, m.status, m.created_at, m.ended_at, m.profile1_id, m.profile2_id,
        m.mixer_id, mx.title as mixer_title, mx.topic as mixer_topic,
        ${otherMemberColumns(me)},
        exists (select 1 from blocks b where b.blocker_id = ${me} and b.blocked_id = o.id) as blocked_by_me,
        ${conversationVisibleTo(me)} as visible, ${conversationWritableBy(me)} as writable
      from matches m
      ${otherMemberJoins(me)}
      left join mixers mx on mx.id = m.mixer_id
      where m.id = ${matchId}`,
  );
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== me && row.profile2_id !== me) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  return {
    id: row.id,
    status: row.status,
    createdAt: toIso(row.created_at) as string,
    endedAt: toIso(row.ended_at),
    other: memberView(app, row),
    mixer: row.mixer_id && row.mixer_title ? { id: row.mixer_id, title: row.mixer_title, topic: row.mixer_topic ?? '' } : null,
    blockedByMe: row.blocked_by_me,
    canSend: row.writable,
  };
}

/** `created_at` as JavaScript's toISOString() writes it (UTC, milliseconds). */
const isoSql = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

type PageRow = { profile1_id: string; profile2_id: string; visible: boolean; page: string };
type PageKeys = 'matchId' | 'me' | 'fetch' | 'limit' | 'before';

/**
 * The page statement for a match, seen by `me`: the newest `fetch` (= limit + 1) messages
 * before `before` when given, written out as MessagesPage JSON. Keyed on the match id (not a
 * join) so the plan walks (match_id, created_at, id) backwards and stops after the page.
 */
function pageSql(v: Record<PageKeys, unknown>, withBefore: boolean) {
  const me = v.me as string;
  return sql`with m as (select id, status, profile1_id, profile2_id, ended_by from matches where id = ${v.matchId}),
      v as (select ${conversationVisibleTo(sql`${v.me}::text`)} as visible from m),
      x as (
        select d.id, d.sender_id, d.body, d.flag, d.is_read, d.created_at, d.reply_to_id, d.edited_at, d.unsent_at,
               case when d.sender_id = ${v.me} then d.client_key end as client_key,
               case when r.id is null or r.unsent_at is not null or r.removed_at is not null or ${hiddenFrom(me, sql`r.sender_id`)} then null
                    else ${firstNameSql(sql`coalesce(rp.full_name, ru.name)`)} end as reply_name,
               case when r.id is null or r.unsent_at is not null or r.removed_at is not null or ${hiddenFrom(me, sql`r.sender_id`)} then null
                    else ${snippetSql(sql`r.body`)} end as reply_body,
               r.sender_id as reply_sender_id, r.flag as reply_flag
          from direct_messages d
          left join direct_messages r on r.id = d.reply_to_id
          left join "user" ru on ru.id = r.sender_id
          left join profiles rp on rp.id = r.sender_id
         where d.match_id = ${v.matchId} and d.removed_at is null and exists (select 1 from v where v.visible)
           ${
             withBefore
               ? sql`and (d.created_at, d.id) < (select c.created_at, c.id from direct_messages c where c.id = ${v.before} and c.match_id = ${v.matchId})`
               : sql``
           }
         order by d.created_at desc, d.id desc
         limit ${v.fetch}
      ),
      p as (select * from x order by x.created_at desc, x.id desc limit ${v.limit})
      select m.profile1_id, m.profile2_id, (select visible from v) as visible,
        '{"messages":[' || coalesce((
          select string_agg('{"id":"' || p.id || '","matchId":"' || m.id || '","senderId":' || to_json(p.sender_id)::text
                 || ',"body":' || to_json(case when p.unsent_at is null then p.body else '' end)::text
                 || ',"flag":' || coalesce(to_json(p.flag)::text, 'null') || ',"isRead":' || p.is_read::text
                 || ',"createdAt":"' || ${isoSql('p.created_at')} || '"'
                 || ',"replyTo":' || case when p.reply_to_id is null then 'null'
                      else '{"id":"' || p.reply_to_id || '","senderName":' || coalesce(to_json(p.reply_name)::text, 'null')
                        || ',"body":' || coalesce(to_json(p.reply_body)::text, 'null')
                        || case when p.reply_body is null then ''
                             else ',"senderId":' || coalesce(to_json(p.reply_sender_id)::text, 'null')
                               || ',"flag":' || coalesce(to_json(p.reply_flag)::text, 'null') end
                        || '}' end
                 || ',"reactions":' || case when p.unsent_at is not null then '[]' else ${reactionsTextSql(me, sql`p.id`)} end
                 || ',"editedAt":' || coalesce('"' || ${isoSql('p.edited_at')} || '"', 'null')
                 || ',"unsentAt":' || coalesce('"' || ${isoSql('p.unsent_at')} || '"', 'null')
                 || ',"clientKey":' || coalesce(to_json(p.client_key)::text, 'null')
                 || '}', ',' order by p.created_at, p.id) from p), '')
        || '],"nextCursor":'
        || case when (select count(*) from x) > ${v.limit}
             then coalesce((select '"' || p.id || '"' from p order by p.created_at, p.id limit 1), 'null') else 'null' end
        || '}' as page
      from m`;
}

/**
 * A message's reactions as JSON text, exactly as JSON.stringify writes ReactionGroup[] (no
 * spaces), without the people hidden from `viewer`.
 */
const reactionsTextSql = (viewer: string, messageId: ReturnType<typeof sql>) =>
  sql`('[' || coalesce((select string_agg('{"emoji":' || to_json(g.emoji)::text || ',"by":[' || g.by || ']}', ',' order by g.first) from (
        select x.emoji, min(x.created_at) as first,
               string_agg('{"id":' || to_json(x.user_id)::text || ',"firstName":'
                 || to_json(${firstNameSql(sql`coalesce(xp.full_name, xu.name)`)})::text || '}', ',' order by x.created_at) as by
          from direct_message_reactions x
          join "user" xu on xu.id = x.user_id
          left join profiles xp on xp.id = x.user_id
         where x.message_id = ${messageId} and not ${hiddenFrom(viewer, sql`x.user_id`)}
         group by x.emoji) g), '') || ']')`;

const firstPage = compiledRead<PageRow, PageKeys>((v) => pageSql(v, false));
const olderPage = compiledRead<PageRow, PageKeys>((v) => pageSql(v, true));

/**
 * A page of a conversation, newest `limit` before `before` (oldest first in the answer), as
 * the MessagesPage JSON text ready to send. The participant check and the page are one
 * statement (one database round trip), prepared once on the embedded database, its text built
 * once (`compiledRead`), and the database writes the JSON itself: no rows to parse, map and
 * serialise again here (decision 016). Keys and formats are exactly what JSON.stringify of a
 * MessagesPage gives.
 */
export async function messagesPageJson(
  app: FastifyInstance,
  me: string,
  matchId: string,
  opts: { before?: string; limit: number },
): Promise<string> {
  const values = { matchId, me, fetch: opts.limit + 1, limit: opts.limit, before: opts.before ?? null };
  const [row] = await (opts.before ? olderPage : firstPage)(app.deps.database, values);
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== me && row.profile2_id !== me) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  return row.page;
}

interface SendRow {
  status: MatchStatus;
  visible: boolean;
  profile1_id: string;
  profile2_id: string;
  id: string | null;
  fresh: boolean | null;
  reply_ok: boolean;
  recipient_id: string | null;
  body: string | null;
  flag: SafetyFlag | null;
  is_read: boolean | null;
  created_at: Date | string | null;
  edited_at: Date | string | null;
  unsent_at: Date | string | null;
  client_key: string | null;
  reply_to_id: string | null;
  reply_name: string | null;
  reply_body: string | null;
  reply_sender_id: string | null;
  reply_flag: string | null;
  prior_count: number;
  recipient_email: string | null;
  recipient_name: string | null;
  recipient_prefs: Record<string, unknown> | null;
  sender_name: string | null;
}

/** What a member sends: the text, and optionally the line's client key and the message it answers. */
export interface DirectMessageInput {
  body: string;
  clientKey?: string;
  replyToId?: string;
  /** "Send anyway" after Are you sure? (issue 30). */
  confirmed?: boolean;
}

function toDirectMessage(matchId: string, me: string, row: SendRow): DirectMessage {
  return {
    id: row.id as string,
    matchId,
    senderId: me,
    body: row.unsent_at ? '' : (row.body as string),
    flag: row.flag ?? null,
    isRead: Boolean(row.is_read),
    createdAt: toIso(row.created_at) as string,
    replyTo: !row.reply_to_id
      ? null
      : row.reply_body === null
        ? { id: row.reply_to_id, senderName: null, body: null }
        : {
            id: row.reply_to_id,
            senderName: firstNameOf(row.reply_name),
            body: row.reply_body,
            senderId: row.reply_sender_id,
            flag: row.reply_flag,
          },
    reactions: [],
    editedAt: toIso(row.edited_at),
    unsentAt: toIso(row.unsent_at),
    clientKey: row.client_key,
  };
}

/**
 * Sends a direct message: only a member of a current match may (`conversationWritableBy`; 403
 * for anyone else, 404 for the side an unmatch or a block took it from, 409 for the side that
 * keeps it read-only). Delivered live to the conversation room and the recipient;
 * the recipient's unread counter rises; a mail goes out at most once per conversation per hour.
 * A retry with a used client key answers the first message (`fresh` false) and nothing is
 * delivered, counted, pushed or mailed again (decision 032).
 */
export async function sendMessage(
  app: FastifyInstance,
  me: string,
  matchId: string,
  input: DirectMessageInput,
): Promise<{ message: DirectMessage; fresh: boolean }> {
  const db = app.deps.database.db;
  const clientKey = input.clientKey ?? null;
  const replyToId = input.replyToId ?? null;
  // Issue 30: abuse waits for "send anyway"; the verdict goes with the line for the receiver.
  const flag = guardDirectLine(input.body, input.confirmed === true);
  const run = async () => {
    const [found] = await rows<SendRow>(
      db,
      sql`with m as (select id, status, profile1_id, profile2_id, ended_by, created_at from matches where id = ${matchId}),
      ok as (select (${replyToId}::uuid is null or exists (
               select 1 from direct_messages q, m where q.id = ${replyToId}::uuid and q.match_id = m.id)) as reply_ok),
      ins as (
        insert into direct_messages (match_id, sender_id, recipient_id, body, client_key, reply_to_id, flag)
        select m.id, ${me}, case when m.profile1_id = ${me} then m.profile2_id else m.profile1_id end, ${input.body},
               ${clientKey}::text, ${replyToId}::uuid,
               -- contact details are worth a note only in the first 72 hours of a match
               case when ${flag}::text = 'contact' and m.created_at < now() - interval '72 hours' then null else ${flag}::text end
        from m, ok where ${conversationWritableBy(me)} and ok.reply_ok
        on conflict (sender_id, match_id, client_key) do nothing
        returning id, recipient_id, body, flag, is_read, created_at, edited_at, unsent_at, client_key, reply_to_id, true as fresh
      ),
      prior as (
        select id, recipient_id, body, flag, is_read, created_at, edited_at, unsent_at, client_key, reply_to_id, false as fresh
          from direct_messages
         where ${clientKey}::text is not null and sender_id = ${me} and match_id = ${matchId} and client_key = ${clientKey}::text
      ),
      line as (select * from ins union all select * from prior limit 1)
      select m.status, m.profile1_id, m.profile2_id, ${conversationVisibleTo(me)} as visible, ok.reply_ok, line.id, line.fresh, line.recipient_id, line.body, line.flag, line.is_read,
        line.created_at, line.edited_at, line.unsent_at, line.client_key, line.reply_to_id,
        case when r.id is null or r.unsent_at is not null or r.removed_at is not null then null else coalesce(rp.full_name, ru.name) end as reply_name,
        case when r.id is null or r.unsent_at is not null or r.removed_at is not null then null else ${snippetSql(sql`r.body`)} end as reply_body,
        r.sender_id as reply_sender_id, r.flag as reply_flag,
        (select count(*) from direct_messages d where d.match_id = m.id) as prior_count,
        xu.email as recipient_email, coalesce(nullif(trim(xp.full_name), ''), xu.name) as recipient_name,
        xp.preferences as recipient_prefs,
        (select coalesce(nullif(trim(sp.full_name), ''), su.name) from "user" su left join profiles sp on sp.id = su.id
          where su.id = ${me}) as sender_name
      from m cross join ok left join line on true
      left join direct_messages r on r.id = line.reply_to_id
      left join "user" ru on ru.id = r.sender_id
      left join profiles rp on rp.id = r.sender_id
      left join "user" xu on xu.id = line.recipient_id
      left join profiles xp on xp.id = line.recipient_id`,
    );
    return found;
  };
  let row = await run();
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== me && row.profile2_id !== me) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  // The same key committed by a concurrent send (another instance) after this statement began: read it again.
  if (!row.id && clientKey) row = (await run()) ?? row;
  if (!row.id && !row.reply_ok) throw new AppError('validation', LINE_MESSAGES.replyElsewhere);
  if (!row.id || !row.recipient_id) throw new AppError('conflict', DM_MESSAGES.ended);

  const message = toDirectMessage(matchId, me, row);
  if (!row.fresh) return { message, fresh: false };
  const recipient = row.recipient_id;
  const rt = app.realtime;
  await Promise.all([
    rt.publish(`conversation:${matchId}`, { type: 'dm.message', message }),
    rt.publish(`user:${recipient}`, { type: 'dm.message', message }),
    rt.publish(`user:${recipient}`, { type: 'counter', key: 'unreadMessages', delta: 1 }),
    rt.publish(`user:${me}`, { type: 'counter', key: 'messagesSent', delta: 1 }),
    ...(toNumber(row.prior_count) === 0
      ? [
          rt.publish(`user:${me}`, { type: 'counter', key: 'newMatches', delta: -1 }),
          rt.publish(`user:${recipient}`, { type: 'counter', key: 'newMatches', delta: -1 }),
        ]
      : []),
  ]);

  notify(app, recipient, {
    category: 'message',
    url: `/messages/${matchId}`,
    key: `conversation:${matchId}`,
    openRoom: `conversation:${matchId}`,
    fromUserId: me,
    name: firstNameOf(row.sender_name),
    // A line the receiver sees collapsed never shows on a lock screen either.
    ...(message.flag === 'abuse' ? {} : { detail: message.body }),
  });
  if (row.recipient_email && row.recipient_prefs?.notifyMessage !== false) {
    await mailNewMessage(app, {
      matchId,
      to: row.recipient_email,
      recipientName: row.recipient_name,
      senderName: memberNameForMail(firstNameOf(row.sender_name)),
    }).catch((err) => app.log.error({ err, matchId }, 'new-message mail failed'));
  }
  return { message, fresh: true };
}

const NEW_MESSAGE_SUBJECT = 'New message from ';

/** Last new-message mail per conversation and recipient, per app instance (the outbox is checked too). */
const lastMailByApp = new WeakMap<FastifyInstance, Map<string, number>>();

async function mailNewMessage(
  app: FastifyInstance,
  m: { matchId: string; to: string; recipientName: string | null; senderName: string },
): Promise<void> {
  let lastMailAt = lastMailByApp.get(app);
  if (!lastMailAt) {
    lastMailAt = new Map();
    lastMailByApp.set(app, lastMailAt);
  }
  const key = `${m.matchId}:${m.to}`;
  const now = Date.now();
  const seen = lastMailAt.get(key);
  if (seen !== undefined && now - seen < DM_MAIL_INTERVAL_MS) return;
  lastMailAt.set(key, now);
  if (lastMailAt.size > 10_000) {
    for (const [k, at] of lastMailAt) if (now - at >= DM_MAIL_INTERVAL_MS) lastMailAt.delete(k);
  }
  const url = `${app.deps.config.publicUrl}/messages/${m.matchId}`;
  // Another instance (or this one before a restart) may have mailed within the hour.
  const recent = await rows<{ ok: number }>(
    app.deps.database.db,
    // The app's clock, not the database's, so every instance and test agrees on "an hour ago".
    sql`select 1 as ok from mail_outbox where "to" = ${m.to} and created_at > ${new Date(now - DM_MAIL_INTERVAL_MS).toISOString()}::timestamptz
      and subject like ${`${NEW_MESSAGE_SUBJECT}%`} and text like ${`%${url}%`} limit 1`,
  );
  if (recent.length) return;
  await app.deps.mailer.sendMail(
    composeMail(m.to, {
      subject: `${NEW_MESSAGE_SUBJECT}${m.senderName}`,
      greeting: `Hi ${firstNameOf(m.recipientName, 'there')},`,
      lines: [`${m.senderName} sent you a message on Fancy.`, 'Open your conversation to read it and reply.'],
      action: { label: 'Read the message', url },
      footer: 'We send at most one of these per conversation each hour. You can turn them off in Settings.',
    }),
  );
}

/**
 * Marks everything the other member sent you in this conversation as read. Publishes
 * `dm.read` (their "Seen") and lowers your unread counter by as many, never below 0.
 * Across a block (either way) nothing is marked: read state is news about you.
 */
export async function markRead(app: FastifyInstance, me: string, matchId: string): Promise<{ read: number }> {
  const [row] = await rows<{ status: MatchStatus; profile1_id: string; profile2_id: string; visible: boolean; n: number }>(
    app.deps.database.db,
    sql`with m as (select id, status, profile1_id, profile2_id, ended_by from matches where id = ${matchId}),
      upd as (
        update direct_messages d set is_read = true from m
        where d.match_id = m.id and d.recipient_id = ${me} and d.is_read = false and ${conversationVisibleTo(me)}
          and not ${hiddenFrom(me, sql`d.sender_id`)}
        returning d.id
      )
      select m.status, m.profile1_id, m.profile2_id, ${conversationVisibleTo(me)} as visible, (select count(*) from upd) as n from m`,
  );
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== me && row.profile2_id !== me) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  const n = toNumber(row.n);
  if (n > 0) {
    await app.realtime.publish(`conversation:${matchId}`, { type: 'dm.read', matchId, readerId: me });
    // Ended conversations no longer count as unread (their counts were removed when they ended).
    if (row.status === 'matched') await app.realtime.publish(`user:${me}`, { type: 'counter', key: 'unreadMessages', delta: -n });
  }
  return { read: n };
}
