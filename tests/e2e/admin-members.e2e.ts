import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberVerifications, moderationActions, reports, user } from '../../src/server/db/schema';
import { checkA11y } from './a11y';
import { type E2E, startE2E } from './harness';

/** Issue 32: an admin finds a member, opens their page and sees the identity change, in both themes and widths. */
let e2e: E2E;
let adminState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
let adminEmail = '';
let memberId = '';

const SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '375', width: 375, height: 812 },
] as const;

beforeAll(async () => {
  e2e = await startE2E();
  const a = await e2e.createMember('Ada Admin');
  const adminId = await e2e.completeProfile(a.email);
  await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, adminId));
  adminEmail = a.email;

  // A member who changes her gender identity once, from her own browser.
  const m = await e2e.createMember('Philippa Marchbanks-Oyelaran');
  memberId = await e2e.completeProfile(m.email);
  const { context, page } = await e2e.newPage();
  await e2e.login(page, m.email);
  const changed = await page.request.patch('/api/me/profile', {
    data: { genderIdentities: ['Non-binary'] },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  await context.close();

  // A verified badge, a report and an action on her, so every section has a row.
  await e2e.db
    .insert(memberVerifications)
    .values({ userId: memberId, status: 'verified', method: 'selfie', modelVersion: 'face-2026.1', verifiedAt: new Date() });
  const reporter = await e2e.createMember('Rita Reporter');
  const reporterId = await e2e.completeProfile(reporter.email);
  const [r] = await e2e.db
    .insert(reports)
    .values({ reporterId, reportedId: memberId, reason: 'Harassment', details: 'Kept messaging after I said no.' })
    .returning({ id: reports.id });
  await e2e.db.insert(moderationActions).values({
    memberId,
    reportId: r.id,
    action: 'mute',
    rule: 'hate',
    days: 7,
    endsAt: new Date(Date.now() + 7 * 86_400_000),
    actorId: adminId,
  });
});
afterAll(async () => {
  await e2e?.close();
});

async function adminPage(size: { width: number; height: number }, theme: 'light' | 'dark') {
  if (!adminState) {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, adminEmail);
    adminState = await context.storageState();
    await context.close();
  }
  const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: size, storageState: adminState });
  await context.addInitScript((t) => localStorage.setItem('fancy-theme', t), theme);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`page error on ${page.url()}: ${err.message}`));
  return { context, page };
}

async function expectNoHorizontalScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll, `page is ${scroll}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

describe('admin member page', () => {
  it('an admin searches, opens the member and sees the identity change', async () => {
    const { context, page } = await adminPage(SIZES[0], 'light');
    await page.goto('/admin');
    await page.getByTestId('admin-nav').getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(/\/admin\/members$/);
    // Nine admin links still fit in the sidebar at 1280×800, the last one included, without scrolling.
    const fits = await page.evaluate(() => {
      const nav = document.querySelector('aside nav[aria-label="Main"]');
      const last = [...(nav?.querySelectorAll('[data-testid="admin-nav"] a') ?? [])].at(-1);
      return nav && last ? last.getBoundingClientRect().bottom <= nav.getBoundingClientRect().bottom && nav.scrollTop === 0 : false;
    });
    expect(fits).toBe(true);
    await page.getByText('Search for a member').waitFor();
    const box = page.getByLabel('Name or e-mail');
    await box.fill('zzzz-nobody');
    await page.getByText('No members found').waitFor();
    await box.fill('MARCHBANKS');
    const link = page.getByRole('link', { name: 'Philippa Marchbanks-Oyelaran' });
    await link.waitFor();
    await checkA11y(page);
    await e2e.screenshot(page, 'admin-members-search-1280-light');
    await link.click();
    await page.waitForURL(new RegExp(`/admin/members/${memberId}$`));
    const changes = page.locator('#section-identity-changes');
    await changes.getByText('Gender identity', { exact: true }).waitFor();
    expect(await changes.textContent()).toContain('Woman');
    expect(await changes.textContent()).toContain('Non-binary');
    expect(await page.getByText('model face-2026.1', { exact: false }).count()).toBe(1);
    await page.getByText('Muted in mixers', { exact: false }).first().waitFor();
    await checkA11y(page);
    await e2e.screenshot(page, 'admin-member-1280-light');
    // Back keeps the search.
    await page.goBack();
    await page.getByRole('link', { name: 'Philippa Marchbanks-Oyelaran' }).waitFor();
    await context.close();
  });

  it('an unknown member says so', async () => {
    const { context, page } = await adminPage(SIZES[0], 'light');
    await page.goto('/admin/members/no-such-member');
    await page.getByRole('heading', { name: "We couldn't find that member" }).waitFor();
    await context.close();
  });

  for (const size of SIZES) {
    for (const theme of ['light', 'dark'] as const) {
      it(`reads well at ${size.name} px, ${theme}`, async () => {
        const { context, page } = await adminPage(size, theme);
        await page.goto('/admin/members?q=philippa');
        await page.getByRole('link', { name: 'Philippa Marchbanks-Oyelaran' }).waitFor();
        await expectNoHorizontalScroll(page);
        await e2e.screenshot(page, `admin-members-search-${size.name}-${theme}`);
        await page.goto(`/admin/members/${memberId}`);
        await page.locator('#section-identity-changes').getByText('Gender identity', { exact: true }).waitFor();
        await expectNoHorizontalScroll(page);
        await e2e.screenshot(page, `admin-member-${size.name}-${theme}`);
        await context.close();
      });
    }
  }
});
