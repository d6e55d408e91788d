import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import {
  AGE_REVIEW_TEXT,
  attemptsLeft,
  BLINK_PROMPT_MS,
  CAPTURE_FPS,
  type EarlierCheck,
  CHALLENGE_TTL_MS,
  type ChallengeStep,
  FAIL_REASONS,
  type FailReason,
  FRAME_PROBLEMS,
  MATCH_NEEDS_REVIEW_TEXT,
  MATCH_REVIEW_TEXT,
  newBlinkAt,
  newChallengeSteps,
  REVOKED_REASONS,
  type RevokedReason,
  type ReviewKind,
  STEP_MS,
  TOO_MANY_ATTEMPTS,
  type VerificationReview,
  type VerificationStatus,
} from '../../../shared/verification';
import type { AppDeps } from '../../deps';
import { textArray } from '../../db/text-array';
import { AppError } from '../../http/errors';
import { recordAudit } from '../../lib/audit';
import { epochMs, iso, parseJson, type Queryable, query } from '../../lib/sql';
import { type FaceEngine, type FaceFound, faceSimilarity } from './engine';
import type { CaptureFrame } from './liveness';
import {
  AUTO_VERIFY_SIMILARITY,
  DUPLICATE_SIMILARITY,
  frameProblem,
  fullFrames,
  judge,
  mainPhotoChanged,
  mainPhotoOutcome,
  meanVector,
  photoStillMatches,
  type Verdict,
} from './rules';

/**
 * What other modules use of verification (DESIGN §3, decision 027): the "verified" test in SQL.
 * Taking a member whose badge went out of verified-only mixers is the mixers module's
 * (`mixers/verified-only.ts`), which uses this one; verification uses no module.
 */
export { isVerifiedSql } from './is-verified';

type Deps = Pick<AppDeps, 'database' | 'storage' | 'config'>;

/**
 * What every verdict records as its method (decision 022): the measure of likeness and the bar a
 * match verifies at are part of it (decision 031).
 */
export const METHOD = `live-capture:turn-trajectory+blink+antispoof+liveness+photo-match-cosine-median>=${AUTO_VERIFY_SIMILARITY}+age-estimate`;
/**
 * Today's liveness with an earlier match, whose badges are re-checked in the background from the
 * kept face against today's match (`recheckEarlierMatches`): until 2026-11-30 a match of 0.65 by
 * Human's euclidean similarity verified on its own; then, later that day, one of 0.78 by it.
 */
export const MATCH_AT_065_METHOD = 'live-capture:turn-trajectory+blink+antispoof+liveness+photo-match-median+age-estimate';
export const MATCH_BY_DISTANCE_METHOD = 'live-capture:turn-trajectory+blink+antispoof+liveness+photo-match-median>=0.78+age-estimate';
const EARLIER_MATCHES = [MATCH_AT_065_METHOD, MATCH_BY_DISTANCE_METHOD];

// ——— the face template, encrypted at rest ———

function templateKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'fancy', 'face-template-v1', 32));
}

export function encryptVector(secret: string, vector: number[]): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', templateKey(secret), iv);
  const data = Buffer.concat([cipher.update(Buffer.from(new Float32Array(vector).buffer)), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decryptVector(secret: string, text: string): number[] {
  const [iv, tag, data] = text.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', templateKey(secret), iv);
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(data), decipher.final()]);
  return Array.from(new Float32Array(plain.buffer, plain.byteOffset, plain.byteLength / 4));
}

// ——— status ———

/**
 * Today's (UTC) tries (decision 031): a try is spent when a challenge is issued; it stays spent
 * unless the check verifies, goes to a person, or is refused before any judgement ('void').
 */
