import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
for (const dir of ['memory://', mkdtempSync(path.join(tmpdir(), 'pgb-'))]) {
  const d = await openDatabase({ dataDir: dir });
  const [m] = (await d.db.execute(sql`insert into mixers (title, starts_at, ends_at, status) values ('x', now(), now() + interval '1 hour', 'live') returning id`) as any).rows;
  let t = performance.now();
  for (let i = 0; i < 300; i++) await d.db.execute(sql`insert into mixer_messages (mixer_id, kind, body) values (${m.id}, 'system', ${'hello ' + i})`);
  const ins = (performance.now() - t) / 300;
  t = performance.now();
  for (let i = 0; i < 300; i++) await d.db.execute(sql`select * from mixers where id = ${m.id}`);
  const sel = (performance.now() - t) / 300;
  console.log(dir.slice(0, 12), 'insert ms', ins.toFixed(2), 'select ms', sel.toFixed(2));
  await d.close();
}
