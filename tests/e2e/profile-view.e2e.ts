import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { axeViolations } from './a11y';
import { demoEmail, type E2E, startE2E, viewportShot } from './harness';

/**
 * Opening another member's profile card (issues 6 and 7) with the embedded demo data: Arjun
 * and Nathan share the live Board Game Night, so Arjun may open Nathan's card from the
 * participant list; Nathan's Home "Profile views" counter moves live, once per day. Maya
 * opens a match's card from /matches and from the conversation header.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await e2e?.close();
});

const demo = demoEmail;
const MIXER = 'Board Game Night: Catan & Co.';
const NATHAN_BIO = 'Data scientist in Leeds who runs a monthly board game night';

async function openMixer(page: Page) {
  await page.goto('/mixers?tab=discover');
  await page.getByRole('link', { name: MIXER }).first().click();
  await page.getByRole('heading', { level: 1, name: MIXER }).waitFor();
}

const profileViews = (page: Page) => page.getByTestId('counter-profileViews');

async function waitForCounter(page: Page, value: string) {
  await page.waitForFunction((v) => document.querySelector('[data-testid="counter-profileViews"]')?.textContent?.trim() === v, value);
}

/** Every image in the open dialog has loaded, so screenshots show faces rather than blanks. */
async function imagesLoaded(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[role="dialog"] img')].every((img) => (img as HTMLImageElement).complete),
  );
}

describe('profile card', () => {
  it("Arjun opens Nathan's card from a mixer; Nathan's profile views go up once", async () => {
    const nathan = await e2e.newPage({ width: 1280, height: 800 });
    const arjun = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(nathan.page, demo('nathan-brooks'), DEMO_PASSWORD);
    await e2e.login(arjun.page, demo('arjun-patel'), DEMO_PASSWORD);

    // Nathan watches his Home counters: nobody has looked yet.
    await nathan.page.goto('/home');
    await waitForCounter(nathan.page, '0');

    // Arjun opens Nathan's card from the participant list.
    await openMixer(arjun.page);
    await arjun.page.getByRole('button', { name: "View Nathan's profile" }).click();
    const dialog = arjun.page.getByRole('dialog', { name: "Nathan's profile" });
    await dialog.waitFor();
    await dialog.getByRole('heading', { level: 2, name: /^Nathan, \d+$/ }).waitFor();
    await dialog.getByText(NATHAN_BIO).waitFor();
    for (const interest of ['Board games', 'Data science', 'Tabletop RPGs']) await dialog.getByText(interest, { exact: true }).waitFor();
    await dialog.getByText(/You were both in/).waitFor();
    expect(await dialog.getByRole('link', { name: MIXER }).count()).toBe(1);
    // First name only, and nothing of the date of birth.
    expect(await dialog.textContent()).not.toMatch(/Brooks|1998/);
    // Focus is trapped inside the dialog (Radix): it starts on the close button.
    await arjun.page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null, null, { timeout: 5000 });
    await imagesLoaded(arjun.page);
    await viewportShot(arjun.page, 'profile-card-dialog-1280');
    // The dialog (portalled outside #root); the page behind it has its own checks.
    const violations = await axeViolations(arjun.page, { exclude: ['#root'] });
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);

    // Nathan's counter moves without a reload.
    await waitForCounter(nathan.page, '1');

    // Escape closes it and returns focus to the participant button.
    await arjun.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await arjun.page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === "View Nathan's profile", null, {
      timeout: 5000,
    });

    // At 375 px the card is a full-height, scrollable sheet; opening it again the same day is not another view.
    await arjun.page.setViewportSize({ width: 375, height: 812 });
    await openMixer(arjun.page);
    await arjun.page.getByRole('tab', { name: /^People/ }).click();
    await arjun.page.getByRole('button', { name: "View Nathan's profile" }).click();
    await dialog.getByText(NATHAN_BIO).waitFor();
    await imagesLoaded(arjun.page);
    const box = await dialog.boundingBox();
    expect(box && Math.round(box.width)).toBe(375);
    expect(await arjun.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await viewportShot(arjun.page, 'profile-card-dialog-375');
    // The last prompt is reachable by scrolling inside the sheet.
    const lastPrompt = dialog.getByText('A cottage weekend with friends');
    await lastPrompt.scrollIntoViewIfNeeded();
    expect(await lastPrompt.isVisible()).toBe(true);
    await viewportShot(arjun.page, 'profile-card-dialog-375-scrolled');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });

    await nathan.page.reload();
    await waitForCounter(nathan.page, '1');
    expect(await profileViews(nathan.page).textContent()).toBe('1');

    // Arjun looking at his own card does not count for him.
    await arjun.page.getByRole('button', { name: 'View your profile' }).click();
    await arjun.page
      .getByRole('dialog', { name: 'Your profile card' })
      .getByRole('heading', { level: 2, name: /^Arjun/ })
      .waitFor();
    await arjun.page.keyboard.press('Escape');
    await arjun.page.goto('/home');
    await waitForCounter(arjun.page, '0');

    await nathan.context.close();
    await arjun.context.close();
  });

  it("Maya opens a match's card from /matches and from their conversation", async () => {
    const { context, page } = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(page, demo('maya-okafor'), DEMO_PASSWORD);

    await page.goto('/matches');
    await page.getByRole('heading', { level: 2, name: 'Rhys' }).waitFor();
    await page.getByRole('button', { name: "View Rhys's profile" }).click();
    const dialog = page.getByRole('dialog', { name: "Rhys's profile" });
    await dialog.getByRole('heading', { level: 2, name: /^Rhys, \d+$/ }).waitFor();
    // Matched: the conversation is one tap away, and unmatching still works from the card's menu.
    const message = dialog.getByRole('link', { name: 'Message Rhys' });
    await message.waitFor();
    await imagesLoaded(page);
    await viewportShot(page, 'profile-card-dialog-match-1280');
    await message.click();
    await page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    await dialog.waitFor({ state: 'detached' });

    // In the conversation the header opens the same card (without a link back to where you are).
    await page.getByRole('heading', { level: 1, name: /^Rhys/ }).getByRole('button').click();
    await dialog.getByRole('heading', { level: 2, name: /^Rhys, \d+$/ }).waitFor();
    expect(await dialog.getByRole('link', { name: 'Message Rhys' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A member she has never been in a mixer with keeps their profile to shared mixers: outside
    // the mixer he is counted but not listed, so nothing that cannot be opened looks openable.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/mixers?tab=discover');
    await page.getByRole('link', { name: 'Warehouse Techno Talk' }).first().click();
    await page.getByTestId('unlisted-note').waitFor();
    expect(await page.getByText(/Join to see everyone who's here\./).count()).toBe(1);
    expect(await page.getByRole('button', { name: "View Kieran's profile" }).count()).toBe(0);
    expect(await page.getByText(/Kieran|Salford/).count()).toBe(0);
    await viewportShot(page, 'mixer-unlisted-participants-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The match card's menu still offers unmatching next to the profile.
    await page.goto('/matches');
    await page.getByRole('button', { name: 'More options for Rhys' }).click();
    await page.getByRole('menuitem', { name: 'View profile' }).waitFor();
    await page.getByRole('menuitem', { name: 'Unmatch' }).waitFor();
    await page.keyboard.press('Escape');
    await context.close();
  });
});