async function triesLeft(db: Queryable, userId: string): Promise<number> {
  const [row] = await query<{ spent: number; issued: number }>(
    db,
    sql`select count(*) filter (where outcome is null or outcome = 'failed')::int as spent, count(*)::int as issued
          from verification_challenges
         where user_id = ${userId} and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
  );
  return attemptsLeft(Number(row?.spent ?? 0), Number(row?.issued ?? 0));
}

export async function getStatus(db: Queryable, userId: string): Promise<VerificationStatus> {
  const [v] = await query<{ status: string; verified_at: string | null; revoked_reason: string | null }>(
    db,
    sql`select status, ${iso(sql`verified_at`)} as verified_at, revoked_reason from member_verifications where user_id = ${userId}`,
  );
  if (v?.status === 'verified' && v.verified_at) return { state: 'verified', verifiedAt: v.verified_at };
  const [review] = await query<{ kind: ReviewKind; since: string }>(
    db,
    sql`select kind, ${iso(sql`created_at`)} as since from verification_reviews
         where user_id = ${userId} and status = 'open' order by created_at desc limit 1`,
  );
  if (review) return { state: 'review', kind: review.kind, since: review.since };
  const revoked = v?.status === 'revoked';
  const revokedReason = REVOKED_REASONS.find((r) => r === v?.revoked_reason);
  return {
    state: 'unverified',
    revoked,
    ...(revoked && revokedReason ? { revokedReason } : {}),
    attemptsLeft: await triesLeft(db, userId),
  };
}

// ——— a check ———

export async function startChallenge(deps: Deps, userId: string, keepForReview: boolean, appeal = false) {
  const { db } = deps.database;
  const status = await getStatus(db, userId);
  if (status.state === 'verified') throw new AppError('conflict', 'You are already verified.');
  if (status.state === 'review') throw new AppError('conflict', 'Your check is with our team — we will let you know the outcome.');
  if (status.attemptsLeft === 0) throw new AppError('rate_limited', TOO_MANY_ATTEMPTS);
  if (appeal) {
    if (!keepForReview) throw new AppError('validation', APPEAL_NEEDS_PICTURES);
    const [failed] = await query<{ n: number }>(
      db,
      sql`select count(*)::int as n from verification_attempts where user_id = ${userId} and outcome = 'failed'`,
    );
    if (!Number(failed?.n)) throw new AppError('conflict', 'You can ask a person to look once a check has said no.');
  }
  // Issued under a lock on the member's row, so concurrent requests cannot all pass the count
  // (PostgreSQL; PGlite runs one transaction at a time anyway).
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from "user" where id = ${userId} for update`);
    if ((await triesLeft(tx, userId)) === 0) throw new AppError('rate_limited', TOO_MANY_ATTEMPTS);
    const steps = newChallengeSteps();
    const blinkAtMs = newBlinkAt();
    const [row] = await query<{ id: string; expires_at: string }>(
      tx,
      sql`insert into verification_challenges (user_id, steps, blink_at_ms, consent_at, keep_for_review, appeal, expires_at)
          values (${userId}, ${sql`${`{${steps.join(',')}}`}::text[]`}, ${blinkAtMs}, now(), ${keepForReview}, ${appeal}, now() + ${`${CHALLENGE_TTL_MS} milliseconds`}::interval)
          returning id, ${iso(sql`expires_at`)} as expires_at`,
    );
    return { id: row.id, steps, stepMs: STEP_MS, fps: CAPTURE_FPS, blinkAtMs, expiresAt: row.expires_at };
  });
}

/**
 * A check refused for its pictures before anything judged them (decision 031): the challenge is
 * used up (its order has been seen) but gives its try back; the day's cap on challenges counts it.
 */
export async function voidChallenge(deps: Deps, userId: string, challengeId: string) {
  await deps.database.db.execute(sql`update verification_challenges set used_at = now(), outcome = 'void'
    where id = ${challengeId} and user_id = ${userId} and used_at is null`);
}

export type CheckResult =
  | { outcome: 'verified'; message: string }
  | { outcome: 'review'; message: string }
  | { outcome: 'failed'; reason: FailReason | 'age_needs_review' | 'match_needs_review'; message: string; attemptsLeft: number };

const EXPIRED = 'This check has expired — please start again.';
const APPEAL_NEEDS_PICTURES = 'To ask a person to look, please agree to keep your pictures for that review.';
const APPEAL_TEXT =
  'Thanks — a member of our team will look at this check, usually within a day. Your pictures are deleted as soon as it is decided.';
