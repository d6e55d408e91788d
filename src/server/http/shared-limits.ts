import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { compiledWrite } from '../db/prepared';
import { AppError } from './errors';
import { MAX_LIMITER_KEYS, PaceLimiter, RateLimiter, type Rules, rateLimited, TOO_MANY, windowWait } from './rate-limiter';

/**
 * Rate limits every app instance counts together (docs/decisions/020, superseding 002).
 *
 * With PostgreSQL (`DATABASE_URL`, several instances) each limiter keeps its state in one row of
 * the UNLOGGED table `rate_limits`, changed by a single atomic upsert that both checks and
 * counts (the row lock of INSERT … ON CONFLICT DO UPDATE serialises concurrent hits on a key,
 * whichever instance they reach). In the embedded mode (one process on PGlite) the same
 * algorithms run in memory (rate-limiter.ts). Either way a refusal is the same 429 with a
 * message and Retry-After.
 */

/** Another limiter's key that, while at its limit, stops `hitUnlessFull` (slow mode's "on" for the flood count). */
export interface Gate {
  limiter: WindowLimiter;
  rules: Rules;
}

/** A sliding log with one or more rules (sign-in, sign-up, resend, reset, uploads, contact, reports…). */
export interface WindowLimiter {
  readonly namespace: string;
  /**
   * Counts a hit, or throws the 429 when any rule is used up (nothing is counted then). Checking
   * and counting are one step, so parallel requests can never all pass. Resolves to the hit's
   * time, for `giveBack`.
   */
  hit(key: string, rules: Rules, message?: string): Promise<number>;
  /** Throws the 429 when any rule is used up, without counting (a state to read, never to guard an action by: see `consume`). */
  check(key: string, rules: Rules, message?: string): Promise<void>;
  /**
   * As `hit`, unless the gate's limiter is at its limit for the same key: then nothing is counted
   * and it resolves to 'gated'. One round trip in PostgreSQL (a chat line's common case).
   */
  hitUnlessFull(key: string, rules: Rules, gate: Gate, message?: string): Promise<number | 'gated'>;
  /** Counts one hit. */
  record(key: string, rules: Rules): Promise<void>;
  /** Takes back the hit counted at `at` (an action counted up front that turned out not to count). */
  giveBack(key: string, at: number): Promise<void>;
}

/**
 * For limits on only some outcomes of an action (joins that took a place, wrong passwords):
 * counts a hit on every key before the action runs, or throws the 429 (with nothing counted),
 * and returns what gives them back once the action turns out not to count. Checking first and
 * counting after would let parallel requests all pass the check before any of them counted (issue 32).
 */
export async function consume(
  limiter: WindowLimiter,
  keys: ReadonlyArray<readonly [key: string, rules: Rules]>,
  message?: string,
): Promise<() => Promise<void>> {
  const counted: [string, number][] = [];
  const giveBack = async () => {
    for (const [key, at] of counted.splice(0)) await limiter.giveBack(key, at);
  };
  try {
    for (const [key, rules] of keys) counted.push([key, await limiter.hit(key, rules, message)]);
  } catch (err) {
    await giveBack();
    throw err;
  }
  return giveBack;
}

/** A pace limiter (token bucket; chat sends, docs/decisions/015). */
export interface SharedPaceLimiter {
  hit(key: string, message?: string): Promise<void>;
  /** 0 when allowed (and counted), otherwise the ms until one would be. */
  take(key: string): Promise<number>;
}

export interface Limits {
  kind: 'memory' | 'postgres';
  /** A sliding-log limiter; `namespace` keeps its keys apart from other limiters'. */
  window(namespace: string): WindowLimiter;
  pace(namespace: string, rule: { limit: number; windowMs: number }): SharedPaceLimiter;
  /**
   * `hit` and then `pace.limiter.take(pace.key)` for a write to take in its own statement
   * (`admissionCtes`, one round trip for all three): on PostgreSQL, with limiters of these limits.
   * Null in memory (no statement to share), or when this instance already knows the pace would
   * refuse: the caller then takes the limits one at a time.
   */
  admission(hit: GatedHit, pace: { limiter: SharedPaceLimiter; key: string }, message?: string): Admission | null;
  /** Deletes rows whose state has run out (PostgreSQL; a periodic job calls it). */
  sweep(): Promise<number>;
}

/** Whether the gate's limiter is at its limit for `key` (a read: nothing counted). */
async function isFull({ limiter, rules }: Gate, key: string): Promise<boolean> {
  try {
    await limiter.check(key, rules);
    return false;
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited') return true;
    throw err;
  }
}

