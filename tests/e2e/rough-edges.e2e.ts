import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directMessages, matches, mixerMemberships, mixerMessages, mixers, profiles, user } from '../../src/server/db/schema';
import { totpCode } from '../helpers/profile-fixtures';
import { appReady, type E2E, E2E_PASSWORD, startE2E } from './harness';
import { ADMIN_LINKS } from '../../src/client/features/admin/admin-links';

/**
 * Issue 17's member-facing rough edges (decision 024): participant rows that open only when the
 * card does, focus back on the opener of every kind of dialog, each sign-in toast once, and the
 * admin links in the sidebar within a 1280×800 screen.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  mkdirSync('/tmp/shots/c', { recursive: true });
});
afterAll(async () => {
  await e2e?.close();
});

async function member(name: string, opts: { visibility?: 'all'; admin?: boolean } = {}) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  if (opts.visibility)
    await e2e.db
      .update(profiles)
      .set({ preferences: { profileVisibility: opts.visibility } })
      .where(eq(profiles.id, id));
  if (opts.admin) await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, id));
  return { ...m, id };
}

async function liveMixer(title: string, memberIds: string[]) {
  const startsAt = new Date(Date.now() - 10 * 60_000);
  const [row] = await e2e.db
    .insert(mixers)
    .values({ title, topic: 'Board games', status: 'live', startsAt, endsAt: new Date(startsAt.getTime() + 90 * 60_000) })
    .returning({ id: mixers.id });
  await e2e.db.insert(mixerMemberships).values(memberIds.map((userId) => ({ mixerId: row.id, userId, state: 'joined' })));
  return row.id;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots/c/${name}.png` });
  await e2e.screenshot(page, name);
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? null;
  });

/** Runs `then` with the dark theme on (as the theme switch stores it), then back to light. */
async function dark(page: Page, then: () => Promise<void>) {
  await page.evaluate(() => {
    localStorage.setItem('fancy-theme', 'dark');
    document.documentElement.classList.add('dark');
  });
  await page.waitForTimeout(150);
  await then();
  await page.evaluate(() => {
    localStorage.setItem('fancy-theme', 'light');
    document.documentElement.classList.remove('dark');
  });
}

/** Focus comes back once the dialog has gone (Radix restores it a moment after closing). */
async function focusBackOn(page: Page, label: string) {
  await page
    .waitForFunction(
      (want) => {
        const el = document.activeElement as HTMLElement | null;
        return (el?.getAttribute('aria-label') ?? el?.textContent?.trim()) === want;
      },
      label,
      { timeout: 5000 },
    )
    .catch(async () => expect(await focusedLabel(page), 'focus after closing').toBe(label));
}

/** Presses Tab until the element with this accessible label or text has the focus (a keyboard user's way there). */
async function tabTo(page: Page, label: string) {
  // Keys reach the app's handlers once it has taken a server-rendered page over.
  await appReady(page);
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if ((await focusedLabel(page)) === label) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

describe('participant rows', () => {
  it('in a mixer I have not joined, a row opens only when its card does: a button with a focus ring, else plain text', async () => {
    const viewer = await member('Vera Viewer');
    const open = await member('Olly Open', { visibility: 'all' });
    const closed = await member('Cleo Closed', { visibility: 'all' });
    // Listed (profile shown to all) but no card to open: their profile is not complete any more.
    await e2e.db.update(profiles).set({ onboardingCompleted: false }).where(eq(profiles.id, closed.id));
    const mixerId = await liveMixer('Open Table Games', [open.id, closed.id]);

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      const { context, page } = await e2e.newPage(viewport);
      await e2e.login(page, viewer.email);
      await page.goto(`/mixers/${mixerId}`);
      const rows = page.getByTestId('participant');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      const olly = rows.filter({ hasText: 'Olly' });
      const cleo = rows.filter({ hasText: 'Cleo' });
      expect(await olly.getByRole('button', { name: "View Olly's profile" }).count()).toBe(1);
      expect(await cleo.getByRole('button').count()).toBe(0);
      expect(await cleo.getAttribute('data-openable')).toBe('false');
      expect(await cleo.evaluate((li) => getComputedStyle(li.querySelector('div') as Element).cursor)).not.toBe('pointer');
      expect(await olly.getByRole('button').evaluate((b) => getComputedStyle(b).cursor)).toBe('pointer');

      // Keyboard: the openable row is reached with Tab and shows its focus ring; Enter opens the card.
      await tabTo(page, "View Olly's profile");
      const button = olly.getByRole('button');
      expect(await button.evaluate((b) => getComputedStyle(b).outlineStyle)).not.toBe('none');
      // Scrolled into view clear of the phone's top and bottom bars, not under them.
      const clear = await button.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(hit && (hit === b || b.contains(hit)));
      });
      expect(clear).toBe(true);
      await shot(page, `participants-not-joined-${viewport.width}`);
      await dark(page, () => shot(page, `participants-not-joined-${viewport.width}-dark`));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: "Olly's profile" });
      await dialog.getByRole('heading', { level: 2, name: /^Olly, \d+$/ }).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await focusBackOn(page, "View Olly's profile");
      await context.close();
    }
  });
});

