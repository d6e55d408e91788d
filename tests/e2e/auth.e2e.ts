import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_WORDS_PASSWORD } from '../../src/shared/schemas/auth';
import { E2E_PASSWORD, type E2E, startE2E, toast } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/**
 * The API reads the server refuses (401, 403) while the page is open. A visitor, or a member held
 * at a gate (the address to confirm, onboarding), sees the gate instead of the page, and the
 * page's data is not asked for: each refusal was an error in the browser's console.
 */
function refusedReads(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (pathname.startsWith('/api/') && (res.status() === 401 || res.status() === 403)) refused.push(`${res.status()} ${pathname}`);
  });
  return refused;
}

describe('accounts', () => {
  it('register → open the mail in the dev mailbox → verify → reach the onboarding gate', async () => {
    const { context, page } = await e2e.newPage();
    const refused = refusedReads(page);
    await page.goto('/auth/register?utm_source=poster&code=LDN1');
    await page.getByLabel('Full name').fill('Nia Patel');
    const email = `nia.${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    // A password built from the member's own name says so, and the rules stay in view beside it.
    await page.getByLabel('Password', { exact: true }).fill('NiaPatel2026!');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').filter({ hasText: OWN_WORDS_PASSWORD }).waitFor();
    expect(await page.getByRole('list', { name: 'Password rules' }).isVisible()).toBe(true);
    await e2e.screenshot(page, 'register-own-words-desktop');
    await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await e2e.screenshot(page, 'register-desktop');
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast(page, 'Check your email').waitFor();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    await e2e.screenshot(page, 'register-sent-desktop');

    await page.goto('/dev/mailbox');
    await page
      .getByRole('link', { name: /verify-email/ })
      .first()
      .click();
    // The link alone signs no one in: the password confirms the address (docs/decisions/006).
    await page.waitForURL(/\/auth\/login\?verify=/);
    await page.getByText('Log in with the password you chose to confirm your email address.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
    // On the device that signed up, the address is filled in and the password is next.
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await e2e.screenshot(page, 'verify-login-desktop');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home/);
    await page.getByRole('heading', { name: 'Hey there – ready to create your profile?' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    // Confirmed: the device no longer keeps the address.
    expect(await page.evaluate(() => localStorage.getItem('fancy-pending-email'))).toBeNull();
    await context.close();
  });

  it('a wrong password shows the login-failed toast; the right one logs in and out', async () => {
    const m = await e2e.createMember('Owen Hughes');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const failed = toast(page, 'Login failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await e2e.screenshot(page, 'login-failed-375');
    await context.close();
  });

  it('after sign-in the member returns to the page first asked for, and log out ends on /auth/login', async () => {
    const m = await e2e.createMember('Ruth Ellis');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage();
    const refused = refusedReads(page);
    await page.goto('/home?tab=1');
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').waitFor();
    expect(refused, 'a visitor to a member page').toEqual([]);
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password', { exact: true }).fill(m.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await toast(page, 'Welcome back!').waitFor();
    await page.waitForURL((u) => u.pathname === '/home' && u.search === '?tab=1');
    await page.reload();
    await page.waitForURL(/\/home/);
    await page
      .getByRole('button', { name: /Account menu/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    // Plain /auth/login: the next person to sign in on this browser is not sent to this page.
    await page.waitForURL((u) => u.pathname === '/auth/login' && u.search === '');
    await toast(page, 'Logged out').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.goto('/home');
    await page.waitForURL(/\/auth\/login/);
    await context.close();
  });

  it('an e-mail change link opened signed out asks for the account that asked, then changes the address', async () => {
    const m = await e2e.createMember('Wren Mover');
    await e2e.completeProfile(m.email);
    const asking = await e2e.newPage();
    await e2e.login(asking.page, m.email);
    await asking.page.goto('/settings');
    await asking.page.getByRole('button', { name: 'Change email' }).click();
    const newEmail = `wren.new.${Date.now()}@example.com`;
    await asking.page.getByLabel('New email address').fill(newEmail);
    await asking.page.locator('#email-password').fill(E2E_PASSWORD);
    await asking.page.getByRole('button', { name: 'Send confirmation link' }).click();
    await toast(asking.page, 'Check your new inbox').waitFor();
    await asking.context.close();

    // Another browser, signed out: the link alone changes nothing (docs/decisions/006).
    const { context, page } = await e2e.newPage();
    await page.goto(await e2e.lastLinkTo(newEmail));
    await page.waitForURL(/\/auth\/login\?change=/);
    await page.getByText('To move your account to this new email address, log in with your current address and password.').waitFor();
    await e2e.screenshot(page, 'change-email-login-desktop');
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/settings/);
    await toast(page, 'Email address updated').waitFor();
    await page.getByText(newEmail).first().waitFor();
    await context.close();
  });

  it('forgot password → reset → log in with the new password', async () => {
    const m = await e2e.createMember('Iris Moss');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage();
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The login page has an Email field too: fill the one on the reset page once it is there.
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.getByLabel('Email').fill(m.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.goto(await e2e.lastLinkTo(m.email, 'reset-password'));
    await page.waitForURL(/\/auth\/reset-password\?token=/);
    await page.getByLabel('New password', { exact: true }).fill('a-fresh-secret-42');
    await page.getByLabel('Confirm new password').fill('a-fresh-secret-42');
    await e2e.screenshot(page, 'reset-password-desktop');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL(/\/auth\/login/);
    await e2e.login(page, m.email, 'a-fresh-secret-42');
    expect(new URL(page.url()).pathname).toBe('/home');
    await context.close();
  });

  it('a member who has not verified sees the verification screen', async () => {
    const email = `unverified.${Date.now()}@example.com`;
    await fetch(`${e2e.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
      body: JSON.stringify({ fullName: 'Una Verified', email, password: E2E_PASSWORD }),
    });
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    const refused = refusedReads(page);
    await e2e.login(page, email);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByRole('button', { name: 'Resend verification email' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(await page.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact-support');
    await e2e.screenshot(page, 'verify-gate-375');
    await context.close();
  });

  it('a non-admin visiting /admin ends on /home', async () => {
    const m = await e2e.createMember('Pat Member');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    const refused = refusedReads(page);
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/home');
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await context.close();
  });
});
