import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_TEXTS } from '../../src/shared/schemas/host';
import { type Database, openDatabase } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/lib/sql';
import { runHost } from '../../src/server/modules/host/service';
import { createDatabase, type Instance, seedMembers, startInstance, stopInstance, type TestDatabase } from './instances';

/**
 * The host on one PostgreSQL (TEST_DATABASE_URL) from several instances (issue 29): two real
 * server processes whose host jobs run at the same moment post each line once and nudge each
 * member once; and runs racing on separate connections claim each line once.
 */
const MIXERS = 3;
const PER_MIXER = 4;
let tdb: TestDatabase;
let database: Database;
const instances: Instance[] = [];

const count = async (q: ReturnType<typeof sql>) => Number(rowsOf<{ n: string }>(await database.db.execute(q))[0].n);

beforeAll(async () => {
  tdb = await createDatabase('fancy_host');
  await seedMembers(tdb.url, MIXERS, PER_MIXER);
  database = await openDatabase({ databaseUrl: tdb.url });
  // Half an hour in, everyone in since the start and nobody has written: the game and a nudge each are due.
  await database.db.execute(sql`update mixers set starts_at = now() - interval '31 minutes', ends_at = now() + interval '29 minutes'`);
  await database.db.execute(sql`update mixer_memberships set joined_at = now() - interval '31 minutes'`);
});

afterAll(async () => {
  await Promise.all(instances.map(stopInstance));
  await database?.close();
  await tdb?.drop();
});

describe('the host with several instances', () => {
  it('two instances starting together post the halfway game once per mixer and nudge each member once', async () => {
    instances.push(...(await Promise.all([startInstance(tdb, { HOST_JOB: 'on' }), startInstance(tdb, { HOST_JOB: 'on' })])));
    // Both ran at ready; wait until the work is visible, then a little longer for a late second run.
    for (let i = 0; i < 200; i++) {
      if ((await count(sql`select count(*) as n from host_nudges`)) >= MIXERS * PER_MIXER) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2000));

    const perMixer = rowsOf<{ mixer_id: string; games: number; polls: number; nudges: number }>(
      await database.db.execute(sql`
        select m.id as mixer_id,
               (select count(*)::int from mixer_messages x where x.mixer_id = m.id and x.body like ${`${HOST_TEXTS.pollPrefix}%`}) as games,
               (select count(*)::int from host_polls p where p.mixer_id = m.id) as polls,
               (select count(*)::int from host_nudges n where n.mixer_id = m.id) as nudges
          from mixers m`),
    );
    expect(perMixer).toHaveLength(MIXERS);
    for (const m of perMixer) expect(m).toMatchObject({ games: 1, polls: 1, nudges: PER_MIXER });
    expect(await count(sql`select count(*) as n from mixer_messages where sender_id is null and kind = 'system'`)).toBe(MIXERS);
  });

  it('runs racing on separate connections at the same moment claim each line once', async () => {
    await Promise.all(instances.splice(0).map(stopInstance));
    const others = await Promise.all([openDatabase({ databaseUrl: tdb.url }), openDatabase({ databaseUrl: tdb.url })]);
    try {
      // Five minutes after the game, nobody has spoken: a quiet-room prompt is due in every mixer.
      const at = new Date(Date.now() + 5 * 60_000 + 1000);
      const before = await count(sql`select count(*) as n from mixer_messages where sender_id is null`);
      const runs = await Promise.all([...others, database, ...others].map((d) => runHost(d.db, at, () => {})));
      const posted = runs.flatMap((r) => r.posted);
      expect(posted).toHaveLength(MIXERS);
      expect(new Set(posted.map((p) => p.mixerId)).size).toBe(MIXERS);
      expect(await count(sql`select count(*) as n from mixer_messages where sender_id is null`)).toBe(before + MIXERS);
      expect(await count(sql`select count(*) as n from mixer_hosts where prompts_posted = 1`)).toBe(MIXERS);
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
  });
});
