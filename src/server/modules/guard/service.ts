import { asc, eq, sql } from 'drizzle-orm';
import { checkLine, flagOf, type LineVerdict, type SafetyFlag } from '../../../shared/safety/detect';
import {
  FLOOD_LINES,
  FLOOD_WINDOW_MS,
  GUARD_MESSAGES,
  HIDDEN_WORDS_MAX,
  profileTextRefusal,
  SLOW_MODE_INTERVAL_MS,
  SLOW_MODE_MS,
} from '../../../shared/schemas/guard';
import type { Db } from '../../db/client';
import { hiddenWords } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/cursor';
import { rateLimited } from '../../http/rate-limiter';
import type { GatedHit, Limits } from '../../http/shared-limits';
import { rowsOf } from '../../lib/sql';

/**
 * Before harm (issue 30), on the server: every chat line and profile text goes through the
 * detectors (src/shared/safety/detect.ts) before it is saved. Pure JavaScript ahead of the
 * prepared insert, so the hot statement stays one round trip (decision 016).
 */

export type { SafetyFlag };

/** The first names in a mixer, read only when a line holds an "@" the detector would call a handle. */
type NamesOf = () => Promise<string[]>;

/**
 * A mixer line: contact details, links and money lines are held (422 `held`, the composer keeps
 * the text); abuse needs the sender's "send anyway" (428 `confirm_needed`). Returns the flag to
 * store with the line ('abuse' for a line sent anyway, else null).
 */
export async function guardMixerLine(body: string, confirmed: boolean, namesInRoom: NamesOf): Promise<SafetyFlag | null> {
  let verdict: LineVerdict = checkLine(body);
  // "@Maya" is a mention when Maya is in the room: only then are the names worth a query.
  if (verdict.contact && body.includes('@')) verdict = checkLine(body, { participants: await namesInRoom() });
  if (verdict.contact) throw new AppError('held', GUARD_MESSAGES.heldContact);
  if (verdict.scam) throw new AppError('held', GUARD_MESSAGES.heldScam);
  if (verdict.abuse && !confirmed) throw new AppError('confirm_needed', GUARD_MESSAGES.areYouSure);
  return verdict.abuse ? 'abuse' : null;
}

/**
 * A private line: sent in every case but abuse without "send anyway"; the flag goes with it for
 * the receiver (contact details only count during the first 72 hours of the match: the insert
 * decides that from the match's age).
 */
export function guardDirectLine(body: string, confirmed: boolean): SafetyFlag | null {
  const verdict = checkLine(body);
  if (verdict.abuse && !confirmed) throw new AppError('confirm_needed', GUARD_MESSAGES.areYouSure);
  return flagOf(verdict);
}

/**
 * A name is words: `_`, `@` or a run of digits make it a handle or a number ("maya_m92", "kay007"),
 * which would show as the sender of every line and pass as a mention.
 */
const HANDLE_IN_NAME = /[_@]|\d{3}/;

/**
 * Profile prompts and bio, name and city: refused with a message naming the part (400 validation,
 * per field). Names and cities are read for contact details only: the word lists of the other
 * detectors would refuse real names (a name is not a message).
 */
export function guardProfileTexts(input: Record<string, unknown>): void {
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(input)) {
    if (typeof value !== 'string' || !value.trim()) continue;
    const verdict = checkLine(value);
    const named = field === 'fullName' || field === 'cityRegion';
    const kind =
      verdict.contact || (field === 'fullName' && HANDLE_IN_NAME.test(value))
        ? 'contact'
        : named
          ? null
          : verdict.scam
            ? 'scam'
            : verdict.abuse
              ? 'abuse'
              : null;
    if (kind) fields[field] = profileTextRefusal(field, kind);
  }
  const first = Object.values(fields)[0];
  if (first) throw new AppError('validation', first, fields);
}

/** Profile fields made of member text that the detectors read. */
export const PROFILE_TEXT_FIELDS = [
  'bio',
  'smallJoy',
  'loveToTalkAbout',
  'valueInRelationships',
  'sharedExperience',
  'funFact',
  'promptAnswer',
  'pronouns',
  'fullName',
  'cityRegion',
] as const;

