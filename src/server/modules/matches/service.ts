import type { FastifyInstance } from 'fastify';
import { type SQL, sql } from 'drizzle-orm';
import { isVerifiedSql } from '../verification/service';
import {
  MATCH_MESSAGES,
  type MatchesPage,
  type MatchMember,
  type MatchStatus,
  type MatchSummary,
  type MessagePreview,
} from '../../../shared/schemas/matches';
import type { Db } from '../../db/client';
import { isCursorTimestamp, isUuid, readCursor } from '../../http/cursor';
import { AppError } from '../../http/errors';
import { composeMail, memberNameForMail } from '../../infra/mail/template';
import { firstNameOf } from '../../lib/members';
import { notify } from '../push/service';
import { conversationVisibleTo, hiddenFrom, otherOf } from '../safety/service';

export { conversationVisibleTo, conversationWritableBy } from '../safety/service';

/** A transaction handle or the database: both run the same statements. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;

/** Rows of a raw statement (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const toIso = (v: Date | string | null | undefined): string | null => (v == null ? null : new Date(v).toISOString());
export const toNumber = (v: string | number | bigint | null | undefined): number => Number(v ?? 0);

/** The pair is stored ordered (profile1_id < profile2_id) so it is unique either way round. */
export function orderedPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/**
 * Columns describing "the other member" of match `m` as `me` may see them, for statements
 * that join `o` (the other id), `ou` ("user") and `op` (profiles). City only when the member
 * shares it; neither photo nor city once the other is hidden from me (a block either way, a
 * suspension): nothing new about them reaches me.
 */
export const otherMemberColumns = (me: string) => sql`o.id as other_id, coalesce(nullif(trim(op.full_name), ''), ou.name) as other_name,
  op.avatar_url as other_avatar, case when op.share_city_region then op.city_region end as other_city,
  ${hiddenFrom(me, sql`o.id`)} as other_hidden, ${isVerifiedSql(sql`o.id`)} as other_verified`;

export const otherMemberJoins = (
  me: string,
) => sql`cross join lateral (select case when m.profile1_id = ${me} then m.profile2_id else m.profile1_id end as id) o
  join "user" ou on ou.id = o.id
  left join profiles op on op.id = o.id`;

/** How many of the match `m`'s messages I have not read. */
export const unreadForMe = (me: string) =>
  sql`(select count(*) from direct_messages d where d.match_id = m.id and d.recipient_id = ${me} and d.is_read = false)`;

/**
 * Joins `lm`: the match `m`'s latest message (body, sender_id, created_at, is_read), if any; an
 * unsent one has no text to preview, so the one before it (issue 29).
 */
export const lastMessageJoin = sql`left join lateral (
        select d.body, d.sender_id, d.created_at, d.is_read from direct_messages d
        where d.match_id = m.id and d.unsent_at is null and d.removed_at is null order by d.created_at desc, d.id desc limit 1
      ) lm on true`;

export interface OtherMemberRow {
  other_id: string;
  other_name: string | null;
  other_avatar: string | null;
  other_city: string | null;
  other_hidden: boolean;
  other_verified?: boolean | null;
}

export function memberView(app: FastifyInstance, row: OtherMemberRow): MatchMember {
  return {
    id: row.other_id,
    firstName: firstNameOf(row.other_name),
    avatarUrl: row.other_avatar && !row.other_hidden ? app.deps.signer.url(row.other_avatar) : null,
    city: row.other_hidden ? null : (row.other_city ?? null),
    verified: !row.other_hidden && Boolean(row.other_verified),
  };
}

export interface PreviewRow {
  lm_body: string | null;
  lm_sender: string | null;
  lm_at: Date | string | null;
  lm_read: boolean | null;
}

export const previewView = (row: PreviewRow): MessagePreview | null =>
  row.lm_body == null
    ? null
    : {
        body: row.lm_body.slice(0, 200),
        senderId: row.lm_sender as string,
        createdAt: toIso(row.lm_at) as string,
        isRead: Boolean(row.lm_read),
      };