/** In memory, per process: the embedded mode. */
export function memoryLimits(): Limits {
  return {
    kind: 'memory',
    window(namespace) {
      const limiter = new RateLimiter();
      return {
        namespace,
        async hit(key, rules, message = TOO_MANY) {
          return limiter.hit(key, rules, message);
        },
        async hitUnlessFull(key, rules, gate, message = TOO_MANY) {
          if (await isFull(gate, key)) return 'gated';
          return limiter.hit(key, rules, message);
        },
        async check(key, rules, message = TOO_MANY) {
          limiter.check(key, rules, message);
        },
        async record(key, rules) {
          limiter.record(key, rules);
        },
        async giveBack(key, at) {
          limiter.giveBack(key, at);
        },
      };
    },
    pace(_namespace, rule) {
      const limiter = new PaceLimiter(rule);
      return {
        async hit(key, message = TOO_MANY) {
          limiter.hit(key, message);
        },
        async take(key) {
          return limiter.take(key);
        },
      };
    },
    admission() {
      return null;
    },
    async sweep() {
      return 0;
    },
  };
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;
/** bigint arrives as a string (node-postgres) or a BigInt (PGlite). */
const num = (v: unknown) => Number(v);
const pgArray = (values: readonly number[]) => `{${values.join(',')}}`;
/** A limiter's key as its row in `rate_limits`: namespaces keep limiters apart. */
const rowKey = (namespace: string, key: string) => `${namespace}:${key}`;

/** No hit of the rules (limits and windows, as arrays) may be at its limit among `hits` at `now` (an SQL condition). */
const roomIn = (hits: SQL, limits: unknown, windows: unknown, now: unknown) => sql`not exists (
  select 1 from unnest(${limits}::int[], ${windows}::bigint[]) as rule(lim, win)
  where (select count(*) from unnest(${hits}) h where h > ${now}::bigint - rule.win) >= rule.lim
)`;

type HitValues = 'key' | 'now' | 'since' | 'expires' | 'limits' | 'windows';
type GateValues = 'gateKey' | 'gateLimits' | 'gateWindows' | 'now';
type PaceValues = 'key' | 'now' | 'interval' | 'tolerance' | 'divisor';

/**
 * One statement checks every rule against the hits still in their windows and, only when all
 * have room and `also` holds, appends this one (older hits are dropped on the way).
 */
const hitSql = (v: Record<HitValues, unknown>, also: () => SQL) => sql`
  insert into rate_limits as r (key, hits, expires_at)
  select ${v.key}::text, array[${v.now}::bigint], to_timestamp(${v.expires}::double precision / 1000)
  where ${also()}
  on conflict (key) do update
    set hits = array(select h from unnest(r.hits) h where h > ${v.since}::bigint order by h) || ${v.now}::bigint,
        expires_at = excluded.expires_at
    where ${roomIn(sql`r.hits`, v.limits, v.windows, v.now)} and ${also()}
  returning 1 as counted`;
/** The gate's key is not at its own limit. */
const gateOpen = (v: Record<GateValues, unknown>) =>
  sql`not exists (select 1 from rate_limits g where g.key = ${v.gateKey}::text and not ${roomIn(sql`g.hits`, v.gateLimits, v.gateWindows, v.now)})`;
/**
 * The generic cell rate algorithm's step, when `when` holds: allowed, the row's arrival time
 * moves on by one interval; refused, nothing changes.
 */
const paceSql = (v: Record<PaceValues, unknown>, when: SQL) => sql`
  insert into rate_limits as r (key, tat, expires_at)
  select ${v.key}::text, ${v.now}::bigint + ${v.interval}::bigint, to_timestamp((${v.now}::bigint + ${v.interval}::bigint)::double precision / ${v.divisor}::bigint)
  where ${when}
  on conflict (key) do update
    set tat = greatest(coalesce(r.tat, 0), ${v.now}::bigint) + ${v.interval}::bigint,
        expires_at = to_timestamp((greatest(coalesce(r.tat, 0), ${v.now}::bigint) + ${v.interval}::bigint)::double precision / ${v.divisor}::bigint)
    where greatest(coalesce(r.tat, 0), ${v.now}::bigint) - ${v.tolerance}::bigint <= ${v.now}::bigint
  returning tat`;

// Compiled once (db/prepared.ts): every chat line runs them, or the admission below.
const plainHit = compiledWrite<{ counted: number }, HitValues>((v) => hitSql(v, () => sql`true`));
/** As plainHit, unless the gate's key is at its own limit. */
const gatedHit = compiledWrite<{ counted: number }, HitValues | GateValues>((v) => hitSql(v, () => gateOpen(v)));
const paceStatement = compiledWrite<{ tat: unknown }, PaceValues>((v) => paceSql(v, sql`true`));

/** The values of `admissionCtes`: a gated window hit's, and a pace step's under `pace…` names. */
export type AdmissionSlot = HitValues | GateValues | 'paceKey' | 'paceNow' | 'interval' | 'tolerance' | 'divisor';

/**
 * A gated window hit and then a pace step as two CTEs of a write's own statement (PostgreSQL,
 * docs/decisions/023): `admit_window` holds a row when the hit was counted, `admit_pace` (its
 * `tat`) when the pace step was too, which is taken only after the hit was. A write that acts
 * only `where exists (select 1 from admit_pace)` happens when both were counted, and each limit
 * counts exactly what `hitUnlessFull` and then `take` would: the write saves their round trips.
 * Fill the values with `Limits.admission`, and settle them from the statement's outcome.
 */
export const admissionCtes = (v: Record<AdmissionSlot, unknown>) => sql`
  admit_window as (${hitSql(v, () => gateOpen(v))}),
  admit_pace as (${paceSql(
    { key: v.paceKey, now: v.paceNow, interval: v.interval, tolerance: v.tolerance, divisor: v.divisor },
    sql`exists (select 1 from admit_window)`,
  )})`;

/** What `admissionCtes` tells its statement's caller: the two columns to select. */
export const admissionOutcomeSql = sql`exists (select 1 from admit_window) as admit_counted, (select tat from admit_pace) as admit_tat`;

/** `limiter.hitUnlessFull(key, rules, gate)`, as an admission's first step. */
export interface GatedHit {
  limiter: WindowLimiter;
  key: string;
  rules: Rules;
  gate: Gate;
}

/** Limits a write takes in its own statement (`admissionCtes`). */
export interface Admission {
  values: Record<AdmissionSlot, string | number>;
  /**
   * From the statement's `admissionOutcomeSql` columns: false when the window hit was not
   * counted (nothing was: take the limits one at a time, which says why); the pace's 429 when
   * only the hit was; true when both were, and the write could act.
   */
  settle(outcome: { admit_counted: boolean | null; admit_tat: unknown }): Promise<boolean>;
}

/** A pace limiter's step as an admission takes it (PostgreSQL; times in its units, ms × limit). */
interface PaceStep {
  unit: number;
  knownWait(key: string, now: number): number;
  values(key: string, now: number): Record<PaceValues, string | number>;
  /** The step's outcome (the arrival time it counted, or null when refused): 0, or the wait, read back. */
  settle(key: string, now: number, tat: unknown): Promise<number>;
}

/** Shared through PostgreSQL: every instance on the database counts together. */
export function postgresLimits(database: Pick<Database, 'db' | 'kind' | 'named'>, clock: () => number = Date.now): Limits {
  const { db } = database;

  const readHits = async (key: string): Promise<number[]> => {
    const [row] = rowsOf(await db.execute(sql`select hits from rate_limits where key = ${key}`));
    return ((row?.hits as unknown[] | null) ?? []).map(num);
  };

  const longestOf = (rules: Rules) => Math.max(...rules.map((r) => r.windowMs));
  const ruleValues = (rules: Rules) => ({ limits: pgArray(rules.map((r) => r.limit)), windows: pgArray(rules.map((r) => r.windowMs)) });
  const hitValues = (namespace: string, key: string, rules: Rules, now: number) => ({
    key: rowKey(namespace, key),
    now,
    since: now - longestOf(rules),
    expires: now + longestOf(rules),
    ...ruleValues(rules),
  });
  const gatedValues = ({ limiter, key, rules, gate }: GatedHit, now: number) => {
    const { limits: gateLimits, windows: gateWindows } = ruleValues(gate.rules);
    return { ...hitValues(limiter.namespace, key, rules, now), gateKey: rowKey(gate.limiter.namespace, key), gateLimits, gateWindows };
  };
  /** What an admission needs of each pace limiter made here. */
  const paces = new WeakMap<SharedPaceLimiter, PaceStep>();

  return {
    kind: 'postgres',
    window(namespace) {
      const k = (key: string) => rowKey(namespace, key);
      const tryHit = async (key: string, rules: Rules, now: number) =>
        (await plainHit(database, hitValues(namespace, key, rules, now))).length > 0;
      const refuse = async (key: string, rules: Rules, now: number, message: string) =>
        rateLimited(windowWait(await readHits(k(key)), rules, now) || 1, message);
      const limiter: WindowLimiter = {
        namespace,
        async hit(key, rules, message = TOO_MANY) {
          const now = clock();
          if (await tryHit(key, rules, now)) return now;
          throw await refuse(key, rules, now, message);
        },
        async hitUnlessFull(key, rules, gate, message = TOO_MANY) {
          const now = clock();
          if ((await gatedHit(database, gatedValues({ limiter, key, rules, gate }, now))).length > 0) return now;
          // Refused by the gate or by this limiter's own rules: which, read back (the rare case).
          if (await isFull(gate, key)) return 'gated';
          throw await refuse(key, rules, now, message);
        },
        async check(key, rules, message = TOO_MANY) {
          const now = clock();
          const wait = windowWait(await readHits(k(key)), rules, now);
          if (wait > 0) throw rateLimited(wait, message);
        },
        async record(key, rules) {
          const now = clock();
          const longest = longestOf(rules);
          await db.execute(sql`
            insert into rate_limits as r (key, hits, expires_at)
            values (${k(key)}, array[${now}::bigint], to_timestamp(${now + longest}::double precision / 1000))
            on conflict (key) do update
              set hits = array(select h from unnest(r.hits) h where h > ${now - longest}::bigint order by h) || ${now}::bigint,
                  expires_at = excluded.expires_at`);
        },
        async giveBack(key, at) {
          // One hit at that time goes (another request may have counted one in the same ms).
          await db.execute(sql`
            update rate_limits
               set hits = hits[:array_position(hits, ${at}::bigint) - 1] || hits[array_position(hits, ${at}::bigint) + 1:]
             where key = ${k(key)} and ${at}::bigint = any(hits)`);
        },
      };
      return limiter;
    },
    pace(namespace, rule) {
      // The same generic cell rate algorithm as PaceLimiter, in the same integer units (ms × limit).
      const shape = new PaceLimiter(rule);
      const { interval, tolerance } = shape;
      const limit = rule.limit;
      // The newest theoretical arrival time this instance has seen per key. It only ever grows
      // in the table (until the row runs out), so when it alone already refuses a request the
      // table would too: a flood is refused without a round trip. Bounded like every map here.
      const seen = new Map<string, number>();
      const remember = (key: string, tat: number) => {
        seen.delete(key);
        seen.set(key, tat);
        if (seen.size > MAX_LIMITER_KEYS) {
          for (const old of seen.keys()) {
            if (seen.size <= MAX_LIMITER_KEYS * 0.9) break;
            seen.delete(old);
          }
        }
      };
      /** The wait this instance already knows of (0 when it does not know the step would be refused). */
      const knownWait = (key: string, now: number) => {
        const known = seen.get(key);
        return known !== undefined && known - tolerance > now ? Math.ceil((known - tolerance - now) / limit) : 0;
      };
      const values = (key: string, now: number) => ({ key: rowKey(namespace, key), now, interval, tolerance, divisor: limit * 1000 });
      const settle = async (key: string, now: number, tat: unknown): Promise<number> => {
        if (tat != null) {
          remember(key, num(tat));
          return 0;
        }
        const [current] = rowsOf(await db.execute(sql`select tat from rate_limits where key = ${rowKey(namespace, key)}`));
        const known = current?.tat == null ? now : num(current.tat);
        remember(key, known);
        return Math.max(1, Math.ceil((known - tolerance - now) / limit));
      };
      const take = async (key: string): Promise<number> => {
        const now = clock() * limit;
        const wait = knownWait(key, now);
        if (wait > 0) return wait;
        const [row] = await paceStatement(database, values(key, now));
        return settle(key, now, row ? row.tat : null);
      };
      const pacer: SharedPaceLimiter = {
        take,
        async hit(key, message = TOO_MANY) {
          const wait = await take(key);
          if (wait > 0) throw rateLimited(wait, message);
        },
      };
      paces.set(pacer, { unit: limit, knownWait, values, settle });
      return pacer;
    },
    admission(hit, pace, message = TOO_MANY) {
      const step = paces.get(pace.limiter);
      if (!step) return null;
      const now = clock();
      const paceNow = now * step.unit;
      if (step.knownWait(pace.key, paceNow) > 0) return null;
      const p = step.values(pace.key, paceNow);
      return {
        values: {
          ...gatedValues(hit, now),
          paceKey: p.key,
          paceNow: p.now,
          interval: p.interval,
          tolerance: p.tolerance,
          divisor: p.divisor,
        },
        async settle({ admit_counted, admit_tat }) {
          if (!admit_counted) return false;
          const wait = await step.settle(pace.key, paceNow, admit_tat);
          if (wait > 0) throw rateLimited(wait, message);
          return true;
        },
      };
    },
    async sweep() {
      // A minute of slack for instances whose clocks run a little behind the database's.
      const [row] = rowsOf(
        await db.execute(
          sql`with gone as (delete from rate_limits where expires_at < now() - interval '1 minute' returning 1) select count(*) as n from gone`,
        ),
      );
      return num(row?.n ?? 0);
    },
  };
}

/** PostgreSQL-shared limits on a PostgreSQL database, in memory on the embedded PGlite. */
export function createLimits(database: Pick<Database, 'db' | 'kind' | 'named'>): Limits {
  return database.kind === 'postgres' ? postgresLimits(database) : memoryLimits();
}
