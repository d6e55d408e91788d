import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LANE_SLOW_MS, type Lanes, pipelinedLanes } from '../../src/server/db/pipelined-lanes';

/**
 * The hot statements' pipelined connections (docs/decisions/023, amended): every statement gets
 * its own answer or its own error, a statement held up by a lock does not hold up the others for
 * long, and a connection that breaks is replaced.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('The pg project needs TEST_DATABASE_URL (a PostgreSQL server).');

const pools: pg.Pool[] = [];
const all: Lanes[] = [];
afterAll(async () => {
  await Promise.all(all.map((l) => l.end()));
  await Promise.all(pools.map((p) => p.end()));
});

function open() {
  const pool = new pg.Pool({ connectionString: serverUrl, max: 4 });
  const counted = { pool: 0 };
  const viaPool = {
    query: (config: pg.QueryConfig) => {
      counted.pool++;
      return pool.query(config);
    },
  };
  const lanes = pipelinedLanes(pg.Client, { connectionString: serverUrl }, viaPool as Pick<pg.Pool, 'query'>);
  pools.push(pool);
  all.push(lanes);
  return { pool, lanes, counted };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pipelined lanes on PostgreSQL', () => {
  it('answers many statements sent at once, each with its own rows, and a failing one fails alone', async () => {
    const { lanes, counted } = open();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        i === 57
          ? lanes.query({ text: 'select 1 / $1::int as n', values: [0] })
          : lanes.query({ name: 'lanes_double', text: 'select $1::int * 2 as n', values: [i] }),
      ),
    );
    results.forEach((r, i) => {
      if (i === 57) {
        expect(r.status).toBe('rejected');
        expect((r as PromiseRejectedResult).reason.code).toBe('22012');
      } else {
        expect(r.status).toBe('fulfilled');
        expect((r as PromiseFulfilledResult<pg.QueryResult>).value.rows).toEqual([{ n: i * 2 }]);
      }
    });
    expect(counted.pool).toBe(0);
    expect(lanes.inFlight()).toEqual([0, 0]);
    // Both connections carried statements: each is a backend of its own.
    const pids = await Promise.all(Array.from({ length: 6 }, () => lanes.query({ text: 'select pg_backend_pid() as pid' })));
    expect(new Set(pids.map((r) => r.rows[0].pid)).size).toBe(2);
  });

  it('sends statements around a lane held up by a lock, and the held one still gets its answer', async () => {
    const { pool, lanes } = open();
    await pool.query('create table if not exists lanes_lock (id int primary key, n int)');
    await pool.query('insert into lanes_lock values (1, 0) on conflict (id) do update set n = 0');
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('update lanes_lock set n = n + 1 where id = 1');
      const held = lanes.query({ text: 'update lanes_lock set n = n + 10 where id = 1 returning n' });
      await sleep(LANE_SLOW_MS * 2);
      // The held statement's lane is avoided: these are answered while it still waits.
      const others = await Promise.all(Array.from({ length: 20 }, (_, i) => lanes.query({ text: 'select $1::int as n', values: [i] })));
      expect(others.map((r) => r.rows[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(lanes.inFlight().reduce((a, b) => a + b)).toBe(1);
      await holder.query('commit');
      expect((await held).rows).toEqual([{ n: 11 }]);
    } finally {
      holder.release();
      await pool.query('drop table if exists lanes_lock');
    }
  });

  it('replaces a connection that breaks: what was in flight fails, the next statements are answered', async () => {
    const { pool, lanes } = open();
    const pids = new Set(
      (await Promise.all([0, 1, 2, 3].map(() => lanes.query({ text: 'select pg_backend_pid() as pid' })))).map((r) => r.rows[0].pid),
    );
    // Settled into a value at once: it fails while the test is still terminating the backends.
    const inFlight = lanes.query({ text: 'select pg_sleep(5)' }).then(
      () => 'answered',
      (err: { code?: string }) => err.code,
    );
    await sleep(100);
    await pool.query('select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1::int[])', [[...pids]]);
    expect(await inFlight).toBe('57P01');
    await sleep(100);
    const after = await Promise.all(
      Array.from({ length: 10 }, (_, i) => lanes.query({ text: 'select $1::int as n, pg_backend_pid() as pid', values: [i] })),
    );
    expect(after.map((r) => r.rows[0].n)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    for (const r of after) expect(pids.has(r.rows[0].pid)).toBe(false);
  });

  it('falls back to the ordinary pool once it has ended', async () => {
    const { lanes, counted } = open();
    await lanes.end();
    expect((await lanes.query({ text: 'select 7 as n' })).rows).toEqual([{ n: 7 }]);
    expect(counted.pool).toBe(1);
  });
});