describe('focus goes back to the opener', () => {
  it('profile card, a menu’s report dialog, a settings confirmation and an admin dialog: Enter opens, Escape closes, focus is back', async () => {
    const me = await member('Kit Keyboard', { admin: true });
    const other = await member('Rory Row');
    const mixerId = await liveMixer('Keyboard Club', [me.id, other.id]);
    const { context, page } = await e2e.newPage();
    await e2e.login(page, me.email);

    await page.goto(`/mixers/${mixerId}`);
    await page.getByTestId('participant').first().waitFor();
    await tabTo(page, "View Rory's profile");
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: "Rory's profile" })
      .getByRole('heading', { level: 2, name: /^Rory,/ })
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusBackOn(page, "View Rory's profile");

    // Chosen from the ⋯ menu: the menu item is gone by then; focus returns to the menu's button.
    await tabTo(page, 'More options for Rory');
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Report Rory' }).waitFor();
    // Opened with the keyboard, the menu focuses its first item (Report).
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Report Rory');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Report Rory' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusBackOn(page, 'More options for Rory');

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete account' }).waitFor();
    await tabTo(page, 'Delete account');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: 'Delete your account?' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await focusBackOn(page, 'Delete account');

    await page.goto('/admin/campaigns');
    await page.getByRole('button', { name: 'New campaign' }).waitFor();
    await tabTo(page, 'New campaign');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New campaign' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusBackOn(page, 'New campaign');
    await context.close();
  });
});

/** Every toast the page shows, by its id (a toast re-rendered by another toaster is the same toast). */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen = new Map<string, string>();
    (window as unknown as { __toasts: Map<string, string> }).__toasts = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-toast-id]')) seen.set(el.getAttribute('data-toast-id') ?? '', el.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return async (title: string) => {
    const all = await page.evaluate(() => [...(window as unknown as { __toasts: Map<string, string> }).__toasts.values()]);
    return all.filter((text) => text.startsWith(title)).length;
  };
}

