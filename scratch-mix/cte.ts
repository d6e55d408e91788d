import { eq, sql } from 'drizzle-orm';
import { createTestApp } from '../tests/helpers/test-app';
import { mixerMemberships, mixers, profiles } from '../src/server/db/schema';
const t = await createTestApp();
const m = await t.member('Bench Person');
const [mx] = await t.database.db.insert(mixers).values({ title: 'b', status: 'live', startsAt: new Date(Date.now() - 60000), endsAt: new Date(Date.now() + 3600000) }).returning();
await t.database.db.insert(mixerMemberships).values({ mixerId: mx.id, userId: m.id });
const db = t.database.db;
const time = async (label: string, q: () => unknown, n = 300) => {
  await (q() as Promise<unknown>);
  const s = performance.now();
  for (let i = 0; i < n; i++) await (q() as Promise<unknown>);
  console.log(label.padEnd(30), ((performance.now() - s) / n).toFixed(2), 'ms');
};
await time('select 1', () => db.execute(sql`select 1`));
await time('plain insert', () => db.execute(sql`insert into mixer_messages (mixer_id, sender_id, kind, body) values (${mx.id}, ${m.id}, 'member', 'x') returning id, created_at`));
await time('guarded insert', () => db.execute(sql`
  with target as (select m.id from mixers m where m.id = ${mx.id} and m.status = 'live' and m.ends_at > now()
     and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${m.id} and c.state = 'joined')),
  ins as (insert into mixer_messages (mixer_id, sender_id, kind, body) select id, ${m.id}, 'member', 'x' from target returning id, created_at)
  select ins.id, ins.created_at, p.full_name, p.avatar_url from ins left join profiles p on p.id = ${m.id}`));
const { postMessage } = await import('../src/server/modules/mixers/chat');
let i = 0;
await time('postMessage', () => postMessage(t.app.deps, () => {}, m.id, mx.id, `hello ${i++}`));
await t.close();
