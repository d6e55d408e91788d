import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appReady, type E2E, startE2E } from './harness';

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
/** A new member past the gates (profile complete), signed in on a 375 px phone. */
async function memberOnPhone(fullName: string) {
  const m = await e2e.createMember(fullName);
  await e2e.completeProfile(m.email);
  const { context, page } = await e2e.newPage({ width: 375, height: 812 });
  await e2e.login(page, m.email);
  return { context, page };
}

const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

/** Member pages on a phone (issue 19, decision 018), in the real build as `npm start` serves it. */
describe('member pages fast on a phone', () => {
  it("a member page's first reads come in its HTML, so the app asks the server for none of them; the page renders whole, without moving", async () => {
    const { context, page } = await memberOnPhone('Pria Fast');
    await watchShifts(page);
    const reads: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) reads.push(url.pathname + url.search);
    });
    const res = await page.goto('/profile');
    expect(res?.headers()['cache-control']).toBe('no-store');
    expect(await res?.text()).toContain('<script type="application/json" id="fancy-data">');
    await page.getByRole('heading', { name: 'Your profile as others see it' }).waitFor();
    await page.locator('main').getByText('Pria Fast').first().waitFor();
    // The answers in the page are the ones the app used: no request for any of them.
    for (const read of ['/api/auth/session', '/api/profile', '/api/settings']) expect(reads, read).not.toContain(read);
    // Reads of the next page go to the server as before — once the app has taken the page over: a
    // tap before then is a real link's navigation, and /mixers comes rendered with its reads.
    await appReady(page);
    await page.getByRole('link', { name: 'Mixers' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Mixers' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(reads).toContain('/api/mixers/topics');
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your profile as others see it' }).waitFor();
    // Before: the editor grid replaced a placeholder in place (CLS 0.95); Home's sections pushed its counters down.
    expect(await shifts(page)).toBeLessThanOrEqual(0.1);
    await page.goto('/home');
    await page.getByRole('heading', { level: 1, name: /Pria/ }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await shifts(page)).toBeLessThanOrEqual(0.1);
    await context.close();
  });

  it("every member page's reads come in its HTML: once it has loaded, the app asks the server for nothing but photos", async () => {
    const { context, page } = await memberOnPhone('Ravi Reads');
    await page.waitForLoadState('networkidle');
    for (const path of ['/home', '/mixers', '/messages', '/matches', '/profile', '/settings']) {
      const reads: string[] = [];
      const onRequest = (req: { url(): string }) => {
        const url = new URL(req.url());
        if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/files/')) reads.push(url.pathname + url.search);
      };
      page.on('request', onRequest);
      await page.goto(path);
      await appReady(page);
      await page.waitForLoadState('networkidle');
      page.off('request', onRequest);
      // A read the page makes after it has loaded re-renders it at once, a long task on a slow phone.
      expect(reads, path).toEqual([]);
    }
    await context.close();
  });

  it('a warm visit fetches no script again and shows fresh data, not a copy from the first visit', async () => {
    const { context, page } = await memberOnPhone('Wren Warm');
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.waitForLoadState('networkidle');
    // Changed after the first visit: the second must show the change.
    const changed = await page.request.patch('/api/settings', {
      data: { notifyMatch: false },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(changed.ok()).toBe(true);

    // Another tab, same browser: every script comes from the cache; the page's data from the server.
    const again = await context.newPage();
    const cdp = await context.newCDPSession(again);
    await cdp.send('Network.enable');
    const fromCache = new Set<string>();
    cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
    const scripts: { url: string; cached: boolean }[] = [];
    let documentCached: boolean | undefined;
    cdp.on('Network.responseReceived', (e) => {
      const cached = Boolean(e.response.fromDiskCache || fromCache.has(e.requestId));
      if (e.type === 'Script') scripts.push({ url: e.response.url, cached });
      if (e.type === 'Document') documentCached = cached;
    });
    const res = await again.goto('/settings');
    expect(await res?.text()).toContain('"notifyMatch":false');
    await again.goto('/settings');
    await again.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await again.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.filter((s) => !s.cached)).toEqual([]);
    expect(documentCached).toBe(false);
    await expect.poll(() => again.locator('#notify-match').getAttribute('aria-checked')).toBe('false');
    await context.close();
  });

  it("a member page comes rendered by the server from the member's own data: it shows before any script runs, then the app takes it over as it is", async () => {
    const m = await e2e.createMember('Sora Served');
    const other = await e2e.createMember('Tove Other');
    await e2e.completeProfile(m.email);
    await e2e.completeProfile(other.email);
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    // The renderer loads when the first member is about (not at start-up): the first pages may come without it.
    await expect
      .poll(async () => (await page.request.get('/home')).text(), { timeout: 20_000 })
      .toMatch(/<div id="root" data-ssr="\d+" data-waiting-for-app>/);

    // No script at all: the page is there, with the member's own content.
    const bare = await context.browser()?.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    if (!bare) throw new Error('no browser');
    await bare.addCookies(await context.cookies());
    const still = await bare.newPage();
    await still.goto(`${new URL(page.url()).origin}/profile`);
    await still.getByText('Your profile as others see it').first().waitFor();
    expect(await still.locator('main').innerText()).toContain('Sora Served');
    await bare.close();

    // With scripts: hydrated as sent (React says nothing), taken over by the app, and it answers.
    const warnings: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text());
    });
    for (const path of ['/home', '/mixers', '/messages', '/matches', '/profile', '/settings']) {
      const res = await page.goto(path);
      expect(await res?.text(), path).toContain('data-ssr');
      await page.waitForLoadState('networkidle');
      await expect.poll(() => page.locator('#root').getAttribute('data-waiting-for-app'), { message: path }).toBeNull();
    }
    expect(warnings.filter((w) => /rendered again|hydrat/i.test(w))).toEqual([]);
    await page.getByRole('link', { name: 'Mixers' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Mixers' }).waitFor();

    // Two members at once, each within their share of renders (SERVER_PAGES_PER_MEMBER, issue 32):
    // each page carries its own member, never another's.
    const otherContext = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(otherContext.page, other.email);
    const pages = await Promise.all(
      Array.from({ length: 4 }, (_, i) => (i % 2 ? otherContext.page : page).request.get(i % 4 < 2 ? '/profile' : '/home')),
    );
    for (const [i, res] of pages.entries()) {
      const html = await res.text();
      const [own, not] = i % 2 ? ['Tove Other', 'Sora Served'] : ['Sora Served', 'Tove Other'];
      expect(html).toContain(own);
      expect(html).not.toContain(not);
    }
    await otherContext.context.close();
    await context.close();
  });
});