/** Refusals a person can overturn on appeal (not "no face" or "two faces": those need a new try). */
const APPEALABLE: FailReason[] = ['photo_mismatch', 'challenge', 'spoof', 'not_same_person', 'no_blink', 'not_straight', 'still_picture'];
const BUSY = 'Lots of people are getting verified right now — please try again in a minute.';
const UNAVAILABLE = 'We couldn’t run the check just now — please try again in a minute.';
/** Checks allowed to wait for a worker before new ones are turned away (each takes ~2 s). */
export const MAX_QUEUED_CHECKS = 20;

/** The whole check: the frames are analysed in memory and dropped; only the verdict is written. */
export async function submitCheck(
  deps: Deps,
  engine: FaceEngine,
  userId: string,
  challengeId: string,
  frames: Buffer[],
  /** Each frame's step and capture time (ms), as the browser filmed them. */
  capture: CaptureFrame[],
): Promise<CheckResult> {
  const { db } = deps.database;
  if (engine.queued() >= MAX_QUEUED_CHECKS) throw new AppError('unavailable', BUSY);
  // Single use: the first submission takes the challenge, whatever its outcome.
  const [challenge] = await query<{
    steps: string[] | string;
    blink_at_ms: number | null;
    keep_for_review: boolean;
    appeal: boolean;
    since_ms: number;
  }>(
    db,
    sql`update verification_challenges set used_at = now()
         where id = ${challengeId} and user_id = ${userId} and used_at is null and expires_at > now()
         returning steps, blink_at_ms, keep_for_review, appeal,
           ${epochMs(sql`now()`)} - (${epochMs(sql`expires_at`)} - ${CHALLENGE_TTL_MS}) as since_ms`,
  );
  if (!challenge) throw new AppError('conflict', EXPIRED);
  const steps = (
    typeof challenge.steps === 'string' ? challenge.steps.replace(/[{}]/g, '').split(',') : challenge.steps
  ) as ChallengeStep[];
  const settle = (outcome: 'failed' | 'verified' | 'review' | 'void') =>
    db.execute(sql`update verification_challenges set outcome = ${outcome} where id = ${challengeId}`);

  const [profile] = await query<{ avatar_url: string | null }>(db, sql`select avatar_url from profiles where id = ${userId}`);
  const photo = profile?.avatar_url ? await deps.storage.get(profile.avatar_url) : null;
  const issued = { steps, blinkAtMs: Number(challenge.blink_at_ms ?? BLINK_PROMPT_MS[0]) };
  // The description and spoof models run on a few frames; the rest only give angles and eyes.
  const full = capture.length === frames.length ? fullFrames(capture, issued) : frames.map((_, i) => i);
  const light = frames.map((_, i) => i).filter((i) => !full.includes(i));
  let analysis: Awaited<ReturnType<FaceEngine['analyse']>>;
  try {
    analysis = await engine.analyse(photo ? [...frames, photo.data] : frames, { light });
  } catch {
    // Nothing is recorded: the failure is ours, not the member's (no try spent).
    await settle('void');
    throw new AppError('unavailable', UNAVAILABLE);
  }
  // A damaged, dark or black-and-white picture: a clear refusal with what to do, no try spent.
  const problem = frameProblem(analysis.images.slice(0, frames.length));
  if (problem) {
    await settle('void');
    throw new AppError('validation', FRAME_PROBLEMS[problem]);
  }
  const hashes = frames.map((f) => createHash('sha256').update(f).digest('hex'));
  const verdict = judge(
    issued,
    analysis.images.slice(0, frames.length),
    capture,
    full,
    hashes,
    Number(challenge.since_ms),
    photo ? (analysis.images[frames.length] ?? null) : null,
  );
  // One face per described frame: what an appeal keeps as its template if a person approves it.
  const faces = full.map((i) => analysis.images[i]).map((i) => (i?.faces.length === 1 ? i.faces[0] : null));
  const appealable =
    challenge.appeal && challenge.keep_for_review && faces.length && faces.every((f) => f?.embedding.length)
      ? meanVector(faces as FaceFound[])
      : null;
  const result = await recordVerdict(
    deps,
    userId,
    verdict,
    analysis.version,
    challenge.keep_for_review,
    // A person looking (age review, appeal) sees the described frames, not the whole capture.
    full.map((i) => frames[i]),
    appealable,
    photo ? profile.avatar_url : null,
  );
  await settle(result.outcome);
  return result.outcome === 'failed' ? { ...result, attemptsLeft: await triesLeft(db, userId) } : result;
}

