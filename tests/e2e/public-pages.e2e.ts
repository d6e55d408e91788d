import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y } from './a11y';
import { type E2E, startE2E } from './harness';

const SUPPORT = 'support-desk@fancy.example';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SUPPORT_EMAIL: SUPPORT });
});
afterAll(async () => {
  await e2e?.close();
});

/** A signed-in browser state, made once (one login) and reused by every signed-in check. */
let memberState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

async function signIn(context: BrowserContext, page: Page, email: string) {
  // Past the onboarding gate: these tests are about the blog, not the wizard.
  await context.addInitScript(() => localStorage.setItem('onboarding_deferred', 'true'));
  await e2e.login(page, email);
}

async function signedInPage(size: { width: number; height: number }) {
  if (!memberState) {
    const reader = await e2e.createMember('Blog Reader');
    const { context, page } = await e2e.newPage();
    await signIn(context, page, reader.email);
    memberState = await context.storageState();
    await context.close();
  }
  const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: size, storageState: memberState });
  await context.addInitScript(() => localStorage.setItem('onboarding_deferred', 'true'));
  return { context, page: await context.newPage() };
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

describe('legal pages', () => {
  it('/terms and /privacy render their Markdown with contents, and internal links navigate in the app', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/terms');
    await heading(page, 'Terms & Conditions');
    expect(await page.getByText('Last updated 28 November 2026').count()).toBe(1);
    const article = page.locator('.prose-fancy');
    expect(await article.locator('h2').count()).toBeGreaterThan(10);
    expect(await article.locator('h2').first().textContent()).toBe('1. Who we are and how to contact us');
    // The table of contents jumps to a section.
    await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: '14. Governing law' }).click();
    await page.waitForURL(/#14-governing-law/);
    // A Markdown link to another app page is a client-side navigation (no reload).
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'still here';
    });
    await article.getByRole('link', { name: 'Privacy Policy' }).first().click();
    await heading(page, 'Privacy Policy');
    expect(new URL(page.url()).pathname).toBe('/privacy');
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
    await context.close();
  });
});

describe('contact support', () => {
  it('shows field errors, sends a valid message to the support mailbox and confirms with a toast', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/contact-support');
    await heading(page, 'Contact Support');
    await page.getByRole('button', { name: 'Send message' }).click();
    for (const message of [
      'Please enter your name',
      'Please enter your email address',
      'Please choose what your message is about',
      'Please write your message',
    ]) {
      await page.getByText(message).waitFor();
    }
    expect(await page.getByLabel('Your name').getAttribute('aria-invalid')).toBe('true');
    await checkA11y(page);
    await e2e.screenshot(page, 'contact-support-errors-375');

    await page.getByLabel('Your name').fill('Nia Roberts');
    await page.getByLabel('Email for our reply').fill('nia@example.com');
    await page.getByLabel("What's it about?").selectOption('Safety or a member');
    await page.getByLabel('Your message').fill('Too short');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Please tell us a little more (at least 10 characters)').waitFor();
    await page.getByLabel('Your message').fill('Someone in the Board Game Night mixer keeps asking where I live.\n\nCan you take a look?');
    await page.getByRole('button', { name: 'Send message' }).click();

    await page.getByText('Message sent', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Thanks, your message is on its way' }).waitFor();
    await e2e.screenshot(page, 'contact-support-sent-375');
    const [mail] = await e2e.mailsTo(SUPPORT);
    expect(mail.subject).toBe('[Contact] Safety or a member — Nia Roberts');
    expect(mail.text).toContain('Reply to: nia@example.com');
    expect(mail.text).toContain('keeps asking where I live');
    await context.close();
  });

  it('can be filled in and sent with the keyboard alone', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/contact-support');
    await heading(page, 'Contact Support');
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');
    // The first Tab reaches the skip link, which moves focus to the page content.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('main');
    for (let i = 0; i < 10 && (await focused()) !== 'name'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('name');
    await page.keyboard.type('Keyboard User');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keys@example.com');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('topic');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('message');
    await page.keyboard.type('I only use a keyboard and wanted to say the site works well.');
    await page.keyboard.press('Tab'); // the Privacy Policy link
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Send message');
    await page.keyboard.press('Enter');
    await page.getByText('Message sent', { exact: true }).waitFor();
    const [mail] = await e2e.mailsTo(SUPPORT);
    expect(mail.subject).toBe('[Contact] Account & sign-in — Keyboard User');
    await context.close();
  });

  it('shows the server refusal in a failure toast and keeps what was typed', async () => {
    const { context, page } = await e2e.newPage();
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'rate_limited', message: "You've sent us several messages in the last hour." } }),
      }),
    );
    await page.goto('/contact-support?topic=Mixers');
    await heading(page, 'Contact Support');
    expect(await page.getByLabel("What's it about?").inputValue()).toBe('Mixers');
    await page.getByLabel('Your name').fill('Tom');
    await page.getByLabel('Email for our reply').fill('tom@example.com');
    await page.getByLabel('Your message').fill('Can I run my own mixer about chess?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message not sent', { exact: true }).waitFor();
    await page.getByText("You've sent us several messages in the last hour.", { exact: true }).waitFor();
    expect(await page.getByLabel('Your message').inputValue()).toBe('Can I run my own mixer about chess?');
    await context.close();
  });

  it('is prefilled with the name and address of a signed-in member', async () => {
    const member = await e2e.createMember('Ffion Evans');
    const { context, page } = await e2e.newPage();
    await signIn(context, page, member.email);
    await page.goto('/contact-support');
    await heading(page, 'Contact Support');
    await page.waitForFunction(() => (document.getElementById('email') as HTMLInputElement | null)?.value !== '');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Ffion Evans');
    expect(await page.getByLabel('Email for our reply').inputValue()).toBe(member.email);
    expect(await page.getByRole('link', { name: 'Go to your dashboard' }).count()).toBeGreaterThan(0);
    await context.close();
  });
});