/** Keyset cursors: the exact timestamp text (microseconds) and the id, base64url-encoded. */
export function encodeCursor(sortKey: string, id: string): string {
  return Buffer.from(`${sortKey}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { at: string; id: string } | null {
  const value = readCursor(cursor, (text) => {
    const [at, id, ...rest] = text.split('|');
    return rest.length === 0 && isCursorTimestamp(at) && isUuid(id) ? { at, id } : undefined;
  });
  return value ?? null;
}

/** Postgres text of a timestamp with microseconds, for cursors. */
export const sortKeySql = (expr: SQL) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The match of a conversation as `userId` may see it (`conversationVisibleTo`): 404 when it does
 * not exist or is no longer theirs to see (the other side of a block or an unmatch), 403 for
 * anyone but the two members.
 */
export async function requireParticipant(
  db: Queryable,
  matchId: string,
  userId: string,
): Promise<{ id: string; status: MatchStatus; otherId: string }> {
  const [row] = await rows<{ id: string; status: MatchStatus; profile1_id: string; profile2_id: string; visible: boolean }>(
    db,
    sql`select m.id, m.status, m.profile1_id, m.profile2_id, ${conversationVisibleTo(userId)} as visible from matches m where m.id = ${matchId}`,
  );
  if (!row) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  if (row.profile1_id !== userId && row.profile2_id !== userId) throw new AppError('forbidden', MATCH_MESSAGES.notYours);
  if (!row.visible) throw new AppError('not_found', MATCH_MESSAGES.notFound);
  return { id: row.id, status: row.status, otherId: row.profile1_id === userId ? row.profile2_id : row.profile1_id };
}

/**
 * Whether a member may listen to a conversation (guards `conversation:` rooms): they may see it
 * (`conversationVisibleTo`) and the other is not hidden from them (a block either way, a
 * suspension: nothing live passes across a block, not even to the blocker).
 */
export async function isParticipant(db: Queryable, matchId: string, userId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(matchId)) return false;
  const found = await rows<{ ok: number }>(
    db,
    sql`select 1 as ok from matches m where m.id = ${matchId} and ${conversationVisibleTo(userId)}
      and not ${hiddenFrom(userId, otherOf(userId))}`,
  );
  return found.length > 0;
}

/** Your current matches (status matched), newest first, with the last message: one query. */
export async function listMatches(app: FastifyInstance, me: string, opts: { cursor?: string; limit: number }): Promise<MatchesPage> {
  const after = decodeCursor(opts.cursor);
  const result = await rows<
    OtherMemberRow &
      PreviewRow & {
        id: string;
        created_at: Date | string;
        sort_key: string;
        mixer_id: string | null;
        mixer_title: string | null;
        unread: number;
      }
  >(
    app.deps.database.db,
    sql`select m.id, m.created_at, ${sortKeySql(sql`m.created_at`)} as sort_key, m.mixer_id, mx.title as mixer_title,
        ${otherMemberColumns(me)},
        lm.body as lm_body, lm.sender_id as lm_sender, lm.created_at as lm_at, lm.is_read as lm_read,
        ${unreadForMe(me)} as unread
      from matches m
      ${otherMemberJoins(me)}
      left join mixers mx on mx.id = m.mixer_id
      ${lastMessageJoin}
      where (m.profile1_id = ${me} or m.profile2_id = ${me}) and m.status = 'matched' and ${conversationVisibleTo(me)}
        ${after ? sql`and (m.created_at, m.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by m.created_at desc, m.id desc
      limit ${opts.limit + 1}`,
  );
  const page = result.slice(0, opts.limit);
  const matches: MatchSummary[] = page.map((r) => ({
    id: r.id,
    createdAt: toIso(r.created_at) as string,
    other: memberView(app, r),
    mixer: r.mixer_id && r.mixer_title ? { id: r.mixer_id, title: r.mixer_title } : null,
    lastMessage: previewView(r),
    unreadCount: toNumber(r.unread),
  }));
  const last = page[page.length - 1];
  return { matches, nextCursor: result.length > opts.limit && last ? encodeCursor(last.sort_key, last.id) : null };
}

interface EndedRow {
  id: string;
  profile1_id: string;
  profile2_id: string;
  unread1: number;
  unread2: number;
  has_messages: boolean;
}

/**
 * Ends a match that is currently `matched` (unmatch or block) and tells both members: the
 * conversation turns read-only, `match.ended` goes to both, and their counters drop
 * (matches −1, unread messages of that conversation, a new match that never got a message).
 * With `status: 'blocked'` an already-unmatched pair is also marked blocked. `by` (who ended it)
 * alone keeps the conversation, read-only (`conversationVisibleTo`); a later block keeps the first.
 */
export async function endMatch(
  app: FastifyInstance,
  where: { matchId: string } | { pair: [string, string] },
  status: 'unmatched' | 'blocked',
  by: string,
): Promise<{ ended: boolean; matchId: string | null }> {
  const db = app.deps.database.db;
  const target =
    'matchId' in where
      ? sql`id = ${where.matchId}`
      : sql`profile1_id = ${orderedPair(...where.pair)[0]} and profile2_id = ${orderedPair(...where.pair)[1]}`;
  const [row] = await rows<EndedRow & { was: MatchStatus }>(
    db,
    sql`with prev as (select id, status from matches where ${target} for update),
      ended as (
        update matches m set status = ${status}, ended_at = coalesce(m.ended_at, now()),
          ended_by = case when prev.status = 'matched' then ${by} else m.ended_by end
        from prev where m.id = prev.id and (prev.status = 'matched' or (${status} = 'blocked' and prev.status = 'unmatched'))
        returning m.id, m.profile1_id, m.profile2_id, prev.status as was
      )
      select e.id, e.profile1_id, e.profile2_id, e.was,
        (select count(*) from direct_messages d where d.match_id = e.id and d.recipient_id = e.profile1_id and d.is_read = false) as unread1,
        (select count(*) from direct_messages d where d.match_id = e.id and d.recipient_id = e.profile2_id and d.is_read = false) as unread2,
        exists (select 1 from direct_messages d where d.match_id = e.id) as has_messages
      from ended e`,
  );
  if (!row) return { ended: false, matchId: null };
  // The side it was taken from stops hearing the conversation at once (new subscriptions are refused).
  const takenFrom = row.profile1_id === by ? row.profile2_id : row.profile1_id;
  await app.realtime.removeFromRoom(takenFrom, `conversation:${row.id}`);
  if (row.was === 'matched') {
    const rt = app.realtime;
    const sides: [string, number][] = [
      [row.profile1_id, toNumber(row.unread1)],
      [row.profile2_id, toNumber(row.unread2)],
    ];
    await Promise.all(
      sides.flatMap(([userId, unread]) => [
        rt.publish(`user:${userId}`, { type: 'match.ended', matchId: row.id }),
        rt.publish(`user:${userId}`, { type: 'counter', key: 'matches', delta: -1 }),
        unread > 0 ? rt.publish(`user:${userId}`, { type: 'counter', key: 'unreadMessages', delta: -unread }) : undefined,
        row.has_messages ? undefined : rt.publish(`user:${userId}`, { type: 'counter', key: 'newMatches', delta: -1 }),
      ]),
    );
  }
  return { ended: true, matchId: row.id };
}

/** Unmatch: the conversation ends for both (read-only), and the pair's fancies are cleared. */
export async function unmatch(app: FastifyInstance, me: string, matchId: string): Promise<{ status: MatchStatus }> {
  const db = app.deps.database.db;
  const match = await requireParticipant(db, matchId, me);
  if (match.status !== 'matched') return { status: match.status };
  await endMatch(app, { matchId }, 'unmatched', me);
  // Without this a later fancy from one side would instantly re-match on the other's old fancy.
  await db.execute(
    sql`delete from fancies where (from_user_id = ${me} and to_user_id = ${match.otherId}) or (from_user_id = ${match.otherId} and to_user_id = ${me})`,
  );
  return { status: 'unmatched' };
}

/**
 * Creates the match of a mutual fancy inside the caller's transaction, or revives an ended
 * one (both fancied again after an unmatch). Returns the id and whether it is new news.
 */
export async function createOrReviveMatch(
  tx: Tx,
  a: string,
  b: string,
  mixerId: string | null,
): Promise<{ matchId: string; created: boolean } | null> {
  const [p1, p2] = orderedPair(a, b);
  const inserted = await rows<{ id: string }>(
    tx,
    sql`insert into matches (profile1_id, profile2_id, status, mixer_id) values (${p1}, ${p2}, 'matched', ${mixerId})
      on conflict (profile1_id, profile2_id) do nothing returning id`,
  );
  if (inserted[0]) return { matchId: inserted[0].id, created: true };
  const [existing] = await rows<{ id: string; status: MatchStatus }>(
    tx,
    sql`select id, status from matches where profile1_id = ${p1} and profile2_id = ${p2}`,
  );
  if (!existing) return null;
  if (existing.status === 'matched') return { matchId: existing.id, created: false };
  await tx.execute(
    sql`update matches set status = 'matched', ended_at = null, ended_by = null, mixer_id = coalesce(${mixerId}::uuid, mixer_id) where id = ${existing.id}`,
  );
  return { matchId: existing.id, created: true };
}

interface AnnounceRow {
  id: string;
  email: string;
  name: string | null;
  preferences: Record<string, unknown> | null;
}

/** "It's a match!": realtime to both, counters +1, and a mail to each who wants one. */
export async function announceMatch(app: FastifyInstance, matchId: string, a: string, b: string): Promise<void> {
  const db = app.deps.database.db;
  const people = await rows<AnnounceRow & { mixer_title: string | null; has_messages: boolean }>(
    db,
    sql`select u.id, u.email, coalesce(nullif(trim(p.full_name), ''), u.name) as name, p.preferences,
        (select mx.title from matches m join mixers mx on mx.id = m.mixer_id where m.id = ${matchId}) as mixer_title,
        exists (select 1 from direct_messages d where d.match_id = ${matchId}) as has_messages
      from "user" u left join profiles p on p.id = u.id where u.id in (${a}, ${b})`,
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  const rt = app.realtime;
  const { publicUrl } = app.deps.config;
  for (const [meId, otherId] of [
    [a, b],
    [b, a],
  ] as const) {
    const me = byId.get(meId);
    const other = byId.get(otherId);
    if (!me || !other) continue;
    const otherName = firstNameOf(other.name);
    const mailName = memberNameForMail(otherName);
    await rt.publish(`user:${meId}`, { type: 'match.created', matchId, otherName });
    await rt.publish(`user:${meId}`, { type: 'counter', key: 'matches', delta: 1 });
    if (!me.has_messages) await rt.publish(`user:${meId}`, { type: 'counter', key: 'newMatches', delta: 1 });
    notify(app, meId, {
      category: 'match',
      url: `/messages/${matchId}`,
      key: `conversation:${matchId}`,
      fromUserId: otherId,
      name: otherName,
    });
    if (me.preferences?.notifyMatch === false) continue;
    try {
      await app.deps.mailer.sendMail(
        composeMail(me.email, {
          subject: `It's a match! You and ${mailName} fancy each other`,
          greeting: `Hi ${firstNameOf(me.name, 'there')},`,
          lines: [
            me.mixer_title
              ? `Good news: you and ${mailName} both fancied each other after “${me.mixer_title}”.`
              : `Good news: you and ${mailName} both fancied each other.`,
            'Your private conversation is open now. A friendly hello is all it takes.',
          ],
          action: { label: `Say hello to ${mailName}`, url: `${publicUrl}/messages/${matchId}` },
          footer: 'You can turn off match emails in Settings.',
        }),
      );
    } catch (err) {
      app.log.error({ err, matchId }, 'match mail failed');
    }
  }
}
