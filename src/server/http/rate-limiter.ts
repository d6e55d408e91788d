import { AppError } from './errors';

interface Window {
  hits: number[];
}

type Rules = ReadonlyArray<{ limit: number; windowMs: number }>;

/**
 * A small in-process sliding-window limiter for rules keyed by something other than the IP
 * alone (an e-mail address, an IP + address pair). Each app instance keeps its own counts.
 */
export class RateLimiter {
  private windows = new Map<string, Window>();

  /** Records a hit; throws a 429 AppError with Retry-After when any rule is exceeded. */
  hit(key: string, rules: Rules, message = 'Too many attempts. Please wait a moment and try again.') {
    this.check(key, rules, message);
    this.record(key, rules);
  }

  /** Throws the 429 when any rule is already used up, without counting this request (e.g. count failures only). */
  check(key: string, rules: Rules, message = 'Too many attempts. Please wait a moment and try again.') {
    const now = Date.now();
    const hits = this.windows.get(key)?.hits ?? [];
    for (const rule of rules) {
      const inWindow = hits.filter((t) => now - t < rule.windowMs);
      if (inWindow.length >= rule.limit) {
        const retryAfterS = Math.max(1, Math.ceil((inWindow[0] + rule.windowMs - now) / 1000));
        throw new AppError('rate_limited', message, undefined, { 'retry-after': String(retryAfterS) });
      }
    }
  }

  /** Counts one hit against the key (its rules give how long hits are kept). */
  record(key: string, rules: Rules) {
    const now = Date.now();
    const longest = Math.max(...rules.map((r) => r.windowMs));
    const w = this.windows.get(key) ?? { hits: [] };
    w.hits = w.hits.filter((t) => now - t < longest);
    w.hits.push(now);
    this.windows.set(key, w);
    if (this.windows.size > 50_000) this.prune(now, longest);
  }

  private prune(now: number, maxWindowMs: number) {
    for (const [k, w] of this.windows) if (!w.hits.some((t) => now - t < maxWindowMs)) this.windows.delete(k);
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
