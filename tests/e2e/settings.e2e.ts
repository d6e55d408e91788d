import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../src/server/db/schema';
import { totpCode } from '../helpers/profile-fixtures';
import { axeViolations, describeViolations } from './a11y';
import { type E2E, E2E_PASSWORD, startE2E, viewportShot, toast } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** Dialogs are fixed to the viewport: photograph the viewport, not the whole page. */

async function member(name: string) {
  const m = await e2e.createMember(name);
  await e2e.completeProfile(m.email);
  return m;
}

async function openSettings(page: Page) {
  await page.goto('/settings');
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('switch', { name: 'Show my city to others' }).waitFor();
  await laterSections(page);
}

/** Security and Your data render after the first paint, with their own code (decision 018). */
async function laterSections(page: Page) {
  await page.getByRole('heading', { name: 'Security', level: 2 }).waitFor();
  await page.getByRole('heading', { name: 'Your data', level: 2 }).waitFor();
}

/** No serious or critical axe findings on the page, the shell around it included. */
async function expectAccessible(page: Page) {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

describe('settings', () => {
  it('appearance: dark mode applies at once and is remembered; screenshots at desktop and 375 px', async () => {
    const m = await member('Dana Dark');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await openSettings(page);
    await e2e.screenshot(page, 'settings-desktop');
    await expectAccessible(page);

    const appearance = page.locator('#appearance');
    await appearance.getByRole('radio', { name: 'Dark' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('switch', { name: 'Show my city to others' }).waitFor();
    await laterSections(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await appearance.getByRole('radio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
    await e2e.screenshot(page, 'settings-desktop-dark');
    await expectAccessible(page);
    await appearance.getByRole('radio', { name: 'Light' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await context.close();

    const mobile = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(mobile.page, m.email);
    await openSettings(mobile.page);
    const overflow = await mobile.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await e2e.screenshot(mobile.page, 'settings-375');
    await mobile.context.close();
  });

  it('privacy and notification switches save, say so, and survive a reload', async () => {
    const m = await member('Pip Private');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await openSettings(page);
    const city = page.getByRole('switch', { name: 'Show my city to others' });
    expect(await city.getAttribute('aria-checked')).toBe('true');
    await city.click();
    await toast(page, 'Settings saved').waitFor();
    expect(await toast(page, 'Settings saved').textContent()).toContain('Your city is now hidden from other members.');
    await page.getByRole('switch', { name: 'New message' }).click();
    await toast(page, 'No more emails about new messages.').waitFor();
    await page.getByRole('radio', { name: 'All Fancy members' }).click();
    await toast(page, 'All Fancy members can now see your profile.').waitFor();

    await page.reload();
    await city.waitFor();
    expect(await city.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'New message' }).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'New match' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('radio', { name: 'All Fancy members' }).getAttribute('aria-checked')).toBe('true');
    await context.close();
  });

  it('downloads the data export as a dated JSON file', async () => {
    const m = await member('Dex Download');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await openSettings(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toBe(`fancy-data-${new Date().toISOString().slice(0, 10)}.json`);
    const data = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
    expect(data.user.email).toBe(m.email);
    expect(data.profiles.fullName).toBe('Dex Download');
    await toast(page, 'Your data is downloading').waitFor();
    await context.close();
  });

  it('the export asks for the password again when the sign-in is older than a few minutes; screenshots at desktop and 375 px', async () => {
    const m = await member('Rhea Reauth');
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      const { context, page } = await e2e.newPage(viewport);
      await e2e.login(page, m.email);
      await openSettings(page);
      const [row] = await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, m.email));
      await e2e.db
        .update(session)
        .set({ createdAt: new Date(Date.now() - 30 * 60_000) })
        .where(eq(session.userId, row.id));
      await page.getByRole('button', { name: 'Download my data' }).click();
      const dialog = page.getByRole('alertdialog', { name: "Confirm it's you" });
      await dialog.waitFor();
      // The password field has the focus; a wrong password is announced there and keeps the dialog open.
      await page.waitForFunction(() => document.activeElement?.id === 'export-password');
      await dialog.getByLabel('Password', { exact: true }).fill('not-my-password');
      await dialog.getByRole('button', { name: 'Download my data' }).click();
      await dialog.getByText('Your current password is not right').waitFor();
      await expectAccessible(page);
      await viewportShot(page, `settings-export-reauth-${viewport.width}`);
      await dialog.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download my data' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^fancy-data-/);
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await context.close();
    }
  });

  it('two-step verification: set up with the app, then logging in asks for a code (or a backup code)', async () => {
    const m = await member('Tess Twostep');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Set up two-step verification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up two-step verification' });
    await dialog.getByLabel('Your password', { exact: true }).fill(E2E_PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await viewportShot(page, 'settings-two-factor-qr-375');
    await dialog.getByText("Can't scan it? Enter a key instead").click();
    const secret = ((await dialog.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    await dialog.getByLabel('6-digit code').fill('000000' === totpCode(secret) ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await dialog.getByText("That code didn't work").waitFor();
    await dialog.getByLabel('6-digit code').fill(totpCode(secret));
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('dialog', { name: 'Save your backup codes' }).waitFor();
    const codes = await page.getByTestId('backup-code').allTextContents();
    expect(codes).toHaveLength(10);
    await viewportShot(page, 'settings-backup-codes-375');
    await page.getByRole('button', { name: "I've saved them" }).click();
    await page.getByText('On. Logging in asks for a code').waitFor();

    // A fresh browser: password, then the authenticator code.
    const other = await e2e.newPage();
    await other.page.goto('/auth/login');
    await other.page.getByLabel('Email').fill(m.email);
    await other.page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await other.page.getByRole('button', { name: 'Log in' }).click();
    await other.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await e2e.screenshot(other.page, 'login-two-factor-desktop');
    await other.page.getByLabel('Authentication code').fill(totpCode(secret));
    await other.page.getByRole('button', { name: 'Verify and log in' }).click();
    await other.page.waitForURL((u) => u.pathname === '/home');
    await toast(other.page, 'Welcome back!').waitFor();
    await other.context.close();

    // And with a backup code instead.
    const third = await e2e.newPage({ width: 375, height: 812 });
    await third.page.goto('/auth/login');
    await third.page.getByLabel('Email').fill(m.email);
    await third.page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await third.page.getByRole('button', { name: 'Log in' }).click();
    await third.page.getByRole('button', { name: 'Use a backup code' }).click();
    await third.page.getByLabel('Backup code').fill(codes[0]);
    await e2e.screenshot(third.page, 'login-backup-code-375');
    await third.page.getByRole('button', { name: 'Verify and log in' }).click();
    await third.page.waitForURL((u) => u.pathname === '/home');
    await third.context.close();

    // The devices list shows the three sign-ins; "sign out everywhere else" leaves one.
    await page.reload();
    const list = page.getByRole('list', { name: "Where you're signed in" });
    await list.getByText('This device').waitFor();
    expect(await list.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByRole('alertdialog', { name: 'Sign out everywhere else?' }).getByRole('button', { name: 'Sign out others' }).click();
    await toast(page, 'Signed out everywhere else').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-labelledby="sessions-title"] > li').length === 1);
    await context.close();
  });

  it('change password: wrong current password is shown on the field, the right one works', async () => {
    const m = await member('Cal Change');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByLabel('Current password', { exact: true }).fill('not-the-password');
    await page.getByLabel('New password', { exact: true }).fill('moonlit-harbour-walk');
    await page.getByLabel('Repeat new password', { exact: true }).fill('moonlit-harbour-walk');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your current password is not right').waitFor();
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('moonlit-harbour-walk');
    await page.getByLabel('Current password', { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed').waitFor();
    // Still signed in on this device.
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await context.close();
  });

  it('delete account: type DELETE, land on / and the account is gone', async () => {
    const m = await member('Del Eted');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await openSettings(page);
    const deleteButton = page.getByRole('button', { name: 'Delete account' });
    // Escape closes the dialog and gives focus back to the button that opened it.
    await deleteButton.click();
    await page.getByRole('alertdialog', { name: 'Delete your account?' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Delete account');

    await deleteButton.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    // Deleting needs the password again: a wrong one is announced and nothing is deleted.
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Your password', { exact: true }).fill('not-my-password');
    await confirm.click();
    await dialog.getByText('Your current password is not right').waitFor();
    await viewportShot(page, 'settings-delete-dialog-375');
    await dialog.getByLabel('Your password', { exact: true }).fill(E2E_PASSWORD);
    await confirm.click();
    await toast(page, 'Account deleted').waitFor();
    expect(await toast(page, 'Account deleted').textContent()).toContain('Your account and all data have been permanently deleted.');
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await toast(page, 'Login failed').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });
});