async function recordVerdict(
  deps: Deps,
  userId: string,
  verdict: Verdict,
  version: string,
  keepForReview: boolean,
  frames: Buffer[],
  /** An appeal's template (mean face of its frames), when this check is an appeal with one face per frame. */
  appealVector: number[] | null = null,
  /** The main photo the selfie was compared with: a later main photo that differs is re-checked. */
  photoKey: string | null = null,
): Promise<CheckResult> {
  const { db } = deps.database;
  const modelVersion = `@vladmandic/human@${version}`;
  const attempt = async (outcome: string, reason: string | null) =>
    db.execute(sql`insert into verification_attempts (user_id, outcome, reason, method, model_version, scores)
      values (${userId}, ${outcome}, ${reason}, ${METHOD}, ${modelVersion}, ${JSON.stringify(verdict.scores)}::jsonb)`);

  if (verdict.result === 'failed' && appealVector && APPEALABLE.includes(verdict.reason)) {
    // Refused again on appeal: a person decides, from the frames the member agreed to keep.
    await attempt('review', `appeal:${verdict.reason}`);
    const template = encryptVector(deps.config.verificationKey, appealVector);
    await db.execute(sql`insert into member_verifications (user_id, status, method, model_version, face_vector, photo_key)
      values (${userId}, 'pending', ${METHOD}, ${modelVersion}, ${template}, ${photoKey})
      on conflict (user_id) do update set status = 'pending', method = excluded.method, model_version = excluded.model_version,
        face_vector = excluded.face_vector, photo_key = excluded.photo_key, verified_at = null, updated_at = now()`);
    await openReview(deps, userId, 'appeal', { ...verdict.scores }, frames, null, verdict.reason);
    return { outcome: 'review', message: APPEAL_TEXT };
  }
  if (verdict.result === 'failed') {
    await attempt('failed', verdict.reason);
    return {
      outcome: 'failed',
      reason: verdict.reason,
      message: FAIL_REASONS[verdict.reason],
      attemptsLeft: 0, // counted by the caller once the challenge is settled
    };
  }

  const template = encryptVector(deps.config.verificationKey, verdict.vector);
  const duplicate = await findDuplicate(deps, userId, verdict.vector);
  const saveTemplate = (status: 'verified' | 'pending') =>
    db.execute(sql`insert into member_verifications (user_id, status, method, model_version, face_vector, photo_key, verified_at)
      values (${userId}, ${status}, ${METHOD}, ${modelVersion}, ${template}, ${photoKey}, ${status === 'verified' ? sql`now()` : null})
      on conflict (user_id) do update set status = excluded.status, method = excluded.method, model_version = excluded.model_version,
        face_vector = excluded.face_vector, photo_key = excluded.photo_key, verified_at = excluded.verified_at, revoked_reason = null, updated_at = now()`);

  if (verdict.result === 'match_review') {
    // A match across an apparent gender difference, or not close enough to verify on its own: a
    // person compares, from the frames the member agreed to keep. Without them there is nothing
    // to compare, so the member is asked to try again with a person to look (an appeal keeps them).
    if (!keepForReview) {
      await attempt('failed', 'match_needs_review');
      return {
        outcome: 'failed',
        reason: 'match_needs_review',
        message: MATCH_NEEDS_REVIEW_TEXT,
        attemptsLeft: 0, // counted by the caller once the challenge is settled
      };
    }
    await attempt('review', 'match');
    await saveTemplate('pending');
    await openReview(deps, userId, 'match', verdict.scores, frames, duplicate?.userId ?? null, verdict.why);
    return { outcome: 'review', message: MATCH_REVIEW_TEXT };
  }

  if (verdict.result === 'age_review') {
    if (!keepForReview) {
      await attempt('failed', 'age_needs_review');
      return {
        outcome: 'failed',
        reason: 'age_needs_review',
        message: `${AGE_REVIEW_TEXT} Try again and tick “keep my pictures for a review”, so one of our team can confirm it.`,
        attemptsLeft: 0, // counted by the caller once the challenge is settled
      };
    }
    await attempt('review', 'age');
    await saveTemplate('pending');
    await openReview(deps, userId, 'age', verdict.scores, frames, duplicate?.userId ?? null);
    return {
      outcome: 'review',
      message: `${AGE_REVIEW_TEXT} One of our team will look at your pictures, usually within a day; they are deleted as soon as it is decided.`,
    };
  }

  if (duplicate) {
    await attempt('review', 'duplicate');
    await saveTemplate('pending');
    await openReview(deps, userId, 'duplicate', { ...verdict.scores, duplicate: duplicate.similarity }, [], duplicate.userId);
    return { outcome: 'review', message: 'Thanks — we need a member of our team to look at this check. We will let you know the outcome.' };
  }
  await attempt('verified', null);
  await saveTemplate('verified');
  return { outcome: 'verified', message: 'You’re verified. Your badge now shows on your profile, in mixers, matches and messages.' };
}

