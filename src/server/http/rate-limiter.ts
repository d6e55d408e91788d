import { AppError } from './errors';

interface Window {
  hits: number[];
}

export type Rules = ReadonlyArray<{ limit: number; windowMs: number }>;

export const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';

/** The 429 every limiter throws; Retry-After in whole seconds, at least 1. */
export function rateLimited(waitMs: number, message: string) {
  return new AppError('rate_limited', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
}

/**
 * A sliding log's answer for one more hit at `now`: 0 when every rule has room, otherwise the
 * ms until the oldest hit of a full rule leaves its window. Shared by the in-memory limiter and
 * the PostgreSQL store (shared-limits.ts), so both refuse alike.
 */
export function windowWait(hits: readonly number[], rules: Rules, now: number): number {
  for (const rule of rules) {
    const inWindow = hits.filter((t) => now - t < rule.windowMs).sort((a, b) => a - b);
    if (inWindow.length >= rule.limit) return Math.max(1, inWindow[0] + rule.windowMs - now);
  }
  return 0;
}

/**
 * Keys a limiter keeps (decision 017: every in-process map is bounded). Past it, keys whose
 * windows are over go first; if all are still live (tens of thousands of distinct keys in one
 * window: an attacker who already has that many addresses), the oldest-inserted keys go.
 */
export const MAX_LIMITER_KEYS = 50_000;

/** Drops the oldest-inserted keys of a Map (insertion order) until it holds `keep`. */
function dropOldest(map: Map<string, unknown>, keep: number) {
  for (const key of map.keys()) {
    if (map.size <= keep) break;
    map.delete(key);
  }
}

/**
 * A small in-process sliding-window limiter for rules keyed by something other than the IP
 * alone (an e-mail address, an IP + address pair). Each app instance keeps its own counts.
 */
export class RateLimiter {
  private windows = new Map<string, Window>();

  /** Records a hit; throws a 429 AppError with Retry-After when any rule is exceeded. Returns the hit's time (for `giveBack`). */
  hit(key: string, rules: Rules, message = TOO_MANY): number {
    this.check(key, rules, message);
    return this.record(key, rules);
  }

  /** Throws the 429 when any rule is already used up, without counting this request (e.g. count failures only). */
  check(key: string, rules: Rules, message = TOO_MANY) {
    const wait = windowWait(this.windows.get(key)?.hits ?? [], rules, Date.now());
    if (wait > 0) throw rateLimited(wait, message);
  }

  /** Counts one hit against the key (its rules give how long hits are kept); returns its time. */
  record(key: string, rules: Rules): number {
    const now = Date.now();
    const longest = Math.max(...rules.map((r) => r.windowMs));
    const w = this.windows.get(key) ?? { hits: [] };
    w.hits = w.hits.filter((t) => now - t < longest);
    w.hits.push(now);
    this.windows.set(key, w);
    if (this.windows.size > MAX_LIMITER_KEYS) this.prune(now, longest);
    return now;
  }

  /** Takes back one hit made at `at` (an action counted up front that turned out not to count). */
  giveBack(key: string, at: number) {
    const hits = this.windows.get(key)?.hits;
    const i = hits?.indexOf(at) ?? -1;
    if (hits && i >= 0) hits.splice(i, 1);
  }

  /** How many keys are held (tests). */
  get size() {
    return this.windows.size;
  }

  private prune(now: number, maxWindowMs: number) {
    for (const [k, w] of this.windows) if (!w.hits.some((t) => now - t < maxWindowMs)) this.windows.delete(k);
    if (this.windows.size > MAX_LIMITER_KEYS) dropOldest(this.windows, Math.floor(MAX_LIMITER_KEYS * 0.9));
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/**
 * A per-key pace limiter for "at most `limit` per `windowMs`" where honest clients pace
 * themselves at that rate (chat sends). It is the generic cell rate algorithm (a token bucket
 * of `limit` tokens refilled at one per `windowMs / limit`), in exact integer arithmetic
 * (times are scaled by `limit`, so 10 per 10 s and 3 per 7 s are both exact).
 *
 * Unlike the sliding log above, it never refuses a client that sends at or below the rate as
 * measured by the client: the network and the server's queue shift arrival times by up to
 * (limit − 1) intervals without a refusal (a sliding log of 10 per 10 s refuses a client
 * sending every 1.01 s as soon as two of its requests reach the server 0.1 s closer together
 * than they were sent). A burst of `limit` is allowed at once; a client that keeps sending
 * faster than the rate is refused once its burst is used up, so over any long period it gets at
 * most `limit` per window plus one burst (docs/decisions/015).
 */
export class PaceLimiter {
  /** Per key, the theoretical arrival time of the next request, in ms × limit. */
  private tat = new Map<string, number>();
  /** One request's cost and the burst allowance, both in ms × limit (public for the shared store). */
  readonly interval: number;
  readonly tolerance: number;

  constructor(
    readonly rule: { limit: number; windowMs: number },
    private readonly clock: () => number = Date.now,
  ) {
    if (!Number.isInteger(rule.limit) || rule.limit < 1 || !Number.isInteger(rule.windowMs) || rule.windowMs < 1) {
      throw new Error('PaceLimiter needs a whole, positive limit and window');
    }
    // One request every windowMs / limit ms is, scaled by limit, one every windowMs units.
    this.interval = rule.windowMs;
    this.tolerance = (rule.limit - 1) * rule.windowMs;
  }

  /** Takes one request for the key, or throws a 429 AppError with Retry-After (whole seconds, ≥ 1). */
  hit(key: string, message = TOO_MANY) {
    const wait = this.take(key);
    if (wait > 0) throw rateLimited(wait, message);
  }

  /** Takes one request for the key: 0 when allowed, otherwise the ms until one would be (nothing is counted). */
  take(key: string): number {
    const now = this.clock() * this.rule.limit;
    const tat = Math.max(this.tat.get(key) ?? now, now);
    const earliest = tat - this.tolerance;
    if (earliest > now) return Math.ceil((earliest - now) / this.rule.limit);
    this.tat.set(key, tat + this.interval);
    if (this.tat.size > MAX_LIMITER_KEYS) this.prune(now);
    return 0;
  }

  /** Keys whose allowance is back to a full burst carry no state. */
  /** How many keys are held (tests). */
  get size() {
    return this.tat.size;
  }

  private prune(now: number) {
    for (const [k, t] of this.tat) if (t <= now) this.tat.delete(k);
    if (this.tat.size > MAX_LIMITER_KEYS) dropOldest(this.tat, Math.floor(MAX_LIMITER_KEYS * 0.9));
  }
}
