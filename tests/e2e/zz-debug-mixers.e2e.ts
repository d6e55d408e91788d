import { afterAll, beforeAll, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { type E2E, startE2E } from './harness';
let e2e: E2E;
beforeAll(async () => { e2e = await startE2E({ SEED_DEMO: 'true' }); });
afterAll(async () => { await e2e?.close(); });
it('debug', async () => {
  const a = await e2e.newPage({ width: 1280, height: 800 });
  await e2e.login(a.page, 'maya-okafor@demo.fancy.test', DEMO_PASSWORD);
  await a.page.goto('/mixers');
  await a.page.getByRole('link', { name: 'Warehouse Techno Talk' }).click();
  await a.page.getByRole('button', { name: 'Join the conversation' }).click();
  await a.page.getByRole('log').waitFor();
  await a.page.waitForTimeout(1500);
  const info = await a.page.evaluate(() => {
    const out: string[] = [`scrollWidth=${document.documentElement.scrollWidth} scrollX=${window.scrollX} main=${document.querySelector('main')?.scrollWidth}`];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.right > 1257 && r.width < 1200) out.push(`${el.tagName}.${String(el.className).slice(0, 80)} right=${r.right} w=${r.width}`);
    }
    return out.slice(0, 40);
  });
  console.log(info.join('\n'));
  await a.page.screenshot({ path: 'test-results/screenshots/debug-chat-1280.png' });
  await a.context.close();
});
