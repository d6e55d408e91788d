import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** The real build as `npm start` serves it (decision 015). */
describe('first load on a phone', () => {
  it('the build serves its scripts and styles brotli-compressed, identity to a client that accepts none', async () => {
    const html = await (await fetch(`${e2e.baseUrl}/home`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(1);
    let compressed = 0;
    for (const asset of assets) {
      const plain = await fetch(e2e.baseUrl + asset, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const body = await plain.text();
      const br = await fetch(e2e.baseUrl + asset, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // Files under 1 KiB are sent as they are; every other one brotli.
      expect(br.headers.get('content-encoding')).toBe(Buffer.byteLength(body) >= 1024 ? 'br' : null);
      if (Buffer.byteLength(body) >= 1024) compressed++;
      // fetch decodes brotli: both are the same file.
      expect(await br.text()).toBe(body);
    }
    expect(compressed).toBeGreaterThan(1);
  });

  it('the landing, sign-in and legal pages arrive with their content in the HTML, and the app takes over without moving it', async () => {
    for (const [url, text] of [
      ['/', 'talking about what you love'],
      ['/auth/login', 'Welcome back'],
      ['/auth/register', 'Create your account'],
      ['/terms', 'Terms &amp; Conditions'],
      ['/privacy', 'Privacy Policy'],
    ] as const) {
      const html = await (await fetch(e2e.baseUrl + url)).text();
      expect(html).toContain('data-prerendered');
      expect(html).toContain(text);
    }
    // Member pages are never prerendered.
    expect(await (await fetch(`${e2e.baseUrl}/home`)).text()).not.toContain('data-prerendered');

    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/auth/login');
    // The prerendered form is inert until the app renders over it; then it is the app's own form.
    await page.waitForFunction(() => document.querySelectorAll('[inert]').length === 0);
    expect(await page.locator('main').count()).toBe(1);
    await page.getByLabel('Email').fill('someone@example.com');
    expect(await page.getByLabel('Email').inputValue()).toBe('someone@example.com');
    expect(await page.title()).toBe('Log in · Fancy');
    await context.close();
  });
});
