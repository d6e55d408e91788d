import { sql } from 'drizzle-orm';
import { createTestApp } from '../tests/helpers/test-app';
import { mixerMemberships, mixers } from '../src/server/db/schema';
const t = await createTestApp();
const ms = await Promise.all([0,1,2,3,4,5,6,7].map((i) => t.member('Bench P' + i)));
const m = ms[0];
const [mx] = await t.database.db.insert(mixers).values({ title: 'b', status: 'live', startsAt: new Date(Date.now() - 60000), endsAt: new Date(Date.now() + 3600000) }).returning();
for (const x of ms) await t.database.db.insert(mixerMemberships).values({ mixerId: mx.id, userId: x.id });
const db = t.database.db;
const blockedBetween = (a: string, b: any) => sql`exists (select 1 from blocks bl where (bl.blocker_id = ${a} and bl.blocked_id = ${b}) or (bl.blocker_id = ${b} and bl.blocked_id = ${a}))`;
const head = sql`with target as (select m.id from mixers m where m.id = ${mx.id} and m.status = 'live' and m.ends_at > now()
     and exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${m.id} and c.state = 'joined')),
  ins as (insert into mixer_messages (mixer_id, sender_id, kind, body) select id, ${m.id}, 'member', 'x' from target returning id, created_at)`;
const variants: Record<string, () => Promise<unknown>> = {
  plain: () => db.execute(sql`insert into mixer_messages (mixer_id, sender_id, kind, body) values (${mx.id}, ${m.id}, 'member', 'x') returning id, created_at`),
  guarded: () => db.execute(sql`${head} select ins.id, ins.created_at, p.full_name, p.avatar_url from ins left join profiles p on p.id = ${m.id}`),
  current: () => db.execute(sql`${head} select ins.id, to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as c, coalesce(p.full_name, u.name), p.avatar_url,
     array(select c.user_id from mixer_memberships c where c.mixer_id = ${mx.id} and c.state = 'joined' and c.user_id <> ${m.id} and ${blockedBetween(m.id, sql`c.user_id`)}) as blocked,
     array(select c.user_id from mixer_memberships c where c.mixer_id = ${mx.id} and c.state = 'joined') as members
     from ins join "user" u on u.id = ${m.id} left join profiles p on p.id = u.id`),
  gated: () => db.execute(sql`${head} select ins.id, to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as c, coalesce(p.full_name, u.name), p.avatar_url,
     case when exists (select 1 from blocks where blocker_id = ${m.id} or blocked_id = ${m.id}) then array(select c.user_id || case when ${blockedBetween(m.id, sql`c.user_id`)} then ':b' else '' end from mixer_memberships c where c.mixer_id = ${mx.id} and c.state = 'joined') end as members
     from ins join "user" u on u.id = ${m.id} left join profiles p on p.id = u.id`),
};
const best: Record<string, number> = {};
for (let round = 0; round < 6; round++) for (const [k, f] of Object.entries(variants)) {
  await f();
  const s = performance.now();
  for (let i = 0; i < 200; i++) await f();
  const v = (performance.now() - s) / 200; best[k] = Math.min(best[k] ?? 1e9, v);
}
console.log(best);
await t.close();
