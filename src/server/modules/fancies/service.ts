import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { AFTER_MIXER_PROMPT_MS } from '../../../shared/formation';
import { FANCY_MESSAGES, type FancyResult } from '../../../shared/schemas/matches';
import { AppError } from '../../http/errors';
import { sharedMixer } from '../safety/service';
import { announceMatch, createOrReviveMatch, orderedPair, rows } from '../matches/service';

/**
 * Whom you fancied among the members you share this mixer with (decision 024; your own fancies
 * only: a fancy is private).
 */
export async function listFancied(app: FastifyInstance, me: string, mixerId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    app.deps.database.db,
    sql`select f.to_user_id as id from fancies f
      where f.from_user_id = ${me} and ${sharedMixer(me, sql`f.to_user_id`, mixerId)}
      order by f.created_at`,
  );
  return found.map((r) => r.id);
}

/**
 * Fancies a co-participant of a mixer (DESIGN §6). Idempotent. Only while the mixer runs and for
 * AFTER_MIXER_PROMPT_MS (48 hours) after it ends, the window the "Who did you click with?" prompt
 * gives (decision 014, issue 32): one rule, here on the server. When the other member already
 * fancies you, exactly one match is created: the pair is serialised with a transaction-scoped
 * advisory lock, so two simultaneous fancies cannot both miss each other, and the ordered-pair
 * unique index makes the insert itself race-free.
 */
export async function fancy(app: FastifyInstance, me: string, targetId: string, mixerId: string): Promise<FancyResult> {
  if (targetId === me) throw new AppError('bad_request', FANCY_MESSAGES.self);
  const db = app.deps.database.db;
  const [check] = await rows<{ target_exists: boolean; mixer_started: boolean | null; window_closed: boolean | null; shared: boolean }>(
    db,
    sql`select
      exists (select 1 from "user" where id = ${targetId}) as target_exists,
      (select status <> 'cancelled' and (status in ('live', 'ended') or starts_at <= now()) from mixers where id = ${mixerId}) as mixer_started,
      (select ends_at <= now() - make_interval(secs => ${AFTER_MIXER_PROMPT_MS / 1000}) from mixers where id = ${mixerId}) as window_closed,
      ${sharedMixer(me, targetId, mixerId)} as shared`,
  );
  if (!check?.target_exists) throw new AppError('not_found', FANCY_MESSAGES.unknownMember);
  // Decision 024: both still in this mixer. A block (or a suspension) is part of that rule, so it
  // looks exactly like "not shared" and does not reveal itself.
  if (!check.shared) throw new AppError('forbidden', FANCY_MESSAGES.notShared);
  if (!check.mixer_started) throw new AppError('forbidden', FANCY_MESSAGES.notStarted);
  if (check.window_closed) throw new AppError('forbidden', FANCY_MESSAGES.closed);

  const [p1, p2] = orderedPair(me, targetId);
  const outcome = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`fancy:${p1}:${p2}`}))`);
    await tx.execute(
      sql`insert into fancies (from_user_id, to_user_id, mixer_id) values (${me}, ${targetId}, ${mixerId})
        on conflict (from_user_id, to_user_id) do nothing`,
    );
    const reverse = await rows<{ ok: number }>(
      tx,
      sql`select 1 as ok from fancies where from_user_id = ${targetId} and to_user_id = ${me}`,
    );
    if (!reverse.length) return null;
    return createOrReviveMatch(tx, me, targetId, mixerId);
  });
  if (outcome?.created) await announceMatch(app, outcome.matchId, me, targetId);
  return { fancied: true, matchId: outcome?.matchId ?? null, newMatch: Boolean(outcome?.created) };
}

/** Takes a fancy back. An existing match stays: unmatching is a separate, explicit act. */
export async function unfancy(app: FastifyInstance, me: string, targetId: string): Promise<{ fancied: false }> {
  await app.deps.database.db.execute(sql`delete from fancies where from_user_id = ${me} and to_user_id = ${targetId}`);
  return { fancied: false };
}

/** Clears both directions of a pair's fancies (used by blocks). */
export async function clearFancies(app: FastifyInstance, a: string, b: string): Promise<void> {
  await app.deps.database.db.execute(
    sql`delete from fancies where (from_user_id = ${a} and to_user_id = ${b}) or (from_user_id = ${b} and to_user_id = ${a})`,
  );
}
