import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** Sums layout shifts (as CLS counts them) from the start of the page's load. */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) w.__cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}
const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

/** Member pages on a phone (issue 19, decision 018), in the real build as `npm start` serves it. */
describe('member pages fast on a phone', () => {
  it("a member page's first reads start with the HTML and are fetched once; the page renders whole, without moving", async () => {
    const m = await e2e.createMember('Pria Fast');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await watchShifts(page);
    const reads: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) reads.push(url.pathname + url.search);
    });
    const res = await page.goto('/profile');
    expect(res?.headers().link).toContain('</api/profile>; rel=preload; as=fetch');
    await page.getByRole('heading', { name: 'Your profile as others see it' }).waitFor();
    await page.locator('main').getByText('Pria Fast').first().waitFor();
    // The preloaded answer is the one the page used: one request each, not one from the HTML and one from the app.
    for (const read of ['/api/auth/session', '/api/profile', '/api/settings']) {
      expect(
        reads.filter((r) => r === read),
        read,
      ).toHaveLength(1);
    }
    // Before: the editor grid replaced a placeholder in place (CLS 0.95); Home's sections pushed its counters down.
    expect(await shifts(page)).toBeLessThanOrEqual(0.1);
    await page.goto('/home');
    await page.getByRole('heading', { level: 1, name: /Pria/ }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await shifts(page)).toBeLessThanOrEqual(0.1);
    await context.close();
  });

  it('a warm visit fetches no script again and shows fresh data, not a copy from the first visit', async () => {
    const m = await e2e.createMember('Wren Warm');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.waitForLoadState('networkidle');

    // Another tab, same browser: every script comes from the cache; the page's data from the server.
    const again = await context.newPage();
    const cdp = await context.newCDPSession(again);
    await cdp.send('Network.enable');
    const fromCache = new Set<string>();
    cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
    const scripts: { url: string; cached: boolean }[] = [];
    const reads: { url: string; cached: boolean }[] = [];
    cdp.on('Network.responseReceived', (e) => {
      const cached = Boolean(e.response.fromDiskCache || fromCache.has(e.requestId));
      if (e.type === 'Script') scripts.push({ url: e.response.url, cached });
      if (new URL(e.response.url).pathname === '/api/settings') reads.push({ url: e.response.url, cached });
    });
    await again.goto('/settings');
    await again.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await again.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.filter((s) => !s.cached)).toEqual([]);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => !r.cached)).toBe(true);
    await context.close();
  });
});