async function openReview(
  deps: Deps,
  userId: string,
  kind: ReviewKind,
  scores: object,
  frames: Buffer[],
  otherUserId: string | null,
  note: string | null = null,
) {
  const { db } = deps.database;
  const [row] = await query<{ id: string }>(
    db,
    sql`insert into verification_reviews (user_id, kind, scores, other_user_id, note)
        values (${userId}, ${kind}, ${JSON.stringify(scores)}::jsonb, ${otherUserId}, ${note}) returning id`,
  );
  if (!frames.length) return;
  const keys = frames.map((_, i) => `${userId}/verification-review-${row.id}-${i}.jpg`);
  for (const [i, key] of keys.entries()) await deps.storage.put(key, frames[i], 'image/jpeg');
  await db.execute(sql`update verification_reviews set frame_keys = ${sql`${`{${keys.join(',')}}`}::text[]`} where id = ${row.id}`);
}

/** The same face on another account: other members' kept templates, including suspended ones. */
async function findDuplicate(deps: Deps, userId: string, vector: number[]): Promise<{ userId: string; similarity: number } | null> {
  const rows = await query<{ user_id: string; face_vector: string }>(
    deps.database.db,
    sql`select user_id, face_vector from member_verifications where user_id <> ${userId} and face_vector is not null`,
  );
  let best: { userId: string; similarity: number } | null = null;
  for (const r of rows) {
    let other: number[];
    try {
      other = decryptVector(deps.config.verificationKey, r.face_vector);
    } catch {
      continue;
    }
    const similarity = faceSimilarity(vector, other);
    if (similarity >= DUPLICATE_SIMILARITY && (!best || similarity > best.similarity)) best = { userId: r.user_id, similarity };
  }
  return best;
}

export type MainPhotoOutcome = 'not_verified' | 'unchanged' | 'kept' | 'removed';

/**
 * The one place a changed main photo is noticed, whatever changed it (an upload, "make main",
 * removing it, onboarding): the badge remembers the main photo it was checked against
 * (`photo_key`), so a verified member whose current main photo is another one is re-checked
 * against their kept face. A clearly different face (or no face) removes the badge until the
 * member verifies again; no main photo at all leaves nothing to contradict it.
 */
