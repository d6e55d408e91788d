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

/** No hit of the rules (limits and windows, as arrays) may be at its limit among `hits` at `now` (an SQL condition). */
const roomIn = (hits: SQL, limits: unknown, windows: unknown, now: unknown) => sql`not exists (
  select 1 from unnest(${limits}::int[], ${windows}::bigint[]) as rule(lim, win)
  where (select count(*) from unnest(${hits}) h where h > ${now}::bigint - rule.win) >= rule.lim
)`;

type HitValues = 'key' | 'now' | 'since' | 'expires' | 'limits' | 'windows';
/**
 * One statement checks every rule against the hits still in their windows and, only when all
 * have room and `also` holds, appends this one (older hits are dropped on the way). Compiled
 * once (db/prepared.ts): every chat line runs it.
 */
const hitStatement = <K extends string>(also: (v: Record<HitValues | K, unknown>) => SQL) =>
  compiledWrite<{ counted: number }, HitValues | K>(
    (v) => sql`
      insert into rate_limits as r (key, hits, expires_at)
      select ${v.key}::text, array[${v.now}::bigint], to_timestamp(${v.expires}::double precision / 1000)
      where ${also(v)}
      on conflict (key) do update
        set hits = array(select h from unnest(r.hits) h where h > ${v.since}::bigint order by h) || ${v.now}::bigint,
            expires_at = excluded.expires_at
        where ${roomIn(sql`r.hits`, v.limits, v.windows, v.now)} and ${also(v)}
      returning 1 as counted`,
  );
const plainHit = hitStatement<never>(() => sql`true`);
/** As plainHit, unless the gate's key is at its own limit. */
const gatedHit = hitStatement<'gateKey' | 'gateLimits' | 'gateWindows'>(
  (v) =>
    sql`not exists (select 1 from rate_limits g where g.key = ${v.gateKey}::text and not ${roomIn(sql`g.hits`, v.gateLimits, v.gateWindows, v.now)})`,
);

/** The generic cell rate algorithm's step: allowed, the row's arrival time moves on by one interval; refused, nothing changes. */
const paceStatement = compiledWrite<{ tat: unknown }, 'key' | 'now' | 'interval' | 'tolerance' | 'divisor'>(
  (v) => sql`
    insert into rate_limits as r (key, tat, expires_at)
    values (${v.key}::text, ${v.now}::bigint + ${v.interval}::bigint, to_timestamp((${v.now}::bigint + ${v.interval}::bigint)::double precision / ${v.divisor}::bigint))
    on conflict (key) do update
      set tat = greatest(coalesce(r.tat, 0), ${v.now}::bigint) + ${v.interval}::bigint,
          expires_at = to_timestamp((greatest(coalesce(r.tat, 0), ${v.now}::bigint) + ${v.interval}::bigint)::double precision / ${v.divisor}::bigint)
      where greatest(coalesce(r.tat, 0), ${v.now}::bigint) - ${v.tolerance}::bigint <= ${v.now}::bigint
    returning tat`,
);

/** Shared through PostgreSQL: every instance on the database counts together. */
export function postgresLimits(database: Pick<Database, 'db' | 'kind' | 'named'>, clock: () => number = Date.now): Limits {
  const { db } = database;

  const readHits = async (key: string): Promise<number[]> => {
    const [row] = rowsOf(await db.execute(sql`select hits from rate_limits where key = ${key}`));
    return ((row?.hits as unknown[] | null) ?? []).map(num);
  };

  return {
    kind: 'postgres',
    window(namespace) {
      const k = (key: string) => `${namespace}:${key}`;
      const longestOf = (rules: Rules) => Math.max(...rules.map((r) => r.windowMs));
      const ruleValues = (rules: Rules) => ({ limits: pgArray(rules.map((r) => r.limit)), windows: pgArray(rules.map((r) => r.windowMs)) });
      const hitValues = (key: string, rules: Rules, now: number) => ({
        key: k(key),
        now,
        since: now - longestOf(rules),
        expires: now + longestOf(rules),
        ...ruleValues(rules),
      });
      const tryHit = async (key: string, rules: Rules, now: number) => (await plainHit(database, hitValues(key, rules, now))).length > 0;
      const refuse = async (key: string, rules: Rules, now: number, message: string) =>
        rateLimited(windowWait(await readHits(k(key)), rules, now) || 1, message);
      return {
        namespace,
        async hit(key, rules, message = TOO_MANY) {
          const now = clock();
          if (await tryHit(key, rules, now)) return now;
          throw await refuse(key, rules, now, message);
        },
        async hitUnlessFull(key, rules, gate, message = TOO_MANY) {
          const now = clock();
          const { limits: gateLimits, windows: gateWindows } = ruleValues(gate.rules);
          const gated = { ...hitValues(key, rules, now), gateKey: `${gate.limiter.namespace}:${key}`, gateLimits, gateWindows };
          if ((await gatedHit(database, gated)).length > 0) return now;
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
      const take = async (key: string): Promise<number> => {
        const now = clock() * limit;
        const known = seen.get(key);
        if (known !== undefined && known - tolerance > now) return Math.ceil((known - tolerance - now) / limit);
        const id = `${namespace}:${key}`;
        const [row] = await paceStatement(database, { key: id, now, interval, tolerance, divisor: limit * 1000 });
        if (row) {
          remember(key, num(row.tat));
          return 0;
        }
        const [current] = rowsOf(await db.execute(sql`select tat from rate_limits where key = ${id}`));
        const tat = current?.tat == null ? now : num(current.tat);
        remember(key, tat);
        return Math.max(1, Math.ceil((tat - tolerance - now) / limit));
      };
      return {
        take,
        async hit(key, message = TOO_MANY) {
          const wait = await take(key);
          if (wait > 0) throw rateLimited(wait, message);
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
