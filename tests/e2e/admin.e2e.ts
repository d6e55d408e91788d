import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaigns,
  dailyActivity,
  interestSuggestions,
  matches,
  mixerMemberships,
  mixerMessages,
  mixers,
  profiles,
  user,
} from '../../src/server/db/schema';
import { checkA11y } from './a11y';
import { type E2E, startE2E, toast } from './harness';
import { ADMIN_LINKS } from '../../src/client/features/admin/admin-links';

let e2e: E2E;
let admin: { email: string; id: string };
/** One signed-in admin browser state, reused by every admin page. */
let adminState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '375', width: 375, height: 812 },
] as const;

beforeAll(async () => {
  e2e = await startE2E();
  const a = await e2e.createMember('Ada Admin');
  const id = await e2e.completeProfile(a.email);
  await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, id));
  admin = { email: a.email, id };
  await seedHistory();
});
afterAll(async () => {
  await e2e?.close();
});

/** Some history (sign-ups from campaigns, activity, matches) so the charts have something to draw. */
async function seedHistory() {
  const sources = ['poster', 'instagram', 'tiktok', '', 'partner'];
  const now = Date.now();
  for (let i = 0; i < 36; i++) {
    const id = `hist-${String(i).padStart(2, '0')}`;
    const createdAt = new Date(now - ((i * 7) % 29) * DAY - (i % 5) * HOUR - DAY / 2);
    const source = sources[i % sources.length];
    await e2e.db.insert(user).values({
      id,
      name: `History ${i}`,
      email: `${id}@example.com`,
      emailVerified: i % 6 !== 0,
      createdAt,
      utmSource: source,
      utmCampaign: source ? 'spring' : '',
      campaignCode: source === 'poster' ? 'LEEDS-POSTER' : '',
    });
    const step = i % 11;
    await e2e.db.insert(profiles).values({ id, fullName: `History ${i}`, onboardingStep: step, onboardingCompleted: step >= 9 });
    for (let d = 0; d < (i % 4) + 1; d++) {
      const day = new Date(now - ((i + d * 3) % 28) * DAY).toISOString().slice(0, 10);
      await e2e.db.insert(dailyActivity).values({ userId: id, day }).onConflictDoNothing();
    }
  }
  for (let i = 0; i < 10; i++) {
    const a = `hist-${String(i).padStart(2, '0')}`;
    const b = `hist-${String(i + 10).padStart(2, '0')}`;
    await e2e.db.insert(matches).values({ profile1Id: a, profile2Id: b, createdAt: new Date(now - ((i * 5) % 27) * DAY) });
  }
  await e2e.db
    .insert(campaigns)
    .values({ label: 'Leeds posters', code: 'LEEDS-POSTER', source: 'poster', medium: 'print', campaign: 'spring' });
}

const a11y = (page: Page) => checkA11y(page);

async function adminPage(size: { width: number; height: number } = SIZES[0]) {
  if (!adminState) {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, admin.email);
    adminState = await context.storageState();
    await context.close();
  }
  const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: size, storageState: adminState });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`page error on ${page.url()}: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 500 || (res.status() === 404 && res.url().includes('/assets/'))) console.error(`HTTP ${res.status()} ${res.url()}`);
  });
  return { context, page };
}

async function expectNoHorizontalScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll, `page is ${scroll}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

/** A member whose profile is done up to the wizard's interests step. */
async function memberAtInterestsStep(name: string) {
  const m = await e2e.createMember(name);
  const [row] = await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, m.email));
  await e2e.db
    .update(profiles)
    .set({ fullName: name, dob: '1996-04-12', genderIdentities: ['Woman'], lookingFor: ['Friends'], onboardingStep: 6 })
    .where(eq(profiles.id, row.id));
  return { ...m, id: row.id };
}