export async function reconcileMainPhoto(deps: Deps, engine: FaceEngine, userId: string): Promise<MainPhotoOutcome> {
  const { db } = deps.database;
  const [v] = await query<{ face_vector: string | null; photo_key: string | null; avatar_url: string | null; method: string }>(
    db,
    sql`select mv.face_vector, mv.photo_key, p.avatar_url, mv.method
          from member_verifications mv left join profiles p on p.id = mv.user_id
         where mv.user_id = ${userId} and mv.status = 'verified'`,
  );
  if (!v?.face_vector) return 'not_verified';
  if (!mainPhotoChanged(v.photo_key, v.avatar_url)) return 'unchanged';
  // A badge from an earlier check (decision 031) stays only until the next main-photo change: its
  // liveness cannot be re-checked from the stored vector, so the member takes today's check. A
  // badge from an earlier match had today's liveness: its kept face is compared as today's.
  const earlier = v.method !== METHOD && !EARLIER_MATCHES.includes(v.method);
  const photo = v.avatar_url ? await deps.storage.get(v.avatar_url) : null;
  if (v.avatar_url && !photo && !earlier) return 'unchanged'; // the row points at a file being replaced: the next change re-checks
  const analysis = photo && !earlier ? (await engine.analyse([photo.data])).images[0] : null;
  const { keep, similarity } = earlier
    ? { keep: false, similarity: null }
    : mainPhotoOutcome(decryptVector(deps.config.verificationKey, v.face_vector), analysis);
  // Applied only if nothing changed meanwhile (another request re-checked, or the photo changed again).
  const unchangedSince = sql`user_id = ${userId} and status = 'verified' and photo_key is not distinct from ${v.photo_key}
    and ${v.avatar_url}::text is not distinct from (select avatar_url from profiles where id = ${userId})`;
  if (keep) {
    await db.execute(sql`update member_verifications set photo_key = ${v.avatar_url}, updated_at = now() where ${unchangedSince}`);
    return 'kept';
  }
  const revoked = await revokeBadge(deps, userId, unchangedSince, 'main_photo_changed', {
    similarity,
    ...(earlier ? { earlierCheck: v.method } : {}),
  });
  return revoked ? 'removed' : 'unchanged';
}

/** Takes the badge away if its row is still as read (`asRead`), with its audit entry; true when it went. */
async function revokeBadge(deps: Deps, userId: string, asRead: SQL, reason: RevokedReason, details: Record<string, unknown>) {
  return deps.database.db.transaction(async (tx) => {
    const rows = await query<{ user_id: string }>(
      tx,
      sql`update member_verifications set status = 'revoked', verified_at = null, revoked_reason = ${reason}, updated_at = now()
           where ${asRead} returning user_id`,
    );
    if (rows.length) await recordAudit(tx, null, 'verification.revoke', userId, { reason, ...details });
    return rows.length > 0;
  });
}

/**
 * Badges earned with today's liveness and an earlier match (EARLIER_MATCHES), re-checked against
 * today's match from the kept face and the main photo it was checked against:
 * close enough, the badge now carries today's METHOD; not, it is removed (the member verifies
 * again, and a match in the band goes to a person). Where it cannot be done — no main photo, the
 * photo changed since (the main-photo re-check's), a template that does not decrypt — the badge
 * stays until the next main-photo change, like other earlier checks. Safe on several instances:
 * each change applies only if the row is as it was read. Returns the members whose badge went.
 */
export async function recheckEarlierMatches(deps: Deps, engine: FaceEngine): Promise<string[]> {
  const { db } = deps.database;
  const rows = await query<{ user_id: string; method: string; face_vector: string; photo_key: string | null; avatar_url: string | null }>(
    db,
    sql`select mv.user_id, mv.method, mv.face_vector, mv.photo_key, p.avatar_url
          from member_verifications mv left join profiles p on p.id = mv.user_id
         where mv.status = 'verified' and mv.method = any(${textArray(EARLIER_MATCHES)}) and mv.face_vector is not null`,
  );
  const removed: string[] = [];
  for (const r of rows) {
    if (!r.avatar_url || r.avatar_url !== r.photo_key) continue;
    let vector: number[];
    try {
      vector = decryptVector(deps.config.verificationKey, r.face_vector);
    } catch {
      continue;
    }
    const photo = await deps.storage.get(r.avatar_url);
    if (!photo) continue;
    const { keep, similarity } = photoStillMatches(vector, (await engine.analyse([photo.data])).images[0]);
    const asRead = sql`user_id = ${r.user_id} and status = 'verified' and method = ${r.method} and photo_key = ${r.photo_key}`;
    const details = { similarity, bar: AUTO_VERIFY_SIMILARITY };
    if (!keep) {
      if (await revokeBadge(deps, r.user_id, asRead, 'match_rechecked', details)) removed.push(r.user_id);
      continue;
    }
    await db.transaction(async (tx) => {
      const kept = await query<{ user_id: string }>(
        tx,
        sql`update member_verifications set method = ${METHOD}, updated_at = now() where ${asRead} returning user_id`,
      );
      if (kept.length) await recordAudit(tx, null, 'verification.recheck', r.user_id, { reason: 'match_rechecked', ...details });
    });
  }
  return removed;
}

