import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ADMIN_MESSAGES,
  type ApproveResult,
  type SuggestionDecision,
  type SuggestionGroup,
  type SuggestionsOverview,
  suggestionKey,
} from '../../../shared/schemas/admin';
import type { InterestCategory } from '../../../shared/reference/catalog';
import { AppError } from '../../http/errors';
import { recordAudit } from './audit';
import { iso, parseJson, type Queryable, query, suggestionKeySql } from '../../lib/sql';

/** Pending groups shown at most (the queue is small in practice; the oldest-busiest come first). */
const PENDING_LIMIT = 200;
const HISTORY_LIMIT = 50;

/** Records the decision on a group's pending suggestions (every spelling of it). */
async function markDecided(tx: Queryable, ids: string[], status: 'approved' | 'rejected', actorId: string) {
  await tx.execute(
    sql`update interest_suggestions set status = ${status}, decided_at = now(), decided_by = ${actorId}
         where id in (${sql.join(
           ids.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})`,
  );
}

interface GroupRow {
  key: string;
  text: string;
  count: number;
  members: number;
  first_at: string;
  last_at: string;
  in_catalogue: boolean;
  suggesters: SuggestionGroup['suggesters'] | string;
}

interface HistoryRow {
  id: string;
  action: string;
  details: string | null;
  created_at: string;
  actor: string | null;
}

/** Pending suggestions grouped case-insensitively, and the latest decisions (from the audit log). */
export async function listSuggestions(db: Queryable): Promise<SuggestionsOverview> {
  const groups = await query<GroupRow>(
    db,
    sql`with s as (
          select ${suggestionKeySql(sql`submitted_interest`)} as key, btrim(submitted_interest) as text, user_id, full_name, created_at
            from interest_suggestions
           where status = 'pending'
        )
        select s.key,
          mode() within group (order by s.text) as text,
          count(*)::int as count,
          count(distinct s.user_id)::int as members,
          ${iso(sql`min(s.created_at)`)} as first_at,
          ${iso(sql`max(s.created_at)`)} as last_at,
          exists (select 1 from predefined_interests p where ${suggestionKeySql(sql`p.name`)} = s.key and p.is_active) as in_catalogue,
          json_agg(json_build_object('userId', s.user_id, 'name', s.full_name, 'createdAt', ${iso(sql`s.created_at`)})
                   order by s.created_at) as suggesters
        from s
       group by s.key
       order by count(*) desc, max(s.created_at) desc
       limit ${PENDING_LIMIT}`,
  );
  const history = await query<HistoryRow>(
    db,
    sql`select a.id, a.action, a.details, ${iso(sql`a.created_at`)} as created_at, u.name as actor
        from audit_log a left join "user" u on u.id = a.actor_id
       where a.action in ('suggestion.approve', 'suggestion.reject')
       order by a.created_at desc, a.id desc
       limit ${HISTORY_LIMIT}`,
  );
  return {
    pending: groups.map((g) => ({
      key: g.key,
      text: g.text,
      count: g.count,
      members: g.members,
      firstAt: g.first_at,
      lastAt: g.last_at,
      inCatalogue: Boolean(g.in_catalogue),
      suggesters: parseJson(g.suggesters, []),
    })),
    history: history.map((h): SuggestionDecision => {
      const d = parseJson<Record<string, unknown>>(h.details, {});
      const str = (v: unknown) => (typeof v === 'string' ? v : null);
      return {
        id: h.id,
        decision: h.action === 'suggestion.approve' ? 'approved' : 'rejected',
        text: str(d.text) ?? '',
        name: str(d.name),
        category: str(d.category),
        count: typeof d.count === 'number' ? d.count : 0,
        note: str(d.note),
        decidedAt: h.created_at,
        decidedBy: h.actor,
      };
    }),
  };
}

interface PendingRow {
  id: string;
  user_id: string;
  text: string;
}

/** Locks and returns the pending suggestions with this text (any case or spacing). */
async function lockPending(tx: Queryable, text: string): Promise<PendingRow[]> {
  const rows = await query<PendingRow>(
    tx,
    sql`select id, user_id, btrim(submitted_interest) as text from interest_suggestions
         where status = 'pending' and ${suggestionKeySql(sql`submitted_interest`)} = ${suggestionKey(text)}
         order by created_at
         for update`,
  );
  if (!rows.length) throw new AppError('not_found', ADMIN_MESSAGES.suggestionNotFound);
  return rows;
}

const mostCommon = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
};

/**
 * Approves a suggestion: the interest joins the catalogue once (whatever the case or spacing of
 * its duplicates; an inactive one is switched back on) and every pending suggestion with that
 * text is marked approved, in one transaction. The suggesters hear about it in realtime.
 */
export async function approveSuggestion(
  app: FastifyInstance,
  actorId: string,
  input: { text: string; name?: string; category: InterestCategory },
): Promise<ApproveResult> {
  const db = app.deps.database.db;
  const outcome = await db.transaction(async (tx) => {
    const pending = await lockPending(tx, input.text);
    const name = (input.name ?? mostCommon(pending.map((p) => p.text))).replace(/\s+/g, ' ').trim();
    // One statement: reuse an interest with the same key (case/spacing-insensitive), else insert.
    const [interest] = await query<{ name: string; category: string; added: boolean }>(
      tx,
      sql`with existing as (
            update predefined_interests set is_active = true
             where id = (select id from predefined_interests
                          where ${suggestionKeySql(sql`name`)} in (${suggestionKey(name)}, ${suggestionKey(input.text)})
                          order by is_active desc, id limit 1)
            returning name, category
          ),
          inserted as (
            insert into predefined_interests (name, category)
            select ${name}, ${input.category} where not exists (select 1 from existing)
            on conflict (name) do nothing
            returning name, category
          )
          select name, category, false as added from existing
          union all
          select name, category, true as added from inserted`,
    );
    const ids = pending.map((p) => p.id);
    await markDecided(tx, ids, 'approved', actorId);
    const result = {
      name: interest?.name ?? name,
      category: (interest?.category ?? input.category) as InterestCategory,
      added: Boolean(interest?.added),
      approved: ids.length,
    };
    await recordAudit(tx, actorId, 'suggestion.approve', result.name, {
      text: mostCommon(pending.map((p) => p.text)),
      name: result.name,
      category: result.category,
      added: result.added,
      count: ids.length,
    });
    return { result, suggesters: [...new Set(pending.map((p) => p.user_id))] };
  });
  app.catalog.interests.invalidate();
  for (const userId of outcome.suggesters) {
    await app.realtime.publish(`user:${userId}`, {
      type: 'notice',
      title: 'Your suggestion is in!',
      description: `"${outcome.result.name}" is now in the interest list. Add it to your profile whenever you like.`,
    });
  }
  return outcome.result;
}

/** Rejects every pending suggestion with this text. Suggesters are not told; the note stays internal. */
export async function rejectSuggestion(
  app: FastifyInstance,
  actorId: string,
  input: { text: string; note?: string },
): Promise<{ rejected: number }> {
  return app.deps.database.db.transaction(async (tx) => {
    const pending = await lockPending(tx, input.text);
    const ids = pending.map((p) => p.id);
    await markDecided(tx, ids, 'rejected', actorId);
    const text = mostCommon(pending.map((p) => p.text));
    await recordAudit(tx, actorId, 'suggestion.reject', text, {
      text,
      count: ids.length,
      note: input.note || null,
    });
    return { rejected: ids.length };
  });
}