describe('admin access', () => {
  it('members never see the admin area; admins get it in the sidebar', async () => {
    const m = await e2e.createMember('Nora Member');
    await e2e.completeProfile(m.email);
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await page.goto('/admin/reports');
    await page.waitForURL(/\/home$/);
    expect(await page.getByTestId('admin-nav').count()).toBe(0);
    await context.close();

    const { context: ac, page: ap } = await adminPage();
    await ap.goto('/home');
    const nav = ap.getByTestId('admin-nav');
    await nav.waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Overview',
      'Reports',
      'Members',
      'Verification',
      'Interest suggestions',
      'Mixers',
      'Formation',
      'Campaigns',
      'Metrics',
    ]);
    await nav.getByRole('link', { name: 'Metrics' }).click();
    await ap.waitForURL(/\/admin\/metrics/);
    await nav.locator('a[aria-current="page"]', { hasText: 'Metrics' }).waitFor();
    expect(await nav.locator('a[aria-current="page"]').count()).toBe(1);
    // Collapsed, the admin links stay as icons with their names for screen readers.
    await ap.getByRole('button', { name: 'Collapse sidebar' }).click();
    await ap.locator('aside[data-state="collapsed"]').waitFor();
    expect(await nav.getByRole('link').count()).toBe(ADMIN_LINKS.length);
    expect(await nav.getByRole('link', { name: 'Admin: Reports' }).isVisible()).toBe(true);
    await ap.screenshot({ path: 'test-results/screenshots/admin-sidebar-collapsed.png', clip: { x: 0, y: 0, width: 320, height: 800 } });
    await ac.close();
  });
});

describe('interest suggestions', () => {
  it('a member suggests an interest in the wizard; an admin approves it and it appears in the wizard’s list', async () => {
    const m = await memberAtInterestsStep('Sita Suggester');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await page.getByRole('heading', { name: 'What are you into?' }).waitFor();
    await page.getByRole('button', { name: 'Other' }).click();
    await page.getByLabel('Your suggestions').fill('Kite surfing');
    await page.getByRole('button', { name: 'Send suggestions' }).click();
    await toast(page, 'Thanks for suggesting').waitFor();
    await context.close();
    // Someone else suggested the same thing, spelt differently.
    const other = await e2e.createMember('Tom Twice');
    const [o] = await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, other.email));
    await e2e.db.insert(interestSuggestions).values({ userId: o.id, submittedInterest: 'kite  SURFING', fullName: 'Tom Twice' });

    const { context: ac, page: ap } = await adminPage();
    await ap.goto('/admin/interest-suggestions');
    const row = ap.getByTestId('suggestion-row').filter({ hasText: 'Kite surfing' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Sita Suggester');
    expect(await row.textContent()).toContain('Tom Twice');
    await a11y(ap);
    await e2e.screenshot(ap, 'admin-suggestions-pending-desktop');
    const narrow = await adminPage(SIZES[1]);
    await narrow.page.goto('/admin/interest-suggestions');
    await narrow.page.getByTestId('suggestion-row').first().waitFor();
    await expectNoHorizontalScroll(narrow.page);
    await e2e.screenshot(narrow.page, 'admin-suggestions-pending-375');
    await narrow.context.close();
    await ap.getByRole('button', { name: 'Approve Kite surfing' }).click();
    await ap.getByLabel('Category').selectOption('Sports & Fitness');
    await e2e.screenshot(ap, 'admin-suggestions-approve-dialog');
    await ap.getByRole('button', { name: 'Approve and add' }).click();
    const done = toast(ap, 'Interest added');
    await done.waitFor();
    expect(await done.textContent()).toContain('2 suggestions approved');
    await ap.getByText('No suggestions waiting — nice.').waitFor();
    await ap.locator('#suggestion-history').getByRole('cell', { name: 'Kite surfing · Sports & Fitness' }).waitFor();
    await e2e.screenshot(ap, 'admin-suggestions-after-desktop');
    await ac.close();

    // The member, back in the wizard, can now pick it.
    const { context: mc, page: mp } = await e2e.newPage();
    await e2e.login(mp, m.email);
    await mp.getByRole('heading', { name: 'What are you into?' }).waitFor();
    await mp.getByPlaceholder('Search interests').fill('kite');
    const chip = mp.getByRole('button', { name: 'Kite surfing' });
    await chip.waitFor();
    await chip.click();
    expect(await mp.getByText('1/15').count()).toBeGreaterThan(0);
    await e2e.screenshot(mp, 'admin-suggestion-in-wizard');
    await mc.close();
  });
});

