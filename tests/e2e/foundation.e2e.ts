import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('foundation journeys', () => {
  it('/ shows the landing page', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toMatch(/talking about what you love/);
    expect(await page.getByRole('link', { name: 'Create your free account' }).getAttribute('href')).toBe('/auth/register');
    await e2e.screenshot(page, 'landing-desktop');
    await context.close();
  });

  it('an unknown path shows the not-found page', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    const res = await page.goto('/no/such/page');
    // A real 404 (issue 20): crawlers and scanners must not read unknown paths as pages.
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
    expect(await page.title()).toBe('Page not found · Fancy');
    await e2e.screenshot(page, 'not-found-375');
    await context.close();
  });

  it('/home signed out ends on /auth/login', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/home');
    await page.waitForURL(/\/auth\/login/);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });
});