const CAMPAIGN = { utm_source: 'poster', utm_medium: 'print', utm_campaign: 'freshers-2026', code: 'LDN42', label: 'Leeds Freshers Fair' };
const campaignQuery = new URLSearchParams(CAMPAIGN).toString();

describe('campaign pages', () => {
  it('campaign parameters survive /campaign → /auth/register and reach the registration request', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto(`/campaign?${campaignQuery}&unrelated=1`);
    await page.getByText('Welcome from Leeds Freshers Fair').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Join Fancy' }).first().click();
    await page.waitForURL(/\/auth\/register/);
    const params = new URL(page.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual(CAMPAIGN);

    await page.getByLabel('Full name').fill('Campaign Visitor');
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByLabel('Password', { exact: true }).fill('a-long-and-lovely-passphrase');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/auth/register') && r.method() === 'POST'),
      page.getByRole('button', { name: /create|join|sign up/i }).click(),
    ]);
    expect(request.postDataJSON().campaign).toEqual({
      utm_source: 'poster',
      utm_medium: 'print',
      utm_campaign: 'freshers-2026',
      campaign_code: 'LDN42',
      campaign_label: 'Leeds Freshers Fair',
    });
    await context.close();
  });

  it('/campaign/qr shows a QR code for the campaign link, the link as text, and downloads PNG and SVG', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto(`/campaign/qr?label=Leeds%20Freshers%20Fair&utm_source=poster&utm_medium=&code=LDN42`);
    await heading(page, 'Campaign QR code');
    const expected = `${e2e.baseUrl}/campaign?utm_source=poster&code=LDN42&label=Leeds+Freshers+Fair`;
    expect(await page.getByTestId('campaign-link').textContent()).toBe(expected);
    const qr = page.getByRole('img', { name: `QR code for ${expected}` });
    await qr.waitFor();
    expect((await qr.locator('path').getAttribute('d'))?.length).toBeGreaterThan(1000);

    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
    expect(svg.suggestedFilename()).toBe('fancy-campaign-ldn42.svg');
    const svgText = readFileSync((await svg.path()) as string, 'utf8');
    expect(svgText).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(svgText).toContain(`QR code for ${expected.replace(/&/g, '&amp;')}`);

    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
    expect(png.suggestedFilename()).toBe('fancy-campaign-ldn42.png');
    const bytes = readFileSync((await png.path()) as string);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.length).toBeGreaterThan(1000);

    // Editing the details rebuilds the link and the code.
    await page.getByLabel('Medium').fill('flyer');
    await page.getByRole('button', { name: 'Update QR code' }).click();
    await page.waitForURL(/utm_medium=flyer/);
    await page
      .getByTestId('campaign-link')
      .filter({ hasText: `${e2e.baseUrl}/campaign?utm_source=poster&utm_medium=flyer&code=LDN42&label=Leeds+Freshers+Fair` })
      .waitFor();

    // Print view: the code and the link, without the site's chrome or the form.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('banner').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Update QR code' }).isVisible()).toBe(false);
    expect(await page.getByTestId('campaign-qr').isVisible()).toBe(true);
    await e2e.screenshot(page, 'campaign-qr-print');
    await context.close();
  });
});

