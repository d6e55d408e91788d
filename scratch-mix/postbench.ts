import { eq } from 'drizzle-orm';
import { createTestApp } from '../tests/helpers/test-app';
import { mixerMemberships, mixers, profiles } from '../src/server/db/schema';
const t = await createTestApp();
const m = await t.member('Bench Person');
await t.database.db.update(profiles).set({ onboardingCompleted: true }).where(eq(profiles.id, m.id));
const [mx] = await t.database.db.insert(mixers).values({ title: 'b', status: 'live', startsAt: new Date(Date.now() - 60000), endsAt: new Date(Date.now() + 3600000) }).returning();
await t.database.db.insert(mixerMemberships).values({ mixerId: mx.id, userId: m.id });
const time = async (label: string, fn: () => Promise<unknown>, n = 200) => {
  await fn();
  const s = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, ((performance.now() - s) / n).toFixed(2), 'ms');
};
await time('GET /api/health', () => t.request({ method: 'GET', url: '/api/health' }));
await time('GET /api/stats (session + 1 query)', () => t.request({ method: 'GET', url: '/api/stats', cookie: m.cookie }));
let i = 0;
// bypass the rate limit by patching Date? just use a fresh limiter window: post 9 per batch
const { postMessage } = await import('../src/server/modules/mixers/chat');
await time('postMessage() service only', () => postMessage(t.app.deps, () => {}, m.id, mx.id, `hello ${i++}`));
const { listMixers } = await import('../src/server/modules/mixers/service');
await time('listMixers live', () => listMixers(t.app.deps, m.id, { section: 'live', limit: 12, active: false } as never), 100);
const { getMixer } = await import('../src/server/modules/mixers/service');
await time('getMixer', () => getMixer(t.app.deps, m.id, mx.id), 100);
const { listMessages } = await import('../src/server/modules/mixers/chat');
await time('listMessages 50', () => listMessages(t.app.deps, m.id, mx.id, { limit: 50 }), 100);
await t.close();