// ——— admin ———

export async function listReviews(deps: Deps & Pick<AppDeps, 'signer'>): Promise<VerificationReview[]> {
  const rows = await query<{
    id: string;
    kind: VerificationReview['kind'];
    status: string;
    created_at: string;
    user_id: string;
    name: string;
    email: string;
    other_user_id: string | null;
    other_name: string | null;
    scores: Record<string, number> | string;
    frame_keys: string[] | string;
    note: string | null;
  }>(
    deps.database.db,
    sql`select r.id, r.kind, r.status, ${iso(sql`r.created_at`)} as created_at, r.user_id, u.name, u.email,
               r.other_user_id, o.name as other_name, r.scores, r.frame_keys, r.note
          from verification_reviews r join "user" u on u.id = r.user_id left join "user" o on o.id = r.other_user_id
         where r.status = 'open' order by r.created_at asc limit 100`,
  );
  return rows.map((r) => {
    const keys = typeof r.frame_keys === 'string' ? r.frame_keys.replace(/[{}]/g, '').split(',').filter(Boolean) : r.frame_keys;
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      createdAt: r.created_at,
      member: { id: r.user_id, name: r.name, email: r.email },
      other: r.other_user_id ? { id: r.other_user_id, name: r.other_name ?? '' } : null,
      scores: parseJson(r.scores, {}),
      note: r.note,
      frames: keys.map((k) => deps.signer.url(k)),
    };
  });
}

/** Badges earned under an earlier check than today's METHOD (decision 031), most recent first; those with today's liveness and an earlier match are re-checked instead. */
export async function listEarlierChecks(db: Queryable): Promise<EarlierCheck[]> {
  const rows = await query<{
    user_id: string;
    name: string;
    email: string;
    method: string;
    model_version: string;
    verified_at: string | null;
  }>(
    db,
    sql`select mv.user_id, u.name, u.email, mv.method, mv.model_version, ${iso(sql`mv.verified_at`)} as verified_at
          from member_verifications mv join "user" u on u.id = mv.user_id
         where mv.status = 'verified' and mv.method <> all(${textArray([METHOD, ...EARLIER_MATCHES])})
         order by mv.verified_at desc nulls last limit 200`,
  );
  return rows.map((r) => ({
    member: { id: r.user_id, name: r.name, email: r.email },
    method: r.method,
    modelVersion: r.model_version,
    verifiedAt: r.verified_at,
  }));
}

/** Approve gives the badge; decline leaves the member unverified. Either way the frames are deleted. */
export async function decideReview(deps: Deps, adminId: string, reviewId: string, decision: 'approve' | 'decline') {
  const { db } = deps.database;
  const keys = await db.transaction(async (tx) => {
    const [r] = await query<{ user_id: string; kind: string; frame_keys: string[] | string }>(
      tx,
      sql`update verification_reviews set status = ${decision === 'approve' ? 'approved' : 'declined'}, decided_at = now(), decided_by = ${adminId},
             frame_keys = '{}'::text[]
           where id = ${reviewId} and status = 'open'
           returning user_id, kind, (select frame_keys from verification_reviews where id = ${reviewId}) as frame_keys`,
    );
    if (!r) throw new AppError('not_found', 'This review has already been decided.');
    if (decision === 'approve') {
      await tx.execute(
        sql`update member_verifications set status = 'verified', verified_at = now(), revoked_reason = null, updated_at = now() where user_id = ${r.user_id}`,
      );
    } else {
      await tx.execute(sql`delete from member_verifications where user_id = ${r.user_id} and status <> 'verified'`);
    }
    await recordAudit(tx, adminId, `verification.${decision}`, r.user_id, { review: reviewId, kind: r.kind });
    return typeof r.frame_keys === 'string' ? r.frame_keys.replace(/[{}]/g, '').split(',').filter(Boolean) : r.frame_keys;
  });
  for (const key of keys) await deps.storage.remove(key);
}