describe('status page', () => {
  it('shows server and database from /api/health (mail only to admins), and an unreachable server with a retry', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/status');
    await page.getByRole('heading', { name: 'All systems are working' }).waitFor();
    for (const row of ['server', 'database']) expect(await page.getByTestId(`status-${row}`).textContent()).toContain('Up');
    // How mail leaves is how the server is set up: the public is not told (issue 32).
    expect(await page.getByTestId('status-mail').count()).toBe(0);
    expect(await page.getByText(/Last checked at \d\d:\d\d:\d\d/).count()).toBe(1);

    // Database down: the health check answers 503 with db "down".
    await page.route('**/api/health', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'degraded', db: 'down' }),
      }),
    );
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('heading', { name: 'Some systems are having trouble' }).waitFor();
    expect(await page.getByTestId('status-server').textContent()).toContain('Up');
    expect(await page.getByTestId('status-database').textContent()).toContain('Down');

    // Server unreachable: everything down, and a retry.
    await page.unroute('**/api/health');
    await page.route('**/api/health', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('heading', { name: "We can't reach Fancy right now" }).waitFor();
    for (const row of ['server', 'database']) expect(await page.getByTestId(`status-${row}`).textContent()).toContain('Down');
    await checkA11y(page);
    await e2e.screenshot(page, 'status-down-375');

    await page.unroute('**/api/health');
    await page.getByRole('button', { name: 'Retry now' }).click();
    await page.getByRole('heading', { name: 'All systems are working' }).waitFor();
    await context.close();
  });
});

describe('Modern Loveletters', () => {
  it('is for members only', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/modern-love-letters');
    await page.waitForURL(/\/auth\/login/);
    await context.close();
  });

  it('lists the posts newest first and opens one; an unknown slug is a friendly not-found', async () => {
    const { context, page } = await signedInPage({ width: 375, height: 812 });
    await page.goto('/modern-love-letters');
    await heading(page, 'Modern Loveletters');
    const posts = page.getByRole('list', { name: 'Letters' }).getByRole('listitem');
    await posts.first().waitFor();
    expect(await posts.count()).toBe(6);
    const first = await posts.first().textContent();
    expect(first).toContain('Friends first');
    expect(first).toContain('13 November 2026');
    expect(first).toMatch(/\d+ min read/);
    expect(await posts.last().textContent()).toContain('14 August 2026');

    await page.getByRole('link', { name: /^From group chat to first date/ }).click();
    await page.waitForURL(/\/modern-love-letters\/from-group-chat-to-first-date$/);
    await heading(page, /From group chat to first date/);
    expect(await page.locator('article .prose-fancy h2').count()).toBeGreaterThan(2);
    expect(await page.locator('article').textContent()).toContain('9 October 2026');

    await page.getByRole('link', { name: 'All letters' }).first().click();
    await heading(page, 'Modern Loveletters');

    await page.goto('/modern-love-letters/no-such-letter');
    await heading(page, "We couldn't find that letter");
    await page.getByRole('link', { name: 'Back to Modern Loveletters' }).click();
    await page.waitForURL(/\/modern-love-letters$/);
    await context.close();
  });
});
