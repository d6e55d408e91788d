import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appReady, type E2E, startE2E } from './harness';

let e2e: E2E;
let email: string;
beforeAll(async () => {
  e2e = await startE2E();
  email = (await e2e.createMember('Sasha Green')).email;
  await e2e.completeProfile(email);
});
afterAll(async () => {
  await e2e?.close();
});

describe('app shell', () => {
  it('shows the navigation in the spec order with the active entry marked', async () => {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    await page.goto('/home');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const nav = sidebar.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    const labels = await nav.getByRole('link').allTextContents();
    expect(labels.map((l) => l.trim())).toEqual([
      'Home',
      'Blog: Modern Loveletters',
      'Mixers',
      'Matches',
      'Messages',
      'Profile',
      'Settings',
    ]);
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Mixers' }).getAttribute('aria-current')).toBeNull();
    await page.getByRole('heading', { name: /Sasha/ }).waitFor();
    await e2e.screenshot(page, 'home-desktop');
    await context.close();
  });

  it('Ctrl+B collapses the sidebar and the choice survives a reload', async () => {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    await page.keyboard.press('Control+b');
    await page.waitForFunction(() => document.querySelector('aside[aria-label="Sidebar"]')?.getAttribute('data-state') === 'collapsed');
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('false');
    await e2e.screenshot(page, 'home-collapsed-desktop');
    await page.reload();
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    await appReady(page);
    await page.keyboard.press('Control+b');
    await page.waitForFunction(() => document.querySelector('aside[aria-label="Sidebar"]')?.getAttribute('data-state') === 'expanded');
    await context.close();
  });

  it('at 375 px shows the top bar and the fixed bottom bar', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, email);
    const bottom = page.getByRole('navigation', { name: 'Quick' });
    await bottom.waitFor();
    expect(await bottom.getByRole('link').evaluateAll((links) => links.map((l) => l.textContent))).toEqual([
      'Home',
      'Mixers',
      'Matches',
      'Messages',
      'Blog: Modern Loveletters',
    ]);
    expect(await page.getByRole('complementary', { name: 'Sidebar' }).isVisible()).toBe(false);
    const box = await bottom.boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(812);
    await e2e.screenshot(page, 'home-375');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Settings' }).waitFor();
    await e2e.screenshot(page, 'menu-sheet-375');
    await context.close();
  });

  it('F8 moves focus to the notifications region', async () => {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    await page.keyboard.press('F8');
    const focused = await page.evaluate(
      () =>
        document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.closest('[aria-label]')?.getAttribute('aria-label'),
    );
    expect(focused).toMatch(/Notification/);
    await context.close();
  });

  it('keeps the dark theme across a reload without a flash of light', async () => {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    await page.getByRole('radio', { name: 'Dark' }).first().click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await e2e.screenshot(page, 'home-dark-desktop');
    // Before any bundle runs, the stored choice is already applied (by the theme script, a
    // hashed asset itself since decision 018: every other script is refused).
    await page.route(/\/assets\/(?!theme-init-)[^/]+\.js$/, (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await context.close();
  });

  it('the account menu lists the spec items', async () => {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    await page
      .getByRole('button', { name: /Account menu for Sasha Green/ })
      .first()
      .click();
    const items = await page.getByRole('menuitem').allTextContents();
    expect(items.map((i) => i.trim())).toEqual([
      'Profile',
      'Settings',
      'Contact Support',
      'Terms & Conditions',
      'Privacy Policy',
      'Log out',
    ]);
    await e2e.screenshot(page, 'account-menu-desktop');
    await context.close();
  });
});
