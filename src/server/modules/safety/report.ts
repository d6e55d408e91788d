import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type EvidenceLine, hiddenByReports, severityOf } from '../../../shared/schemas/moderation';
import { FANCY_MESSAGES } from '../../../shared/schemas/matches';
import { type ReportLineInput, type ReportReason, SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { AppError } from '../../http/errors';
import { type Queryable, iso, query } from '../../lib/sql';
import { conversationVisibleTo } from './conversation-access';
import { hiddenFrom } from './visibility';

/**
 * Reports with frozen evidence (issue 30, decision 036). At the moment of the report we copy the
 * line, the 10 lines before and after it in that room (with authors), the reported member's
 * profile text and their main photo (a copy under `evidence/{reportId}/`), so unsend, edit,
 * block, the end of the mixer or either account's deletion takes nothing from the moderator.
 */

const CONTEXT = 10;
const name = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}p.full_name), ''), ${alias}u.name, 'A member')`);

interface Line {
  id: string;
  body: string;
  created_at: string;
  author_id: string | null;
  author_name: string;
}
const toLine = (r: Line): EvidenceLine => ({
  id: r.id,
  body: r.body,
  createdAt: r.created_at,
  authorId: r.author_id,
  authorName: r.author_id ? r.author_name : 'Fancy',
});

/** Where a reported line was written: a mixer's room or a private conversation. */
const ROOMS = {
  mixer: { table: sql`mixer_messages`, room: sql`mixer_id` },
  direct: { table: sql`direct_messages`, room: sql`match_id` },
} as const;

/** The 10 lines before and after a reported line (every line of its room, as it was). */
async function lineContext(db: Queryable, kind: keyof typeof ROOMS, roomId: string, at: { created: string; id: string }) {
  const { table, room } = ROOMS[kind];
  const around = (dir: 'before' | 'after') =>
    query<Line>(
      db,
      sql`select l.id, l.body, ${iso(sql`l.created_at`)} as created_at, l.sender_id as author_id, ${name('a')} as author_name
            from ${table} l left join "user" au on au.id = l.sender_id left join profiles ap on ap.id = l.sender_id
           where l.${room} = ${roomId}::uuid and ${
             dir === 'before'
               ? sql`(l.created_at, l.id) < (${at.created}::timestamptz, ${at.id}::uuid)`
               : sql`(l.created_at, l.id) > (${at.created}::timestamptz, ${at.id}::uuid)`
           }
           order by ${dir === 'before' ? sql`l.created_at desc, l.id desc` : sql`l.created_at asc, l.id asc`}
           limit ${CONTEXT}`,
    );
  const [before, after] = await Promise.all([around('before'), around('after')]);
  return { before: before.reverse().map(toLine), after: after.map(toLine) };
}

/**
 * The reported member's profile text as it is now (every free-text field another member sees: the
 * answers to the profile's prompts, pronouns and city with the bio), and their main photo's storage key.
 */
async function profileNow(db: Queryable, memberId: string) {
  const [p] = await query<{ name: string; bio: string | null; prompt: string | null; avatar: string | null }>(
    db,
    sql`select ${name('')} as name, p.bio,
               nullif(concat_ws(E'\n', nullif(p.small_joy, ''), nullif(p.love_to_talk_about, ''), nullif(p.value_in_relationships, ''),
                      nullif(p.shared_experience, ''), nullif(p.fun_fact, ''), nullif(p.prompt_answer, ''),
                      'Pronouns: ' || nullif(p.pronouns, ''), 'City: ' || nullif(p.city_region, '')), '') as prompt,
               p.avatar_url as avatar
          from "user" u left join profiles p on p.id = u.id where u.id = ${memberId}`,
  );
  return p ?? null;
}

/** Copies the main photo so it outlives the member's own deletion of it or of the account. */
async function copyPhoto(app: FastifyInstance, reportId: string, key: string | null): Promise<string | null> {
  if (!key) return null;
  try {
    const file = await app.deps.storage.get(key);
    if (!file) return null;
    const copy = `evidence/${reportId}/photo`;
    await app.deps.storage.put(copy, file.data, file.contentType);
    return copy;
  } catch (err) {
    app.log.error({ err, reportId }, 'could not copy the reported photo into the evidence');
    return null;
  }
}

interface Target {
  reportedId: string;
  mixerId: string | null;
  matchId: string | null;
  line: EvidenceLine;
  context: { before: EvidenceLine[]; after: EvidenceLine[] };
}

/**
 * Finds the line and checks the reporter may report it: a line of that room that the reporter can
 * see (a joined member of the mixer and the author not hidden from them, or one of the two of the
 * private chat — the one who blocked keeps it read-only to report from), not their own, not a
 * system line, not removed.
 */
async function lineTarget(db: Queryable, me: string, input: ReportLineInput): Promise<Target> {
  const notFound = () => new AppError('not_found', SAFETY_MESSAGES.lineNotFound);
  if (input.kind === 'mixer') {
    const [row] = await query<Line & { cursor: string }>(
      db,
      sql`select mm.id, mm.body, ${iso(sql`mm.created_at`)} as created_at, mm.created_at::text as cursor,
                 mm.sender_id as author_id, ${name('a')} as author_name
            from mixer_messages mm left join "user" au on au.id = mm.sender_id left join profiles ap on ap.id = mm.sender_id
           where mm.id = ${input.messageId}::uuid and mm.mixer_id = ${input.roomId}::uuid and mm.removed_at is null
             and exists (select 1 from mixer_memberships c where c.mixer_id = mm.mixer_id and c.user_id = ${me} and c.state = 'joined')
             and (mm.sender_id is null or mm.sender_id = ${me} or not ${hiddenFrom(me, sql`mm.sender_id`)})`,
    );
    if (!row) throw notFound();
    if (!row.author_id) throw new AppError('bad_request', SAFETY_MESSAGES.lineSystem);
    if (row.author_id === me) throw new AppError('bad_request', SAFETY_MESSAGES.lineOwn);
    const context = await lineContext(db, 'mixer', input.roomId, { created: row.cursor, id: row.id });
    return { reportedId: row.author_id, mixerId: input.roomId, matchId: null, line: toLine(row), context };
  }
  const [row] = await query<Line & { cursor: string }>(
    db,
    sql`select dm.id, dm.body, ${iso(sql`dm.created_at`)} as created_at, dm.created_at::text as cursor,
               dm.sender_id as author_id, ${name('a')} as author_name
          from direct_messages dm left join "user" au on au.id = dm.sender_id left join profiles ap on ap.id = dm.sender_id
         where dm.id = ${input.messageId}::uuid and dm.match_id = ${input.roomId}::uuid and dm.removed_at is null
           and (dm.sender_id = ${me} or dm.recipient_id = ${me})
           -- The member a block or an unmatch took the conversation from finds nothing here either (decision 037).
           and exists (select 1 from matches m where m.id = dm.match_id and ${conversationVisibleTo(me)})`,
  );
  if (!row) throw notFound();
  if (row.author_id === me) throw new AppError('bad_request', SAFETY_MESSAGES.lineOwn);
  const context = await lineContext(db, 'direct', input.roomId, { created: row.cursor, id: row.id });
  return { reportedId: row.author_id as string, mixerId: null, matchId: input.roomId, line: toLine(row), context };
}

/**
 * Reports a line (issue 30): evidence frozen, severity from the reason, and — in a mixer — the
 * line hidden for everyone once two different members of the room have reported it.
 */
export async function reportLine(app: FastifyInstance, me: string, input: ReportLineInput): Promise<{ id: string; hidden: boolean }> {
  const { db } = app.deps.database;
  const target = await lineTarget(db, me, input);
  const [twice] = await query<{ id: string }>(
    db,
    sql`select id from reports where reporter_id = ${me} and message_id = ${input.messageId}::uuid`,
  );
  if (twice) throw new AppError('conflict', SAFETY_MESSAGES.lineTwice);
  const id = randomUUID();
  const profile = await profileNow(db, target.reportedId);
  const photoKey = await copyPhoto(app, id, profile?.avatar ?? null);
  const evidence = {
    frozenAt: new Date().toISOString(),
    line: target.line,
    before: target.context.before,
    after: target.context.after,
    profile: profile ? { name: profile.name, bio: profile.bio ?? '', promptAnswer: profile.prompt ?? '' } : null,
  };
  try {
    await db.execute(
      sql`insert into reports (id, reporter_id, reported_id, mixer_id, match_id, message_id, target_kind, reason, details, status, severity, evidence, evidence_photo_key)
          values (${id}::uuid, ${me}, ${target.reportedId}, ${target.mixerId}::uuid, ${target.matchId}::uuid, ${input.messageId}::uuid,
                  ${input.kind}, ${input.reason}, ${input.details ?? ''}, 'open', ${severityOf(input.reason)}, ${JSON.stringify(evidence)}::jsonb, ${photoKey})`,
    );
  } catch (err) {
    if (photoKey) await app.deps.storage.remove(photoKey).catch(() => {});
    // Two taps racing past the check above meet the unique index.
    if (String((err as { cause?: { code?: string }; code?: string }).cause?.code ?? (err as { code?: string }).code) === '23505')
      throw new AppError('conflict', SAFETY_MESSAGES.lineTwice);
    throw err;
  }
  const hidden = input.kind === 'mixer' ? await hideIfReportedTwice(app, input.roomId, input.messageId) : false;
  return { id, hidden };
}

/**
 * The two-reporter rule: a mixer line reported by two different members who hold a seat in that
 * room is hidden for everyone ("Hidden while we check") until a moderator restores or removes it.
 */
async function hideIfReportedTwice(app: FastifyInstance, mixerId: string, messageId: string): Promise<boolean> {
  const { db } = app.deps.database;
  const reporters = await query<{ reporter_id: string }>(
    db,
    sql`select r.reporter_id from reports r
         where r.message_id = ${messageId}::uuid and r.target_kind = 'mixer' and r.status = 'open'
           and exists (select 1 from mixer_memberships c where c.mixer_id = ${mixerId}::uuid and c.user_id = r.reporter_id and c.state = 'joined')`,
  );
  if (!hiddenByReports(reporters.map((r) => r.reporter_id))) return false;
  const changed = await query<{ id: string }>(
    db,
    sql`update mixer_messages set hidden_at = now() where id = ${messageId}::uuid and hidden_at is null and removed_at is null returning id`,
  );
  if (changed.length > 0) await app.realtime.publish(`mixer:${mixerId}`, { type: 'mixer.line', mixerId, messageId, state: 'hidden' });
  return true;
}

/**
 * Reports a member from their card: the evidence is their profile text and main photo as they
 * were and, when a mixer is named, their last lines in it.
 */
export async function reportMember(
  app: FastifyInstance,
  me: string,
  input: { userId: string; mixerId?: string | null; reason: ReportReason; details: string },
): Promise<{ id: string }> {
  if (input.userId === me) throw new AppError('bad_request', SAFETY_MESSAGES.reportSelf);
  const { db } = app.deps.database;
  const mixerId = input.mixerId ?? null;
  const [ok] = await query<{ user_ok: boolean; mixer_ok: boolean }>(
    db,
    sql`select exists (select 1 from "user" where id = ${input.userId}) as user_ok,
               (${mixerId}::uuid is null or exists (select 1 from mixers where id = ${mixerId}::uuid)) as mixer_ok`,
  );
  if (!ok?.user_ok) throw new AppError('not_found', FANCY_MESSAGES.unknownMember);
  if (!ok.mixer_ok) throw new AppError('validation', SAFETY_MESSAGES.unknownMixer, { mixerId: SAFETY_MESSAGES.unknownMixer });
  const id = randomUUID();
  const profile = await profileNow(db, input.userId);
  const lines = mixerId
    ? await query<Line>(
        db,
        sql`select mm.id, mm.body, ${iso(sql`mm.created_at`)} as created_at, mm.sender_id as author_id, ${name('a')} as author_name
              from mixer_messages mm left join "user" au on au.id = mm.sender_id left join profiles ap on ap.id = mm.sender_id
             where mm.mixer_id = ${mixerId}::uuid and mm.sender_id = ${input.userId}
             order by mm.created_at desc limit ${CONTEXT}`,
      )
    : [];
  const photoKey = await copyPhoto(app, id, profile?.avatar ?? null);
  const evidence = {
    frozenAt: new Date().toISOString(),
    line: null,
    before: lines.reverse().map(toLine),
    after: [],
    profile: profile ? { name: profile.name, bio: profile.bio ?? '', promptAnswer: profile.prompt ?? '' } : null,
  };
  await db.execute(
    sql`insert into reports (id, reporter_id, reported_id, mixer_id, target_kind, reason, details, status, severity, evidence, evidence_photo_key)
        values (${id}::uuid, ${me}, ${input.userId}, ${mixerId}::uuid, 'member', ${input.reason}, ${input.details}, 'open',
                ${severityOf(input.reason)}, ${JSON.stringify(evidence)}::jsonb, ${photoKey})`,
  );
  return { id };
}
