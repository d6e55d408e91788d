import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, reports, user } from '../../src/server/db/schema';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { demoEmail, type E2E, startE2E, toast } from './harness';

/**
 * The one set of safety dialogs (src/client/components/safety) from the two places that use it
 * with their own requests: a conversation (report offers to block too) and a mixer's people
 * (report without it; block). With $SHOTS_DIR set, a screenshot of each dialog.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await e2e?.close();
});

const MIXER = 'Board Game Night: Catan & Co.';

async function signedIn(width: number, theme: 'light' | 'dark') {
  const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: { width, height: width === 375 ? 812 : 800 } });
  await context.addInitScript((t) => localStorage.setItem('fancy-theme', t), theme);
  const page = await context.newPage();
  await e2e.login(page, demoEmail('maya-okafor'), DEMO_PASSWORD);
  return { context, page };
}

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`) });
}

const idOf = async (name: string) => (await e2e.db.select({ id: user.id }).from(user).where(eq(user.name, name)))[0].id;

describe('safety dialogs', () => {
  it('a report from a conversation needs a reason and offers to block too; unticked, it only reports', async () => {
    const { context, page } = await signedIn(1280, 'light');
    await page.goto('/messages');
    await page.getByRole('link', { name: /Rhys/ }).first().click();
    await page.getByRole('button', { name: 'Options for your conversation with Rhys' }).click();
    await page.getByRole('menuitem', { name: 'Report Rhys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report Rhys' });
    await dialog.waitFor();
    const alsoBlock = dialog.getByRole('checkbox', { name: /Also block Rhys/ });
    expect(await alsoBlock.isChecked()).toBe(true);

    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please choose a reason' }).waitFor();
    await shot(page, 'report-dialog-error-1280-light');

    await dialog.getByLabel('Fake profile').check();
    await dialog.getByLabel('Tell us what happened (optional)').fill('Photos are from a stock site.');
    await alsoBlock.uncheck();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(page, 'Thanks for telling us').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const [maya, rhys] = [await idOf('Maya Okafor'), await idOf('Rhys Llewellyn')];
    const sent = await e2e.db
      .select()
      .from(reports)
      .where(and(eq(reports.reporterId, maya), eq(reports.reportedId, rhys)));
    expect(sent.map((r) => [r.reason, r.details])).toEqual([['Fake profile', 'Photos are from a stock site.']]);
    expect(await e2e.db.select().from(blocks).where(eq(blocks.blockerId, maya))).toEqual([]);
    await context.close();
  });

  it("from a mixer's people: report without the block offer, and block after a confirmation", async () => {
    const { context, page } = await signedIn(375, 'dark');
    await page.goto('/mixers?tab=discover');
    await page.getByRole('link', { name: MIXER }).first().click();
    await page.getByRole('heading', { level: 1, name: MIXER }).waitFor();
    const peopleTab = page.getByRole('tab', { name: /People/ });
    if (await peopleTab.isVisible()) await peopleTab.click();

    await page.getByRole('button', { name: 'More options for Nathan' }).click();
    await page.getByRole('menuitem', { name: 'Report Nathan' }).click();
    const report = page.getByRole('dialog', { name: 'Report Nathan' });
    await report.getByLabel('Spam or scam').check();
    expect(await report.getByRole('checkbox').count()).toBe(0);
    await shot(page, 'report-dialog-375-dark');
    await report.getByRole('button', { name: 'Send report' }).click();
    await toast(page, 'Thanks for telling us').waitFor();

    await page.getByRole('button', { name: 'More options for Chloe' }).click();
    await page.getByRole('menuitem', { name: 'Block Chloe' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Block Chloe?' });
    await confirm.getByText('We won’t tell Chloe that you blocked them.').waitFor();
    await shot(page, 'block-dialog-375-dark');
    await confirm.getByRole('button', { name: 'Block Chloe' }).click();
    await toast(page, 'Chloe is blocked').waitFor();
    await page.getByRole('button', { name: 'More options for Chloe' }).waitFor({ state: 'detached' });

    const [maya, chloe, nathan] = [await idOf('Maya Okafor'), await idOf('Chloe Nguyen'), await idOf('Nathan Brooks')];
    expect((await e2e.db.select().from(blocks).where(eq(blocks.blockerId, maya))).map((b) => b.blockedId)).toEqual([chloe]);
    const sent = await e2e.db.select().from(reports).where(eq(reports.reportedId, nathan));
    expect(sent.map((r) => r.reason)).toEqual(['Spam or scam']);
    await context.close();
  });
});
