import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHAT_RATE_LIMIT } from '../../shared/schemas/mixers';
import { AppError } from './errors';
import { HOUR, MAX_LIMITER_KEYS, PaceLimiter, RateLimiter } from './rate-limiter';

/** A clock the test moves by hand. */
function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, set: (t: number) => (now = t) };
}

/** Deterministic pseudo-random numbers in [0, 1) (a small LCG), so every run sends the same pattern. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * A client that sends one message every `everyMs` for `seconds`; each one reaches the server
 * `delay(i)` ms after it was sent (the server handles them in the order they arrive).
 */
function arrivals(everyMs: number, seconds: number, delay: (i: number) => number = () => 0): number[] {
  const times: number[] = [];
  for (let i = 0; i * everyMs <= seconds * 1000; i++) times.push(i * everyMs + delay(i));
  return times.sort((a, b) => a - b);
}

function refusals(limiter: PaceLimiter, clock: ReturnType<typeof fakeClock>, times: number[], start = 1_700_000_000_000) {
  let refused = 0;
  for (const t of times) {
    clock.set(start + t);
    if (limiter.take('member') > 0) refused++;
  }
  return refused;
}

afterEach(() => vi.restoreAllMocks());

describe('PaceLimiter (chat sends: 10 per 10 s)', () => {
  it('never refuses a client sending at 1 per 1.01 s for 60 s', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    const times = arrivals(1010, 60);
    expect(times.length).toBe(60);
    expect(refusals(limiter, clock, times)).toBe(0);
  });

  it('never refuses it when the network delays its messages unevenly (up to 2 s each)', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    const random = seeded(42);
    const times = arrivals(1010, 60, () => Math.floor(random() * 2000));
    expect(refusals(limiter, clock, times)).toBe(0);
  });

  it('where a sliding log of 10 per 10 s would refuse the same client (why it is not one)', () => {
    // The first message reaches the server 0.2 s late, the rest on time: the 11th arrives 9.9 s after it.
    const times = arrivals(1010, 60, (i) => (i === 0 ? 200 : 0));
    const start = 1_700_000_000_000;
    let refused = 0;
    const log = new RateLimiter();
    for (const t of times) {
      vi.spyOn(Date, 'now').mockReturnValue(start + t);
      try {
        log.hit('member', [CHAT_RATE_LIMIT]);
      } catch {
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    const clock = fakeClock();
    expect(refusals(new PaceLimiter(CHAT_RATE_LIMIT, clock.now), clock, times)).toBe(0);
  });

  it('allows a burst of 10 at once, then refuses the 11th with a Retry-After', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    for (let i = 0; i < 10; i++) limiter.hit('member', 'slow down');
    let error: unknown;
    try {
      limiter.hit('member', 'slow down');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(429);
    expect((error as AppError).message).toBe('slow down');
    expect((error as AppError).headers).toEqual({ 'retry-after': '1' });
    // Per key: someone else is not affected.
    expect(limiter.take('someone else')).toBe(0);
    // One interval later exactly one more is allowed.
    clock.set(clock.now() + 999);
    expect(limiter.take('member')).toBe(1);
    clock.set(clock.now() + 1);
    expect(limiter.take('member')).toBe(0);
    expect(limiter.take('member')).toBe(1000);
  });

  it('refuses a client that keeps sending faster (1 per 0.5 s): at most 10 + 1 per second get through', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    const times = arrivals(500, 60);
    const refused = refusals(limiter, clock, times);
    const accepted = times.length - refused;
    expect(refused).toBeGreaterThan(0);
    // One burst of 10 plus one per second over the 60 s.
    expect(accepted).toBeLessThanOrEqual(10 + 60 + 1);
    expect(accepted).toBeGreaterThanOrEqual(10 + 60);
  });

  it('refuses a client sending at 1 per 0.9 s once its burst allowance is used up', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    expect(refusals(limiter, clock, arrivals(900, 120))).toBeGreaterThan(0);
  });

  it('keeps exact arithmetic for windows that do not divide evenly (3 per 7 s)', () => {
    const clock = fakeClock();
    const limiter = new PaceLimiter({ limit: 3, windowMs: 7000 }, clock.now);
    // Every 7000 / 3 ms (rounded up to whole ms) for 10 minutes: never refused.
    expect(refusals(limiter, clock, arrivals(2334, 600))).toBe(0);
    const fresh = new PaceLimiter({ limit: 3, windowMs: 7000 }, clock.now);
    for (let i = 0; i < 3; i++) expect(fresh.take('k')).toBe(0);
    expect(fresh.take('k')).toBe(2334);
  });
});

describe('limiters hold a bounded number of keys (decision 017)', () => {
  it('the sliding log stays under its cap even when every key is still in its window', () => {
    const log = new RateLimiter();
    const rules = [{ limit: 5, windowMs: HOUR }];
    for (let i = 0; i < MAX_LIMITER_KEYS + 1000; i++) log.record(`ip:${i}`, rules);
    expect(log.size).toBeLessThanOrEqual(MAX_LIMITER_KEYS);
    // The newest keys keep their counts.
    const last = `ip:${MAX_LIMITER_KEYS + 999}`;
    for (let i = 0; i < 4; i++) log.record(last, rules);
    expect(() => log.hit(last, rules)).toThrow(AppError);
  });

  it('the pace limiter stays under its cap even when every key is mid-burst', () => {
    const clock = { t: 0, now: () => clock.t };
    const pace = new PaceLimiter(CHAT_RATE_LIMIT, clock.now);
    for (let i = 0; i < MAX_LIMITER_KEYS + 1000; i++) pace.take(`member:${i}`);
    expect(pace.size).toBeLessThanOrEqual(MAX_LIMITER_KEYS);
  });
});

describe('the sliding log gives back a hit counted up front (issue 32)', () => {
  it('takes back exactly one hit, so exactly one more fits', () => {
    const log = new RateLimiter();
    const rules = [{ limit: 2, windowMs: HOUR }];
    const at = log.hit('member', rules);
    log.hit('member', rules);
    expect(() => log.hit('member', rules)).toThrow(AppError);
    log.giveBack('member', at);
    log.hit('member', rules);
    expect(() => log.hit('member', rules)).toThrow(AppError);
    // A key it never counted is left alone.
    log.giveBack('nobody', at);
    expect(log.size).toBe(1);
  });
});