describe('mixers', () => {
  it('an admin creates a mixer that members then see, edits and cancels it', async () => {
    const { context, page } = await adminPage();
    await page.goto('/admin/mixers');
    await page.getByRole('button', { name: 'New mixer' }).click();
    await page.getByRole('button', { name: 'Create mixer' }).click();
    await page.getByText('Please give the mixer a title').waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Sunday sourdough swap');
    await page.getByLabel('Topic').fill('Baking');
    await page.getByLabel('Description').fill('Bring a loaf, leave with a starter and three new friends.');
    await page.getByText('Forest', { exact: true }).click();
    await page.getByLabel('Tags', { exact: true }).fill('sourd');
    await page.getByRole('button', { name: /\+ Sourdough/ }).click();
    const start = new Date(Date.now() + 2 * DAY);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByLabel('Starts').fill(`${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T18:30`);
    await page.getByLabel('Capacity').selectOption('6');
    await e2e.screenshot(page, 'admin-mixers-form-desktop');
    await page.getByRole('button', { name: 'Create mixer' }).click();
    await toast(page, 'Mixer created').waitFor();
    const row = page.getByTestId('admin-mixer-row').filter({ hasText: 'Sunday sourdough swap' });
    await row.waitFor();
    expect(await row.textContent()).toContain('0/6');
    expect(await row.textContent()).toContain('Sourdough');

    // A member sees it on the mixers page.
    const m = await e2e.createMember('Mo Member');
    await e2e.completeProfile(m.email);
    const { context: mc, page: mp } = await e2e.newPage();
    await e2e.login(mp, m.email);
    await mp.goto('/mixers');
    await mp.getByText('Sunday sourdough swap').first().waitFor();
    await e2e.screenshot(mp, 'admin-created-mixer-member-view');
    await mc.close();

    // Edit, then cancel with a reason.
    await row.getByRole('button', { name: 'Edit Sunday sourdough swap' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Sourdough swap');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Mixer updated').waitFor();
    const edited = page.getByTestId('admin-mixer-row').filter({ hasText: 'Sourdough swap' });
    await edited.getByRole('button', { name: 'Cancel Sourdough swap' }).click();
    await page.getByRole('button', { name: 'Cancel mixer' }).click();
    await page.getByText('Please give a reason — the member will read it.').waitFor();
    await page.getByLabel('Reason for members').fill('Our host has flu, sorry! We will run it again soon.');
    await e2e.screenshot(page, 'admin-mixers-cancel-dialog');
    await page.getByRole('button', { name: 'Cancel mixer' }).click();
    await toast(page, 'Mixer cancelled').waitFor();
    await page.getByRole('button', { name: 'Cancelled', exact: true }).click();
    await page.getByTestId('admin-mixer-row').filter({ hasText: 'Sourdough swap' }).waitFor();
    const [saved] = await e2e.db.select({ status: mixers.status }).from(mixers).where(eq(mixers.title, 'Sourdough swap'));
    expect(saved.status).toBe('cancelled');
    await context.close();
  });
});

describe('campaigns', () => {
  it('creates a campaign with its link and QR code and counts its sign-ups', async () => {
    const { context, page } = await adminPage();
    await page.goto('/admin/campaigns');
    await page.getByTestId('campaign-row').filter({ hasText: 'Leeds posters' }).waitFor();
    await page.getByRole('button', { name: 'New campaign' }).click();
    await page.getByLabel('Label').fill('Freshers fair Bristol');
    expect(await page.getByLabel('Code', { exact: true }).inputValue()).toBe('FRESHERS-FAIR-BRISTOL');
    await page.getByLabel('Source (optional)').fill('stand');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await toast(page, 'Campaign created').waitFor();
    const row = page.getByTestId('campaign-row').filter({ hasText: 'Freshers fair Bristol' });
    await row.waitFor();
    const qr = row.getByRole('link', { name: /QR code of Freshers fair Bristol/ });
    const href = (await qr.getAttribute('href')) ?? '';
    expect(href).toBe('/campaign/qr?utm_source=stand&code=FRESHERS-FAIR-BRISTOL&label=Freshers+fair+Bristol');
    const posters = page.getByTestId('campaign-row').filter({ hasText: 'Leeds posters' });
    const signups = (await e2e.db.select({ id: user.id }).from(user).where(eq(user.campaignCode, 'LEEDS-POSTER'))).length;
    expect(signups).toBeGreaterThan(0);
    expect(await posters.locator('td').nth(2).textContent()).toBe(String(signups));
    await e2e.screenshot(page, 'admin-campaigns-desktop');

    const qrPage = await context.newPage();
    await qrPage.goto(href);
    await qrPage.getByTestId('campaign-qr').waitFor();
    expect(await qrPage.getByTestId('campaign-link').textContent()).toContain('code=FRESHERS-FAIR-BRISTOL');
    await context.close();
  });
});

describe('reports', () => {
  it('a member’s report reaches the queue and a suspension locks that member out at once', async () => {
    const reporter = await e2e.createMember('Polly Reporter');
    const reported = await e2e.createMember('Vic Rude');
    const pid = await e2e.completeProfile(reporter.email);
    const vid = await e2e.completeProfile(reported.email);
    const now = Date.now();
    const [mx] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Pub quiz night',
        topic: 'Quizzes',
        status: 'live',
        startsAt: new Date(now - HOUR / 2),
        endsAt: new Date(now + HOUR),
      })
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values([
      { mixerId: mx.id, userId: pid },
      { mixerId: mx.id, userId: vid },
    ]);
    await e2e.db
      .insert(mixerMessages)
      .values({ mixerId: mx.id, senderId: vid, body: 'Give me your number or else', createdAt: new Date(now - 60_000) });

    // Vic has the app open.
    const { context: vc, page: vp } = await e2e.newPage();
    await e2e.login(vp, reported.email);
    await vp.goto('/home');

    // Polly reports Vic from the mixer.
    const { context: pc, page: pp } = await e2e.newPage();
    await e2e.login(pp, reporter.email);
    await pp.goto(`/mixers/${mx.id}`);
    await pp
      .getByRole('button', { name: 'More options for Vic' })
      .first()
      .click()
      .catch(async (err) => {
        await e2e.screenshot(pp, 'debug-mixer');
        throw err;
      });
    await pp.getByRole('menuitem', { name: 'Report Vic' }).click();
    await pp.getByLabel('Harassment or bullying').check();
    await pp.getByLabel('Tell us what happened (optional)').fill('Kept demanding my number in the group chat.');
    await pp.getByRole('button', { name: 'Send report' }).click();
    await toast(pp, 'Thanks for telling us').waitFor();
    await pc.close();

    const { context, page } = await adminPage();
    await page.goto('/admin/reports');
    const card = page.getByTestId('queue-group').filter({ hasText: 'Vic Rude' });
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('Harassment or bullying');
    expect(text).toContain('Kept demanding my number in the group chat.');
    expect(text).toContain('Give me your number or else');
    expect(text).toContain('Pub quiz night');
    await a11y(page);
    await e2e.screenshot(page, 'admin-reports-open-desktop');
    const narrow = await adminPage(SIZES[1]);
    await narrow.page.goto('/admin/reports');
    await narrow.page.getByTestId('report-card').first().waitFor();
    await expectNoHorizontalScroll(narrow.page);
    await e2e.screenshot(narrow.page, 'admin-reports-open-375');
    await narrow.context.close();

    // Issue 30: every action names a rule; a suspension lasts 1, 7 or 30 days.
    await card.getByRole('button', { name: 'Suspend' }).click();
    await page.getByLabel('No threats or violence').check();
    await page.getByLabel('7 days').check();
    await e2e.screenshot(page, 'admin-reports-suspend-dialog');
    await page.getByRole('button', { name: 'Suspend member' }).click();
    await toast(page, 'Suspended for 7 days: done').waitFor();
    await page.getByText('No open reports — nice.').waitFor();
    await page.getByTestId('suspended-row').filter({ hasText: 'Vic Rude' }).waitFor();
    await e2e.screenshot(page, 'admin-reports-after-desktop');

    // Vic is out: the next navigation lands on the login page, and signing in is refused.
    await vp.reload();
    await vp.waitForURL(/\/auth\/login/);
    await vp.getByLabel('Email').fill(reported.email);
    await vp.getByLabel('Password', { exact: true }).fill('velvet-otter-lantern');
    await vp.getByRole('button', { name: 'Log in' }).click();
    const failed = toast(vp, 'Login failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('suspended');
    await vc.close();

    // The handled tab shows the decision.
    await page.getByRole('button', { name: 'Handled' }).click();
    await page.locator('#handled-reports').getByRole('cell', { name: 'No threats or violence' }).waitFor();
    await e2e.screenshot(page, 'admin-reports-handled-desktop');
    await context.close();
  });
});