export async function verificationMetrics(db: Queryable) {
  const [m] = await query<{ members: number; verified: number; attempts: number; passed: number; duplicates: number; open: number }>(
    db,
    sql`select (select count(*)::int from profiles where onboarding_completed) as members,
               (select count(*)::int from member_verifications where status = 'verified') as verified,
               (select count(*)::int from verification_attempts) as attempts,
               (select count(*)::int from verification_attempts where outcome = 'verified') as passed,
               (select count(*)::int from verification_reviews where kind = 'duplicate') as duplicates,
               (select count(*)::int from verification_reviews where status = 'open') as open`,
  );
  const reasons = await query<{ reason: string; n: number }>(
    db,
    sql`select reason, count(*)::int as n from verification_attempts where outcome = 'failed' group by reason order by n desc`,
  );
  return {
    verificationRate: m.members ? m.verified / m.members : 0,
    passRate: m.attempts ? m.passed / m.attempts : 0,
    attempts: m.attempts,
    verified: m.verified,
    duplicatesFound: m.duplicates,
    openReviews: m.open,
    failureReasons: reasons.map((r) => ({ reason: r.reason, count: Number(r.n) })),
  };
}

// ——— data export (Settings → Your data) ———

/** The member's verification records for the data export: verdicts, never the face template's numbers. */
export async function verificationExportSections(db: Queryable, userId: string) {
  const [challenges, attempts, verification, reviews] = await Promise.all([
    query<{ consent_at: string; keep_for_review: boolean; created_at: string; used_at: string | null }>(
      db,
      sql`select ${iso(sql`consent_at`)} as consent_at, keep_for_review, ${iso(sql`created_at`)} as created_at, ${iso(sql`used_at`)} as used_at
            from verification_challenges where user_id = ${userId} order by created_at`,
    ),
    query<{ outcome: string; reason: string | null; method: string; model_version: string; scores: unknown; created_at: string }>(
      db,
      sql`select outcome, reason, method, model_version, scores, ${iso(sql`created_at`)} as created_at
            from verification_attempts where user_id = ${userId} order by created_at`,
    ),
    query<{
      status: string;
      method: string;
      model_version: string;
      verified_at: string | null;
      has_template: boolean;
      revoked_reason: string | null;
    }>(
      db,
      sql`select status, method, model_version, ${iso(sql`verified_at`)} as verified_at, face_vector is not null as has_template, revoked_reason
            from member_verifications where user_id = ${userId}`,
    ),
    query<{ kind: string; status: string; created_at: string; decided_at: string | null; frames_kept: number }>(
      db,
      sql`select kind, status, ${iso(sql`created_at`)} as created_at, ${iso(sql`decided_at`)} as decided_at, cardinality(frame_keys) as frames_kept
            from verification_reviews where user_id = ${userId} or other_user_id = ${userId} or decided_by = ${userId} order by created_at`,
    ),
  ]);
  return {
    verification_challenges: challenges.map((c) => ({
      consentToBiometricCheckAt: c.consent_at,
      keepPicturesForReview: c.keep_for_review,
      createdAt: c.created_at,
      usedAt: c.used_at,
    })),
    verification_attempts: attempts.map((a) => ({
      outcome: a.outcome,
      reason: a.reason,
      method: a.method,
      modelVersion: a.model_version,
      scores: a.scores,
      createdAt: a.created_at,
    })),
    member_verifications: verification.map((v) => ({
      status: v.status,
      method: v.method,
      modelVersion: v.model_version,
      verifiedAt: v.verified_at,
      revokedReason: v.revoked_reason,
      faceTemplate: v.has_template ? 'a face template (not exportable as an image)' : null,
    })),
    verification_reviews: reviews.map((r) => ({
      kind: r.kind,
      status: r.status,
      createdAt: r.created_at,
      decidedAt: r.decided_at,
      picturesKeptForReview: Number(r.frames_kept),
    })),
  };
}
