import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../tests/helpers/test-db';
import type { Database } from './client';
import { compiledRead, readRows, toLiterals } from './prepared';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
  await database.db.execute(
    sql`create table prepared_probe (id int primary key, label text not null, at timestamptz, n bigint, ok boolean)`,
  );
  await database.db.execute(sql`insert into prepared_probe values
    (1, 'plain', '2026-11-22T10:00:00.123456Z', 9007199254740993, true),
    (2, 'it''s "quoted" \\ back', null, null, false),
    (3, 'ünïcødé ✓ 💬', '2026-01-01T00:00:00Z', 0, null)`);
});
afterAll(async () => {
  await database?.close();
});

const execute = async (query: SQL) => ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;

describe('readRows', () => {
  it('returns exactly what db.execute returns, call after call', async () => {
    const queries = [
      sql`select * from prepared_probe order by id`,
      sql`select * from prepared_probe where label = ${'it\'s "quoted" \\ back'}`,
      sql`select * from prepared_probe where label = ${'ünïcødé ✓ 💬'}`,
      sql`select id, at, n, ok from prepared_probe where id > ${1} and (ok = ${false} or ok is null) order by id`,
      sql`select id from prepared_probe where at < ${new Date('2026-06-01T00:00:00Z')}::timestamptz`,
      sql`select id from prepared_probe where n = ${9007199254740993n}`,
      sql`select count(*) as c, json_agg(label order by id) as labels, now() - now() as zero from prepared_probe where ${null}::text is null`,
    ];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) expect(await readRows(database, q)).toEqual(await execute(q));
    }
    if (database.kind === 'pglite') {
      // The embedded database really answered from prepared statements, one per statement
      // text (the two label lookups share one).
      const [row] = await execute(sql`select count(*)::int as c from pg_prepared_statements where name like 'fancy_stmt_%'`);
      expect(row).toEqual({ c: queries.length - 1 });
    }
  });

  it('treats a parameter as data, never as SQL', async () => {
    const attack = "x'); drop table prepared_probe; select ('";
    expect(await readRows(database, sql`select id from prepared_probe where label = ${attack}`)).toEqual([]);
    expect(await readRows(database, sql`select ${attack}::text as v`)).toEqual([{ v: attack }]);
    expect(await execute(sql`select count(*)::int as c from prepared_probe`)).toEqual([{ c: 3 }]);
  });

  it('falls back to db.execute for values without a literal form and reports errors as before', async () => {
    const json = sql`select (${{ a: 1 }})::jsonb ->> 'a' as a`;
    expect(await readRows(database, json)).toEqual([{ a: '1' }]);
    await expect(readRows(database, sql`select ${'a\0b'}::text as v`)).rejects.toThrow();
    await expect(readRows(database, sql`select * from no_such_table where id = ${1}`)).rejects.toThrow(/no_such_table/);
  });

  it('prepares again after the statements were deallocated', async () => {
    const q = sql`select label from prepared_probe where id = ${1}`;
    expect(await readRows(database, q)).toEqual([{ label: 'plain' }]);
    if (database.kind === 'pglite') await database.db.execute(sql`deallocate all`);
    expect(await readRows(database, q)).toEqual([{ label: 'plain' }]);
    expect(await readRows(database, q)).toEqual([{ label: 'plain' }]);
  });

  it('keeps answering past the statement cache size', async () => {
    for (let i = 0; i < 230; i++) {
      expect(await readRows(database, sql.raw(`select ${i} as i`))).toEqual([{ i }]);
    }
    expect(await readRows(database, sql`select label from prepared_probe where id = ${3}`)).toEqual([{ label: 'ünïcødé ✓ 💬' }]);
  });
});

describe('compiledRead', () => {
  const byLabel = compiledRead<{ id: number; label: string; at: string | null }, 'label' | 'min'>(
    (v) =>
      sql`select id, label, at from prepared_probe where (label = ${v.label} or ${v.label}::text is null) and id >= ${v.min} order by id`,
  );
  const direct = (label: string | null, min: number) =>
    execute(sql`select id, label, at from prepared_probe where (label = ${label} or ${label}::text is null) and id >= ${min} order by id`);

  it('answers exactly what the same statement with the values answers, call after call', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [label, min] of [
        ['plain', 1],
        ['it\'s "quoted" \\ back', 1],
        ['ünïcødé ✓ 💬', 1],
        [null, 2],
        ['plain', 2],
      ] as const) {
        expect(await byLabel(database, { label, min })).toEqual(await direct(label, min));
      }
    }
    expect(await byLabel(database, { label: null, min: 1 })).toHaveLength(3);
  });

  it('treats a value as data, never as SQL, and falls back where a value has no literal form', async () => {
    const attack = "x'); drop table prepared_probe; select ('";
    expect(await byLabel(database, { label: attack, min: 0 })).toEqual([]);
    expect(await execute(sql`select count(*)::int as c from prepared_probe`)).toEqual([{ c: 3 }]);
    await expect(byLabel(database, { label: 'a\0b', min: 0 })).rejects.toThrow();
    expect(await byLabel(database, { label: 'plain', min: 1 })).toEqual([expect.objectContaining({ id: 1, label: 'plain' })]);
  });

  it('is prepared once: by PREPARE on PGlite, as a named statement over the pipelined lanes on PostgreSQL', async () => {
    // The statement lists the prepared statements of the connection it runs on: its own among them.
    const mine = compiledRead<{ names: string[]; pid: number }, 'n'>(
      (v) => sql`select array(select name from pg_prepared_statements where ${v.n}::int > 0) as names, pg_backend_pid() as pid`,
    );
    const answers = (await Promise.all(Array.from({ length: 20 }, () => mine(database, { n: 1 })))).flat();
    const prefix = database.kind === 'postgres' ? 'fancy_compiled_' : 'fancy_stmt_';
    for (const { names } of answers) expect(names.some((n) => n.startsWith(prefix))).toBe(true);
    // Twenty at once: on PostgreSQL over the two lanes, never a pooled connection each.
    expect(new Set(answers.map((a) => a.pid)).size).toBeLessThanOrEqual(2);
  });
});

describe('toLiterals', () => {
  it('quotes every value and refuses what it cannot quote', () => {
    expect(toLiterals([])).toBe('');
    expect(toLiterals(["o'clock", 5, true, null, 10n, new Date('2026-01-02T03:04:05.006Z')])).toBe(
      "('o''clock', '5', 't', NULL, '10', '2026-01-02T03:04:05.006Z')",
    );
    expect(toLiterals([Number.NaN])).toBeNull();
    expect(toLiterals([{ a: 1 }])).toBeNull();
    expect(toLiterals([[1]])).toBeNull();
    expect(toLiterals(['a\0'])).toBeNull();
  });
});
