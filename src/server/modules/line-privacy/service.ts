import { sql } from 'drizzle-orm';
import type { AppDeps as Deps } from '../../deps';
import { LINE_PRIVACY_MESSAGES, type LineKind, type LinePrivacy } from '../../../shared/schemas/line-privacy';
import { AppError } from '../../http/errors';
import { type Queryable, query } from '../../lib/sql';
import { conversationVisibleTo } from '../matches/service';
import { hiddenFrom } from '../safety/service';

/**
 * Hide a line, mute a member in a mixer: for the member alone (issue 30, decision 037). Nothing
 * here changes what anyone else sees or is told; the member's own client collapses those lines
 * in history and live events from `linePrivacyFor`.
 */

/** SQL: the line exists and `me` can see it: a mixer line of a mixer they hold a seat in (or held), or a message of a conversation they may see. */
const lineVisibleTo = (me: string, kind: LineKind, messageId: string) =>
  kind === 'mixer'
    ? sql`exists (select 1 from mixer_messages l join mixer_memberships s on s.mixer_id = l.mixer_id and s.user_id = ${me}
        where l.id = ${messageId} and s.state in ('joined', 'left') and (l.sender_id is null or not ${hiddenFrom(me, sql`l.sender_id`)}))`
    : sql`exists (select 1 from direct_messages l join matches m on m.id = l.match_id
        where l.id = ${messageId} and ${conversationVisibleTo(me)})`;

export async function hideLine(deps: Deps, me: string, kind: LineKind, messageId: string): Promise<{ hidden: true }> {
  const [row] = await query<{ ok: boolean }>(
    deps.database.db,
    sql`with ok as (select ${lineVisibleTo(me, kind, messageId)} as ok),
      ins as (insert into hidden_lines (user_id, kind, message_id) select ${me}, ${kind}, ${messageId}::uuid from ok where ok.ok
              on conflict do nothing returning 1)
      select ok.ok from ok`,
  );
  if (!row?.ok) throw new AppError('not_found', LINE_PRIVACY_MESSAGES.lineNotFound);
  return { hidden: true };
}

/** Shows a hidden line again (idempotent). */
export async function showLine(deps: Deps, me: string, kind: LineKind, messageId: string): Promise<{ hidden: false }> {
  await deps.database.db.execute(
    sql`delete from hidden_lines where user_id = ${me} and kind = ${kind} and message_id = ${messageId}::uuid`,
  );
  return { hidden: false };
}

/**
 * Mutes `target` in mixer `mixerId` for `me`: both must hold (or have held) a seat in it, and a
 * member hidden from `me` reads as not there (nothing leaks across a block).
 */
export async function muteMember(deps: Deps, me: string, mixerId: string, target: string): Promise<{ muted: true }> {
  if (target === me) throw new AppError('bad_request', LINE_PRIVACY_MESSAGES.muteSelf);
  const [row] = await query<{ mine: boolean; theirs: boolean }>(
    deps.database.db,
    sql`with c as (
        select exists (select 1 from mixer_memberships where mixer_id = ${mixerId}::uuid and user_id = ${me} and state in ('joined', 'left')) as mine,
               exists (select 1 from mixer_memberships where mixer_id = ${mixerId}::uuid and user_id = ${target} and state in ('joined', 'left'))
                 and not ${hiddenFrom(me, target)} as theirs),
      ins as (insert into mixer_mutes (user_id, mixer_id, muted_id) select ${me}, ${mixerId}::uuid, ${target} from c where c.mine and c.theirs
              on conflict do nothing returning 1)
      select c.mine, c.theirs from c`,
  );
  if (!row?.mine) throw new AppError('not_found', LINE_PRIVACY_MESSAGES.mixerNotFound);
  if (!row.theirs) throw new AppError('not_found', LINE_PRIVACY_MESSAGES.memberNotInMixer);
  return { muted: true };
}

/** Unmutes (idempotent). */
export async function unmuteMember(deps: Deps, me: string, mixerId: string, target: string): Promise<{ muted: false }> {
  await deps.database.db.execute(
    sql`delete from mixer_mutes where user_id = ${me} and mixer_id = ${mixerId}::uuid and muted_id = ${target}`,
  );
  return { muted: false };
}

/** What `me` hid in a mixer or a conversation, and whom they muted in that mixer. */
export async function linePrivacyFor(deps: Deps, me: string, where: { mixerId?: string; matchId?: string }): Promise<LinePrivacy> {
  const db = deps.database.db;
  if (where.mixerId) {
    const [hidden, muted] = await Promise.all([
      query<{ id: string }>(
        db,
        sql`select h.message_id as id from hidden_lines h join mixer_messages l on l.id = h.message_id
          where h.user_id = ${me} and h.kind = 'mixer' and l.mixer_id = ${where.mixerId}::uuid order by h.created_at`,
      ),
      query<{ id: string }>(
        db,
        sql`select muted_id as id from mixer_mutes where user_id = ${me} and mixer_id = ${where.mixerId}::uuid order by created_at`,
      ),
    ]);
    return { hiddenLineIds: hidden.map((r) => r.id), mutedMemberIds: muted.map((r) => r.id) };
  }
  const hidden = await query<{ id: string }>(
    db,
    sql`select h.message_id as id from hidden_lines h join direct_messages l on l.id = h.message_id
      where h.user_id = ${me} and h.kind = 'dm' and l.match_id = ${where.matchId ?? null}::uuid order by h.created_at`,
  );
  return { hiddenLineIds: hidden.map((r) => r.id), mutedMemberIds: [] };
}

/** The member's own hidden lines and mutes, for "Download my data". */
export async function linePrivacyExport(db: Queryable, me: string) {
  const [hidden, muted] = await Promise.all([
    query<{ kind: string; message_id: string; created_at: Date | string }>(
      db,
      sql`select kind, message_id, created_at from hidden_lines where user_id = ${me} order by created_at`,
    ),
    query<{ mixer_id: string; muted_id: string; created_at: Date | string }>(
      db,
      sql`select mixer_id, muted_id, created_at from mixer_mutes where user_id = ${me} order by created_at`,
    ),
  ]);
  return {
    hidden_lines: hidden.map((h) => ({ kind: h.kind, messageId: h.message_id, createdAt: new Date(h.created_at).toISOString() })),
    mixer_mutes: muted.map((m) => ({ mixerId: m.mixer_id, mutedUserId: m.muted_id, createdAt: new Date(m.created_at).toISOString() })),
  };
}