export function guardProfile(input: object): void {
  const texts: Record<string, unknown> = {};
  for (const field of PROFILE_TEXT_FIELDS) if (field in input) texts[field] = (input as Record<string, unknown>)[field];
  guardProfileTexts(texts);
}

// ---------------------------------------------------------------------------------------------
// Slow mode
// ---------------------------------------------------------------------------------------------

const FLOOD_RULE = [{ limit: FLOOD_LINES, windowMs: FLOOD_WINDOW_MS }];
const SLOW_ON_RULE = [{ limit: 1, windowMs: SLOW_MODE_MS }];
const SLOW_PACE_RULE = [{ limit: 1, windowMs: SLOW_MODE_INTERVAL_MS }];

/**
 * Slow mode per member and room (issue 30): more than 5 lines in 10 s turns it on for 5 minutes,
 * during which the member may send one line per 10 s. The sixth line is refused with a message
 * saying so (429 with Retry-After); the room is told nothing. State lives in the shared limit
 * store (decision 020): every instance on one PostgreSQL counts together.
 */
export function slowMode(limits: Limits) {
  const flood = limits.window('flood');
  const on = limits.window('slow-mode');
  const pace = limits.window('slow-pace');
  /** The common case: counted in the flood window, unless slow mode is on. */
  const floodHit = (userId: string, room: string): GatedHit => ({
    limiter: flood,
    key: `${room}:${userId}`,
    rules: FLOOD_RULE,
    gate: { limiter: on, rules: SLOW_ON_RULE },
  });
  return {
    floodHit,
    /** Counts a line about to be sent, or throws the 429 of slow mode. */
    async take(userId: string, room: string): Promise<void> {
      const { key, rules, gate } = floodHit(userId, room);
      let counted: number | 'gated';
      try {
        // The common case in one round trip (or in the line's own statement: `floodHit`, Limits.admission).
        counted = await flood.hitUnlessFull(key, rules, gate);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'rate_limited')) throw err;
        await on.record(key, SLOW_ON_RULE);
        // The pace starts now: the next line is welcome in 10 s.
        await pace.record(key, SLOW_PACE_RULE);
        throw rateLimited(SLOW_MODE_INTERVAL_MS, GUARD_MESSAGES.slowMode);
      }
      if (counted === 'gated') await pace.hit(key, SLOW_PACE_RULE, GUARD_MESSAGES.slowModeWait);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Hidden words
// ---------------------------------------------------------------------------------------------

/** The member's own hidden words, oldest first. */
export async function listHiddenWords(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ word: hiddenWords.word })
    .from(hiddenWords)
    .where(eq(hiddenWords.userId, userId))
    .orderBy(asc(hiddenWords.createdAt), asc(hiddenWords.word));
  return rows.map((r) => r.word);
}

/** Replaces the member's list (duplicates, by how they are matched, kept once). One statement. */
export async function saveHiddenWords(db: Db, userId: string, words: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const w of words) {
    const key = w.toLocaleLowerCase('en-GB');
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(w);
  }
  if (unique.length > HIDDEN_WORDS_MAX)
    throw new AppError('validation', GUARD_MESSAGES.hiddenWordsTooMany, { words: GUARD_MESSAGES.hiddenWordsTooMany });
  const now = Date.now();
  await db.transaction(async (tx) => {
    // One save at a time per member (two tabs saving at once would both insert the same word).
    await tx.execute(sql`select 1 from "user" where id = ${userId} for update`);
    await tx.delete(hiddenWords).where(eq(hiddenWords.userId, userId));
    // A millisecond apart, so the list reads back in the order it was given.
    if (unique.length) await tx.insert(hiddenWords).values(unique.map((word, i) => ({ userId, word, createdAt: new Date(now + i) })));
  });
  return unique;
}

/** First names of a mixer's joined members (for mentions). */
export async function firstNamesInMixer(db: Db, mixerId: string): Promise<string[]> {
  if (!isUuid(mixerId)) return [];
  const rows = rowsOf<{ name: string | null }>(
    await db.execute(sql`
      select coalesce(nullif(trim(p.full_name), ''), u.name) as name
        from mixer_memberships c join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
       where c.mixer_id = ${mixerId} and c.state = 'joined'`),
  );
  return rows.map((r) => r.name ?? '').filter(Boolean);
}
