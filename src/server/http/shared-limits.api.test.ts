import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_RATE_LIMIT } from '../../shared/schemas/mixers';
import { freshDatabase } from '../../../tests/helpers/test-db';
import type { Database } from '../db/client';
import { AppError } from './errors';
import { HOUR } from './rate-limiter';
import { sql } from 'drizzle-orm';
import { admissionCtes, admissionOutcomeSql, consume, memoryLimits, postgresLimits } from './shared-limits';

/**
 * The store every instance shares (docs/decisions/020), run against PGlite here and against
 * PostgreSQL under `npm run test:pg`. Two store objects on one database stand for two instances.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), add: (ms: number) => (t += ms) };
}

async function refusal(p: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
}

describe('sliding-log limits in PostgreSQL', () => {
  it('counts hits from every instance together and refuses with a message and Retry-After', async () => {
    const c = clock();
    const a = postgresLimits(database, c.now).window('auth');
    const b = postgresLimits(database, c.now).window('auth');
    const rules = [{ limit: 3, windowMs: HOUR }];
    await a.hit('signup:ip:1', rules);
    await b.hit('signup:ip:1', rules);
    c.add(60_000);
    await a.hit('signup:ip:1', rules);
    const error = await refusal(b.hit('signup:ip:1', rules, 'Too many sign-ups'));
    expect(error?.status).toBe(429);
    expect(error?.message).toBe('Too many sign-ups');
    // The oldest hit leaves the window an hour after it was made, 59 minutes from now.
    expect(error?.headers).toEqual({ 'retry-after': String(59 * 60) });
    // A refused hit is not counted: once the first two leave the window, exactly two more fit.
    c.add(HOUR - 60_000);
    await a.hit('signup:ip:1', rules);
    await b.hit('signup:ip:1', rules);
    expect(await refusal(a.hit('signup:ip:1', rules))).toBeInstanceOf(AppError);
    // Other keys and other limiters' namespaces are separate.
    await a.hit('signup:ip:2', rules);
    await postgresLimits(database, c.now).window('contact').hit('signup:ip:1', rules);
  });

  it('checks every rule (per minute and per hour) and counts failures only when told', async () => {
    const c = clock();
    const limiter = postgresLimits(database, c.now).window('auth');
    const rules = [
      { limit: 2, windowMs: 60_000 },
      { limit: 3, windowMs: HOUR },
    ];
    await limiter.check('fail:x', rules);
    await limiter.record('fail:x', rules);
    await limiter.record('fail:x', rules);
    expect((await refusal(limiter.check('fail:x', rules)))?.headers).toEqual({ 'retry-after': '60' });
    c.add(61_000);
    await limiter.check('fail:x', rules);
    await limiter.record('fail:x', rules);
    // Now the hourly rule is full although the minute has room.
    const error = await refusal(limiter.check('fail:x', rules));
    expect(error?.status).toBe(429);
    expect(Number(error?.headers?.['retry-after'])).toBe(HOUR / 1000 - 61);
  });

  it('lets exactly the limit through when many hits race from several instances', async () => {
    const c = clock();
    const stores = [postgresLimits(database, c.now), postgresLimits(database, c.now), postgresLimits(database, c.now)];
    const rules = [{ limit: 5, windowMs: HOUR }];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => refusal(stores[i % 3].window('contact').hit('contact:ip:race', rules))),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(5);
  });

  it('counts up front on every key and gives back on demand, one hit at a time, from any instance (issue 32)', async () => {
    const c = clock();
    const a = postgresLimits(database, c.now).window('give-back');
    const b = postgresLimits(database, c.now).window('give-back');
    const two = [{ limit: 2, windowMs: HOUR }];
    const one = [{ limit: 1, windowMs: HOUR }];
    // Two hits in the same millisecond; giving one back leaves the other.
    const at = await a.hit('same-ms', two);
    expect(await b.hit('same-ms', two)).toBe(at);
    await b.giveBack('same-ms', at);
    await a.hit('same-ms', two);
    expect(await refusal(a.hit('same-ms', two))).toBeInstanceOf(AppError);

    // Given back, both keys have their room again.
    const giveBack = await consume(a, [
      ['member', two],
      ['mixer', one],
    ]);
    expect(await refusal(b.hit('mixer', one))).toBeInstanceOf(AppError);
    await giveBack();
    c.add(1000);
    // Refused on the second key: the first key's hit is given back, so nothing is counted.
    await b.hit('mixer', one);
    const refused = await refusal(
      consume(
        a,
        [
          ['member', two],
          ['mixer', one],
        ],
        'Too many joins',
      ),
    );
    expect(refused?.message).toBe('Too many joins');
    await b.hit('member', two);
    await b.hit('member', two);
    expect(await refusal(a.hit('member', two))).toBeInstanceOf(AppError);
  });
});

describe('a hit unless another limiter is full (slow mode gating the flood count), in PostgreSQL and in memory', () => {
  const three = [{ limit: 3, windowMs: 10_000 }];
  const onRule = [{ limit: 1, windowMs: 60_000 }];

  it('counts while the gate has room, counts nothing while it is full, and refuses at its own limit, across instances', async () => {
    const c = clock();
    const [a, b] = [postgresLimits(database, c.now), postgresLimits(database, c.now)];
    const count = a.window('count');
    const gate = { limiter: b.window('gate'), rules: onRule };
    expect(await count.hitUnlessFull('k', three, gate)).toBe(c.now());
    await gate.limiter.record('k', onRule);
    // A full gate: nothing counted, however often.
    for (let i = 0; i < 5; i++) expect(await count.hitUnlessFull('k', three, gate)).toBe('gated');
    c.add(60_001);
    for (let i = 0; i < 3; i++) expect(await count.hitUnlessFull('k', three, gate)).toBe(c.now());
    // Its own rule: the fourth in 10 s is refused with a wait, not gated.
    const error = await refusal(b.window('count').hitUnlessFull('k', three, gate, 'Too fast'));
    expect(error?.message).toBe('Too fast');
    expect(error?.headers).toEqual({ 'retry-after': '10' });
    // Another key is its own.
    expect(await count.hitUnlessFull('other', three, gate)).toBe(c.now());
  });

  it('in memory (the embedded mode) the same', async () => {
    const limits = memoryLimits();
    const count = limits.window('count');
    const gate = { limiter: limits.window('gate'), rules: onRule };
    expect(await count.hitUnlessFull('k', three, gate)).toEqual(expect.any(Number));
    await gate.limiter.record('k', onRule);
    expect(await count.hitUnlessFull('k', three, gate)).toBe('gated');
    for (let i = 0; i < 3; i++) expect(await count.hitUnlessFull('other', three, gate)).toEqual(expect.any(Number));
    expect((await refusal(count.hitUnlessFull('other', three, gate, 'Too fast')))?.message).toBe('Too fast');
  });

  it('lets exactly the limit through when hits race from several instances', async () => {
    const c = clock();
    const instances = [postgresLimits(database, c.now), postgresLimits(database, c.now)];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refusal(
          instances[i % 2].window('race-count').hitUnlessFull('k', three, { limiter: instances[0].window('race-gate'), rules: onRule }),
        ),
      ),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(3);
  });
});

describe('the chat pace limiter in PostgreSQL (10 burst, one more per second)', () => {
  it('never refuses a member sending every 1.01 s for a minute, alternating between instances', async () => {
    const c = clock();
    const a = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    const b = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      c.set(1_700_000_000_000 + i * 1010);
      if ((await (i % 2 ? a : b).take('steady')) > 0) refused++;
    }
    expect(refused).toBe(0);
  });

  it('shares one burst between instances and refuses the 11th with a Retry-After', async () => {
    const c = clock();
    const a = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    const b = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    for (let i = 0; i < 10; i++) expect(await (i % 2 ? a : b).take('burst')).toBe(0);
    expect(await a.take('burst')).toBe(1000);
    expect(await b.take('burst')).toBe(1000);
    const error = await refusal(b.hit('burst', 'slow down'));
    expect(error?.message).toBe('slow down');
    expect(error?.headers).toEqual({ 'retry-after': '1' });
    // One interval later exactly one more, whichever instance it reaches.
    c.add(1000);
    expect(await b.take('burst')).toBe(0);
    expect(await a.take('burst')).toBe(1000);
  });

  it('refuses a member who keeps sending twice a second: about 10 + 1 per second get through', async () => {
    const c = clock();
    const a = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    const b = postgresLimits(database, c.now).pace('chat', CHAT_RATE_LIMIT);
    let accepted = 0;
    for (let i = 0; i <= 60; i++) {
      c.set(1_700_000_000_000 + i * 500);
      if ((await (i % 2 ? a : b).take('fast')) === 0) accepted++;
    }
    expect(accepted).toBeGreaterThanOrEqual(10 + 30);
    expect(accepted).toBeLessThanOrEqual(10 + 30 + 1);
  });
});

describe("an admission: the gated hit and the pace taken inside a write's own statement (PostgreSQL)", () => {
  it('counts, refuses and answers exactly as the two limits taken one at a time, over a long mixed run from two instances', async () => {
    const c = clock();
    const instances = [postgresLimits(database, c.now), postgresLimits(database, c.now)];
    const floodRules = [{ limit: 4, windowMs: 10_000 }];
    const gateRules = [{ limit: 1, windowMs: 15_000 }];
    const paceRule = { limit: 2, windowMs: 3000 };
    // Each path its own namespaces on the same table, and its own limiter objects per instance.
    const pathOf = (name: string) =>
      instances.map((limits) => ({
        limits,
        flood: limits.window(`${name}-flood`),
        gate: limits.window(`${name}-gate`),
        pace: limits.pace(`${name}-pace`, paceRule),
      }));
    type Path = ReturnType<typeof pathOf>[number];
    // As a chat line: the flood counted per member and room, the pace per member.
    const oneAtATime = async ({ flood, gate, pace }: Path, key: string, member: string) => {
      try {
        if ((await flood.hitUnlessFull(key, floodRules, { limiter: gate, rules: gateRules })) === 'gated') return 'gated';
      } catch {
        return 'full';
      }
      const error = await refusal(pace.hit(member, 'pace'));
      return error ? `pace ${error.headers?.['retry-after']}` : 'sent';
    };
    const admitted = async (path: Path, key: string, member: string) => {
      const { limits, flood, gate, pace } = path;
      const admission = limits.admission(
        { limiter: flood, key, rules: floodRules, gate: { limiter: gate, rules: gateRules } },
        { limiter: pace, key: member },
        'pace',
      );
      // As the chat route: without an admission, or when its first count was refused, one at a time.
      if (!admission) return oneAtATime(path, key, member);
      const result = await database.db.execute(sql`with ${admissionCtes(admission.values)} select ${admissionOutcomeSql}`);
      const [row] = (result as unknown as { rows: { admit_counted: boolean; admit_tat: unknown }[] }).rows;
      let counted: boolean;
      try {
        counted = await admission.settle(row);
      } catch (err) {
        return `pace ${(err as AppError).headers?.['retry-after']}`;
      }
      return counted ? 'sent' : oneAtATime(path, key, member);
    };
    const [seq, adm] = [pathOf('seq'), pathOf('adm')];
    // A fixed pseudo-random run: two members in two rooms, either instance, lines 0–1.2 s apart,
    // slow mode (the gate) turned on now and then.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const outcomes: string[] = [];
    for (let i = 0; i < 400; i++) {
      c.add(next(1200));
      const member = `member-${next(2)}`;
      const key = `room-${next(2)}:${member}`;
      const at = next(2);
      if (next(40) === 0) {
        await seq[at].gate.record(key, gateRules);
        await adm[at].gate.record(key, gateRules);
        continue;
      }
      const expected = await oneAtATime(seq[at], key, member);
      expect(await admitted(adm[at], key, member), `step ${i}`).toBe(expected);
      outcomes.push(expected);
    }
    // Every outcome came up, so each path of the admission was compared.
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[o.split(' ')[0]] = (counts[o.split(' ')[0]] ?? 0) + 1;
    expect(new Set(outcomes.map((o) => o.split(' ')[0]))).toEqual(new Set(['sent', 'gated', 'full', 'pace']));
    // And the store holds the same state for both: every hit, arrival time and expiry.
    const stateOf = async (name: string) => {
      const result = await database.db.execute(
        sql`select substr(key, length(${name}) + 1) as key, hits, tat, expires_at from rate_limits where key like ${`${name}-%`} order by key`,
      );
      return (result as unknown as { rows: unknown[] }).rows;
    };
    expect(await stateOf('adm')).toEqual(await stateOf('seq'));
  });
});

describe('expiry', () => {
  it('sweeps rows whose state has run out and keeps live ones', async () => {
    const past = clock(Date.now() - 3 * HOUR);
    await postgresLimits(database, past.now)
      .window('sweep')
      .hit('old', [{ limit: 5, windowMs: HOUR }]);
    await postgresLimits(database, past.now).pace('sweep', CHAT_RATE_LIMIT).take('old');
    const live = postgresLimits(database);
    await live.window('sweep').hit('new', [{ limit: 5, windowMs: HOUR }]);
    expect(await live.sweep()).toBeGreaterThanOrEqual(2);
    const { rows } = (await database.db.execute(
      "select key from rate_limits where key like 'sweep:%' order by key" as never,
    )) as unknown as {
      rows: { key: string }[];
    };
    expect(rows.map((r) => r.key)).toEqual(['sweep:new']);
  });
});