async function submitLogin(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('sign-in toasts', () => {
  it('each shows once: a failed sign-in, a password sign-in and a two-step sign-in', async () => {
    const m = await member('Tilly Toast');

    const first = await e2e.newPage();
    const count = await recordToasts(first.page);
    await submitLogin(first.page, m.email, 'not-the-password-1');
    await first.page.locator('[data-toast-id]', { hasText: 'Login failed' }).first().waitFor();
    await submitLogin(first.page, m.email, E2E_PASSWORD);
    await first.page.waitForURL((u) => u.pathname === '/home');
    await first.page.locator('[data-toast-id]', { hasText: 'Welcome back!' }).first().waitFor();
    await first.page.waitForTimeout(1000);
    // The failed attempt's count was lost with the page change; the welcome toast's is here.
    expect(await count('Welcome back!')).toBe(1);
    expect(await count('Login failed')).toBe(0);

    // Two-step verification on, through the API of the signed-in browser.
    const headers = { origin: e2e.baseUrl };
    const start = await first.page.request.post('/api/me/two-factor/enable', { data: { password: E2E_PASSWORD }, headers });
    expect(start.status()).toBe(200);
    const secret = (await start.json()).secret as string;
    const on = await first.page.request.post('/api/me/two-factor/verify', { data: { code: totpCode(secret) }, headers });
    expect(on.status()).toBe(200);
    await first.context.close();

    const second = await e2e.newPage({ width: 375, height: 812 });
    const count2 = await recordToasts(second.page);
    await submitLogin(second.page, m.email, 'still-not-the-password');
    await second.page.locator('[data-toast-id]', { hasText: 'Login failed' }).first().waitFor();
    await second.page.waitForTimeout(500);
    expect(await count2('Login failed')).toBe(1);
    await second.page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await second.page.getByRole('button', { name: 'Log in' }).click();
    await second.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    // The password step alone says nothing yet.
    expect(await count2('Welcome back!')).toBe(0);
    await second.page.getByLabel('Authentication code').fill(totpCode(secret));
    await second.page.getByRole('button', { name: 'Verify and log in' }).click();
    await second.page.waitForURL((u) => u.pathname === '/home');
    await second.page.locator('[data-toast-id]', { hasText: 'Welcome back!' }).first().waitFor();
    await second.page.waitForTimeout(1000);
    expect(await count2('Welcome back!')).toBe(1);
    expect(await count2('Login failed')).toBe(1);
    await second.context.close();
  });
});

describe('admin sidebar', () => {
  it('every admin link is on screen at 1280×800 (no scrolling), expanded and collapsed; the phone menu has them too', async () => {
    const admin = await member('Ada Sidebar', { admin: true });
    const { context, page } = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(page, admin.email);
    const nav = page.getByTestId('admin-nav');
    /** Each admin link's middle is the link itself (not hidden below the fold or under the footer). */
    const onScreen = () =>
      nav.evaluate((list) =>
        [...list.querySelectorAll('a')].map((a) => {
          const r = a.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { link: a.textContent, visible: r.bottom <= window.innerHeight && Boolean(hit && a.contains(hit)) };
        }),
      );
    for (const path of ['/home', '/admin/metrics']) {
      await page.goto(path);
      await nav.waitFor();
      // Measured once the app has the page (its layout as the app has it).
      await appReady(page);
      const links = await onScreen();
      expect(links).toHaveLength(ADMIN_LINKS.length);
      expect(links.filter((l) => !l.visible)).toEqual([]);
    }
    await shot(page, 'admin-sidebar-1280x800');
    await dark(page, () => shot(page, 'admin-sidebar-1280x800-dark'));
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.locator('aside[data-state="collapsed"]').waitFor();
    const collapsed = await onScreen();
    expect(collapsed.filter((l) => !l.visible)).toEqual([]);
    await shot(page, 'admin-sidebar-collapsed-1280x800');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await context.close();

    const phone = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(phone.page, admin.email);
    await phone.page.goto('/admin/metrics');
    await phone.page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = phone.page.getByRole('dialog', { name: 'Menu' });
    await sheet.getByTestId('admin-nav').waitFor();
    expect(await sheet.getByTestId('admin-nav').getByRole('link').count()).toBe(ADMIN_LINKS.length);
    await phone.page.waitForTimeout(300);
    await shot(phone.page, 'admin-menu-375');
    await phone.context.close();
  });
});

describe('a word longer than any box', () => {
  it('wraps inside its box wherever members read it: a bio, a profile card, mixer lines and private lines, sent and received', async () => {
    const ada = await member('Ada Longword', { visibility: 'all' });
    const bo = await member('Bo Reader', { visibility: 'all' });
    const word = 'x'.repeat(400);
    await e2e.db
      .update(profiles)
      .set({ bio: `Hello ${'y'.repeat(300)} there` })
      .where(eq(profiles.id, ada.id));
    const mixerId = await liveMixer('Long words', [ada.id, bo.id]);
    const now = Date.now();
    await e2e.db.insert(mixerMessages).values([
      { mixerId, senderId: ada.id, body: word, createdAt: new Date(now - 60_000) },
      { mixerId, senderId: bo.id, body: `A reply ${word}`, createdAt: new Date(now - 30_000) },
    ]);
    const [p1, p2] = ada.id < bo.id ? [ada.id, bo.id] : [bo.id, ada.id];
    const [match] = await e2e.db.insert(matches).values({ profile1Id: p1, profile2Id: p2, mixerId }).returning({ id: matches.id });
    await e2e.db.insert(directMessages).values([
      { matchId: match.id, senderId: ada.id, recipientId: bo.id, body: word, createdAt: new Date(now - 20_000) },
      { matchId: match.id, senderId: bo.id, recipientId: ada.id, body: `Yes ${word}`, createdAt: new Date(now - 10_000) },
    ]);

    /** Every element showing one of the long words lies inside the window, and the page does not scroll sideways. */
    const allInside = (page: Page) =>
      page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const wide = document.documentElement.scrollWidth > width ? [`page ${document.documentElement.scrollWidth} > ${width}`] : [];
        for (const el of document.querySelectorAll<HTMLElement>('main *, [role="dialog"] *')) {
          const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /x{50}|y{50}/.test(n.textContent ?? ''));
          if (!own) continue;
          const box = el.getBoundingClientRect();
          if (box.width > 0 && (box.left < -1 || box.right > width + 1))
            wide.push(`${el.tagName} ${Math.round(box.left)}–${Math.round(box.right)}`);
        }
        return wide;
      });

    for (const width of [375, 1280]) {
      const { context, page } = await e2e.newPage({ width, height: width === 375 ? 812 : 800 });
      await e2e.login(page, bo.email);
      await page.goto(`${e2e.baseUrl}/mixers/${mixerId}`);
      await appReady(page);
      await page.getByText(word).first().waitFor();
      expect(await allInside(page)).toEqual([]);
      await shot(page, `long-word-room-${width}`);

      await page.goto(`${e2e.baseUrl}/messages/${match.id}`);
      await appReady(page);
      await page.getByText(`Yes ${word}`).waitFor();
      expect(await allInside(page)).toEqual([]);
      await shot(page, `long-word-messages-${width}`);
      await context.close();

      const own = await e2e.newPage({ width, height: width === 375 ? 812 : 800 });
      await e2e.login(own.page, ada.email);
      await own.page.goto(`${e2e.baseUrl}/profile`);
      await appReady(own.page);
      await own.page
        .getByText(/Hello y{50}/)
        .first()
        .waitFor();
      expect(await allInside(own.page)).toEqual([]);
      await shot(own.page, `long-word-profile-${width}`);
      await own.context.close();
    }
  });
});