describe('every admin page', () => {
  it('renders with real figures, passes axe, and works at 375 px', async () => {
    const pages = [
      { path: '/admin', ready: 'Admin activity', name: 'overview' },
      { path: '/admin/interest-suggestions', ready: 'Decision history', name: 'suggestions' },
      { path: '/admin/metrics', ready: 'Onboarding funnel', name: 'metrics' },
      { path: '/admin/mixers', ready: 'Upcoming & live', name: 'mixers' },
      { path: '/admin/campaigns', ready: 'Your campaigns', name: 'campaigns' },
      { path: '/admin/reports', ready: 'Suspended members', name: 'reports' },
    ];
    for (const size of SIZES) {
      const { context, page } = await adminPage(size);
      for (const p of pages) {
        await page.goto(p.path);
        await page
          .getByRole('heading', { name: p.ready })
          .first()
          .waitFor()
          .catch(async (err) => {
            await e2e.screenshot(page, `debug-${p.name}-${size.name}`);
            throw err;
          });
        await page.waitForFunction(() => !document.querySelector('[role="status"] .animate-pulse, [role="status"].grid'));
        if (p.name === 'metrics') await page.locator('.recharts-surface').first().waitFor();
        await expectNoHorizontalScroll(page);
        if (size.name === 'desktop') await a11y(page);
        await e2e.screenshot(page, `admin-${p.name}-${size.name}`);
      }
      await context.close();
    }
  });

  it('the metrics charts stay readable in dark mode', async () => {
    const { context, page } = await adminPage();
    await context.addInitScript(() => localStorage.setItem('fancy-theme', 'dark'));
    await page.goto('/admin/metrics');
    await page.locator('.recharts-surface').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await a11y(page);
    await e2e.screenshot(page, 'admin-metrics-dark-desktop');
    await context.close();
  });

  it('the overview shows real figures and the metrics page downloads CSV', async () => {
    const { context, page } = await adminPage();
    await page.goto('/admin');
    const total = (await e2e.db.select({ id: user.id }).from(user)).length;
    const figure = (label: string) =>
      page.evaluate(
        (l) => [...document.querySelectorAll('dt')].find((dt) => dt.textContent === l)?.nextElementSibling?.textContent ?? null,
        label,
      );
    await page.waitForFunction(() =>
      [...document.querySelectorAll('dt')].some((dt) => dt.textContent === 'Total' && /^\d/.test(dt.nextElementSibling?.textContent ?? '')),
    );
    expect(await figure('Total')).toBe(String(total));
    const suspended = (await e2e.db.select({ id: user.id }).from(user).where(eq(user.banned, true))).length;
    expect(await figure('Suspended members')).toBe(String(suspended));

    await page.goto('/admin/metrics');
    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await page.waitForURL(/from=/);
    const table = page.getByRole('table', { name: 'Sign-ups per day' });
    await table.locator('tbody tr').nth(89).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(90);
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download sign-ups as CSV' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^fancy-signups-by-source-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^Day,Total,/);
    expect(csv.trim().split('\r\n')).toHaveLength(91);
    await context.close();
  });
});
