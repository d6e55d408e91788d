import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import {
  campaigns,
  directMessages,
  interestSuggestions,
  matches,
  memberVerifications,
  mixerMemberships,
  mixers,
  reports,
  user,
  verificationReviews,
} from '../../src/server/db/schema';
import { APP_ROUTES, type AppRoute } from '../../src/shared/routes';
import { axeViolations, describeViolations } from './a11y';
import { demoEmail, type E2E, startE2E } from './harness';

/**
 * Every page of the route table (src/shared/routes.ts) and the not-found pages, in the states
 * members actually see, at 1280×800 and 375×812, light and dark (issue 17): no serious or critical
 * axe violation, nothing wider than the window or sticking out of its column, no animation that
 * never ends once the page has settled, and (with $SHOTS_DIR set) a screenshot of each. The data is the embedded demo data
 * plus what members meet on a busy day: a live mixer joined, a full one waitlisted, verified
 * badges, an unread message, a match with a conversation, admin queues with rows.
 *
 * Screenshots go to $SHOTS_DIR/<page>-<width>-<theme>.png when it is set (e.g.
 * `SHOTS_DIR=/tmp/shots npx vitest run --project e2e tests/e2e/every-page.e2e.ts`); `npm test`
 * takes none, which keeps the suite inside CI's time.
 */
const SHOTS = process.env.SHOTS_DIR;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;
const THEMES = ['light', 'dark'] as const;
type Who = 'out' | 'member' | 'admin';
type Theme = (typeof THEMES)[number];
type Size = (typeof SIZES)[number];

/**
 * Which theme × width a page is checked in. The walk ($SHOTS_DIR) takes all four. `npm test`
 * takes two per page that between them cover both themes and both widths, alternating the
 * pairing from page to page so the shell is checked in all four across the walk: the full
 * matrix doubled CI's longest suite past its 20 minutes.
 */
function variants(index: number): { theme: Theme; size: Size }[] {
  const all = THEMES.flatMap((theme) => SIZES.map((size) => ({ theme, size })));
  if (SHOTS) return all;
  const [wide, narrow] = SIZES;
  return index % 2 === 0
    ? [
        { theme: 'light', size: wide },
        { theme: 'dark', size: narrow },
      ]
    : [
        { theme: 'dark', size: wide },
        { theme: 'light', size: narrow },
      ];
}

let e2e: E2E;
const states: Partial<Record<Who, Awaited<ReturnType<BrowserContext['storageState']>>>> = {};
const pages = new Map<string, { context: BrowserContext; page: Page }>();
const ids = { liveJoined: '', fullWaitlisted: '', liveFull: '', ended: '', upcomingOpen: '', match: '', chloe: '' };

const byKey = async (key: string) => {
  const [row] = await e2e.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, demoEmail(key)));
  return row.id;
};
const mixerByTitle = async (title: string) => {
  const [row] = await e2e.db.select({ id: mixers.id }).from(mixers).where(eq(mixers.title, title));
  return row.id;
};

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  e2e = await startE2E({ SEED_DEMO: 'true' });
  const maya = await byKey('maya-okafor');
  const rhys = await byKey('rhys-llewellyn');

  // Maya is in the live Board Game Night and went to the Aftersun film club (ended).
  ids.liveJoined = await mixerByTitle('Board Game Night: Catan & Co.');
  ids.ended = await mixerByTitle('Indie Film Club: Aftersun Debrief');
  ids.upcomingOpen = await mixerByTitle('Pub Quiz Warm-Up Round');
  // A full upcoming mixer with Maya on its waitlist.
  ids.fullWaitlisted = await mixerByTitle('Peak District Hike Planning');
  const seated = await e2e.db
    .select({ id: mixerMemberships.id })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, ids.fullWaitlisted), eq(mixerMemberships.state, 'joined')));
  await e2e.db.update(mixers).set({ maxParticipants: seated.length }).where(eq(mixers.id, ids.fullWaitlisted));
  await e2e.db.insert(mixerMemberships).values({ mixerId: ids.fullWaitlisted, userId: maya, state: 'waitlisted' });
  // A live mixer with every seat taken, which Maya has not joined.
  ids.liveFull = await mixerByTitle('Warehouse Techno Talk');
  const techno = await e2e.db
    .select({ id: mixerMemberships.id })
    .from(mixerMemberships)
    .where(and(eq(mixerMemberships.mixerId, ids.liveFull), eq(mixerMemberships.state, 'joined')));
  await e2e.db.update(mixers).set({ maxParticipants: techno.length }).where(eq(mixers.id, ids.liveFull));

  // Verified badges on Maya and the people she meets.
  const verified = await Promise.all(['maya-okafor', 'rhys-llewellyn', 'arjun-patel', 'chloe-nguyen'].map(byKey));
  ids.chloe = verified[3];
  await e2e.db
    .insert(memberVerifications)
    .values(verified.map((userId) => ({ userId, status: 'verified', method: 'selfie', modelVersion: 'e2e', verifiedAt: new Date() })));

  // The match with Rhys, with a message Maya has not read yet.
  const [match] = await e2e.db
    .select({ id: matches.id })
    .from(matches)
    .where(and(inArray(matches.profile1Id, [maya, rhys]), inArray(matches.profile2Id, [maya, rhys])));
  ids.match = match.id;
  await e2e.db
    .insert(directMessages)
    .values({ matchId: match.id, senderId: rhys, recipientId: maya, body: 'See you at the table in five? I brought snacks.' });

  // An admin, and queues with rows in them.
  const a = await e2e.createMember('Ada Admin');
  const adminId = await e2e.completeProfile(a.email);
  await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, adminId));
  const chloe = await byKey('chloe-nguyen');
  const nathan = await byKey('nathan-brooks');
  await e2e.db.insert(reports).values([
    {
      reporterId: maya,
      reportedId: nathan,
      mixerId: ids.liveJoined,
      reason: 'Harassment or bullying',
      details: 'Kept asking where I live.',
    },
    { reporterId: chloe, reportedId: nathan, reason: 'Spam or scam', details: 'Posting links to a crypto site.' },
  ]);
  await e2e.db.insert(verificationReviews).values([
    { userId: chloe, kind: 'age', scores: { age: 19.2 } },
    { userId: nathan, kind: 'duplicate', otherUserId: rhys, scores: { distance: 0.31 } },
  ]);
  await e2e.db.insert(interestSuggestions).values([
    { userId: maya, submittedInterest: 'Kite surfing', fullName: 'Maya Okafor' },
    { userId: chloe, submittedInterest: 'Birdwatching', fullName: 'Chloe Nguyen' },
  ]);
  await e2e.db
    .insert(campaigns)
    .values({ label: 'Leeds posters', code: 'LEEDS-POSTER', source: 'poster', medium: 'print', campaign: 'spring', createdBy: adminId });

  for (const [who, email, password] of [
    ['member', demoEmail('maya-okafor'), DEMO_PASSWORD],
    ['admin', a.email, a.password],
  ] as const) {
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email, password);
    states[who] = await context.storageState();
    await context.close();
  }
}, 300_000);

afterAll(async () => {
  for (const { context } of pages.values()) await context.close();
  await e2e?.close();
});

/** One browser page per (who, theme, size), reused from page to page. */
async function pageFor(who: Who, theme: Theme, size: { width: number; height: number }) {
  const key = `${who}-${theme}-${size.width}`;
  let entry = pages.get(key);
  if (!entry) {
    const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: size, storageState: states[who] });
    await context.addInitScript((t) => localStorage.setItem('fancy-theme', t), theme);
    entry = { context, page: await context.newPage() };
    // A server-rendered member page the browser could not hydrate as sent says so (main.tsx, decision 028).
    entry.page.on('console', (msg) => {
      if (/rendered again/.test(msg.text()))
        hydrationWarnings.push(`${who} ${theme} ${size.width} ${entry?.page.url()}: ${msg.text().slice(0, 200)}`);
    });
    pages.set(key, entry);
  }
  return entry.page;
}
const hydrationWarnings: string[] = [];

interface Visit {
  /** File name stem and test name. */
  name: string;
  /** The route table's entry it shows; none for the not-found page, which no route names. */
  route?: AppRoute;
  url: () => string;
  who: Who;
  /** Resolves once the state being checked is on screen (after an h1 is visible). */
  ready?: (page: Page) => Promise<unknown>;
  /** Then does what a member does to reach the state (e.g. opens a dialog). */
  act?: (page: Page) => Promise<unknown>;
}

const text = (s: string | RegExp) => (page: Page) => page.getByText(s).first().waitFor();

const VISITS: Visit[] = [
  // Signed out.
  { name: 'landing', route: '/', url: () => '/', who: 'out' },
  { name: 'register', route: '/auth/register', url: () => '/auth/register', who: 'out' },
  { name: 'login', route: '/auth/login', url: () => '/auth/login', who: 'out' },
  { name: 'auth', route: '/auth', url: () => '/auth', who: 'out', ready: (p) => p.waitForURL(/\/auth\/login/) },
  { name: 'forgot-password', route: '/auth/forgot-password', url: () => '/auth/forgot-password', who: 'out' },
  { name: 'reset-password', route: '/auth/reset-password', url: () => '/auth/reset-password?token=expired', who: 'out' },
  { name: 'beta', route: '/beta', url: () => '/beta?utm_source=poster', who: 'out', ready: (p) => p.waitForURL(/\/auth\/register/) },
  {
    name: 'beta-landing',
    route: '/beta-landing',
    url: () => '/beta-landing',
    who: 'out',
    ready: (p) => p.waitForURL(/\/auth\/register/),
  },
  { name: 'terms', route: '/terms', url: () => '/terms', who: 'out' },
  { name: 'privacy', route: '/privacy', url: () => '/privacy', who: 'out' },
  { name: 'contact-support', route: '/contact-support', url: () => '/contact-support', who: 'out' },
  { name: 'campaign', route: '/campaign', url: () => '/campaign?utm_source=poster&code=LEEDS-POSTER&label=Leeds+posters', who: 'out' },
  { name: 'campaign-qr', route: '/campaign/qr', url: () => '/campaign/qr?utm_source=poster&code=LEEDS-POSTER', who: 'out' },
  { name: 'status', route: '/status', url: () => '/status', who: 'out' },
  { name: 'appeal', route: '/appeal', url: () => '/appeal', who: 'out' },
  { name: 'test-onboarding', route: '/test-onboarding', url: () => '/test-onboarding', who: 'out' },
  { name: 'not-found', url: () => '/no/such/page', who: 'out', ready: text("We couldn't find that page") },
  // Signed in, as Maya on a busy evening.
  { name: 'home', route: '/home', url: () => '/home', who: 'member', ready: text('Board Game Night: Catan & Co.') },
  {
    name: 'mixers',
    route: '/mixers',
    url: () => '/mixers',
    who: 'member',
    ready: (p) => p.getByTestId('mixer-card').first().or(p.getByText('No mixers fit you right now.')).waitFor(),
  },
  { name: 'mixers-mine', route: '/mixers', url: () => '/mixers?tab=mine', who: 'member', ready: text('Board Game Night: Catan & Co.') },
  {
    name: 'mixers-discover',
    route: '/mixers',
    url: () => '/mixers?tab=discover',
    who: 'member',
    ready: (p) => p.getByTestId('mixer-card').first().waitFor(),
  },
  {
    name: 'mixer-live-joined',
    route: '/mixers/:id',
    url: () => `/mixers/${ids.liveJoined}`,
    who: 'member',
    ready: (p) => p.getByRole('log').waitFor(),
  },
  {
    name: 'mixer-profile-card',
    route: '/mixers/:id',
    url: () => `/mixers/${ids.liveJoined}`,
    who: 'member',
    ready: (p) => p.getByRole('log').waitFor(),
    act: async (p) => {
      // On a phone the people are behind their tab.
      const people = p.getByRole('tab', { name: /^People/ });
      if (await people.isVisible()) await people.click();
      await p.getByRole('button', { name: "View Rhys's profile" }).click();
      await p
        .getByRole('dialog')
        .getByRole('heading', { name: /^Rhys, \d+/ })
        .waitFor();
    },
  },
  {
    name: 'mixer-full-waitlisted',
    route: '/mixers/:id',
    url: () => `/mixers/${ids.fullWaitlisted}`,
    who: 'member',
    ready: text(/waitlist/i),
  },
  { name: 'mixer-live-full', route: '/mixers/:id', url: () => `/mixers/${ids.liveFull}`, who: 'member', ready: text(/full/i) },
  { name: 'mixer-upcoming-open', route: '/mixers/:id', url: () => `/mixers/${ids.upcomingOpen}`, who: 'member' },
  { name: 'after-mixer', route: '/mixers/:id/after', url: () => `/mixers/${ids.ended}/after`, who: 'member', ready: text('Rhys') },
  { name: 'matches', route: '/matches', url: () => '/matches', who: 'member', ready: text('Rhys') },
  { name: 'messages', route: '/messages', url: () => '/messages', who: 'member', ready: text('Rhys') },
  {
    name: 'thread',
    route: '/messages/:id',
    url: () => `/messages/${ids.match}`,
    who: 'member',
    // The bubble in the thread (at 1280 px the list beside it previews the same words).
    ready: (p) => p.getByText('See you at the table in five? I brought snacks.').last().waitFor(),
  },
  { name: 'blog', route: '/modern-love-letters', url: () => '/modern-love-letters', who: 'member' },
  {
    name: 'blog-post',
    route: '/modern-love-letters/:slug',
    url: () => '/modern-love-letters/from-group-chat-to-first-date',
    who: 'member',
  },
  {
    name: 'blog-post-not-found',
    route: '/modern-love-letters/:slug',
    url: () => '/modern-love-letters/no-such-letter',
    who: 'member',
    ready: text("We couldn't find that letter"),
  },
  { name: 'profile', route: '/profile', url: () => '/profile', who: 'member', ready: text('Your profile as others see it') },
  { name: 'settings', route: '/settings', url: () => '/settings', who: 'member', ready: (p) => p.getByRole('switch').first().waitFor() },
  { name: 'verify', route: '/verify', url: () => '/verify', who: 'member' },
  { name: 'settings-safety', route: '/settings/safety', url: () => '/settings/safety', who: 'member', ready: text('Safety and reports') },
  { name: 'terms-signed-in', route: '/terms', url: () => '/terms', who: 'member' },
  { name: 'contact-support-signed-in', route: '/contact-support', url: () => '/contact-support', who: 'member' },
  { name: 'status-signed-in', route: '/status', url: () => '/status', who: 'member' },
  // Admin pages with rows.
  { name: 'admin', route: '/admin', url: () => '/admin', who: 'admin' },
  { name: 'admin-reports', route: '/admin/reports', url: () => '/admin/reports', who: 'admin', ready: text('Kept asking where I live.') },
  { name: 'admin-verification', route: '/admin/verification', url: () => '/admin/verification', who: 'admin', ready: text('Chloe') },
  { name: 'admin-members', route: '/admin/members', url: () => '/admin/members?q=chloe', who: 'admin', ready: text('Chloe') },
  {
    name: 'admin-member',
    route: '/admin/members/:id',
    url: () => `/admin/members/${ids.chloe}`,
    who: 'admin',
    ready: text('Identity changes'),
  },
  {
    name: 'admin-interest-suggestions',
    route: '/admin/interest-suggestions',
    url: () => '/admin/interest-suggestions',
    who: 'admin',
    ready: text('Birdwatching'),
  },
  { name: 'admin-mixers', route: '/admin/mixers', url: () => '/admin/mixers', who: 'admin', ready: text('Board Game Night: Catan & Co.') },
  { name: 'admin-formation', route: '/admin/formation', url: () => '/admin/formation', who: 'admin' },
  { name: 'admin-campaigns', route: '/admin/campaigns', url: () => '/admin/campaigns', who: 'admin', ready: text('Leeds posters') },
  { name: 'admin-metrics', route: '/admin/metrics', url: () => '/admin/metrics', who: 'admin' },
];

async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  // Images (avatars) drawn, fonts in, no spinner left.
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      [...document.images]
        .filter((i) => !i.complete && i.loading !== 'lazy')
        .map((i) => new Promise((r) => i.addEventListener('load', r, { once: true }))),
    );
  });
  await page
    .waitForFunction(() => !document.querySelector('[role="status"][aria-busy="true"], .animate-spin'), null, { timeout: 5000 })
    .catch(() => undefined);
}

/**
 * Blocks in the main column whose right edge passes their parent's padding: a page can be no wider
 * than the window and still push a card out of its column (an off-screen card sized wider than its
 * grid once did). Positioned boxes, negative margins (full-bleed rows), boxes of no width and
 * anything inside a box that clips or scrolls sideways are left out. Runs in the page.
 */
function sticksOut(): string[] {
  const found: string[] = [];
  const main = document.querySelector('main');
  if (!main) return found;
  const clips = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
  for (const el of main.querySelectorAll<HTMLElement>('*')) {
    const parent = el.parentElement;
    if (!parent || found.length >= 3) break;
    const style = getComputedStyle(el);
    if (style.position !== 'static' && style.position !== 'relative') continue;
    if (style.display === 'inline' || style.display === 'contents' || Number.parseFloat(style.marginRight) < 0) continue;
    let clipped = false;
    for (let a: Element | null = parent; a && a !== main.parentElement; a = a.parentElement) if (clips(a)) clipped = true;
    if (clipped) continue;
    const box = el.getBoundingClientRect();
    const outer = parent.getBoundingClientRect();
    // A box of no width is a positioning device (a chart's measuring wrapper), not a column.
    if (outer.width < 1) continue;
    const inner =
      outer.right - Number.parseFloat(getComputedStyle(parent).paddingRight) - Number.parseFloat(getComputedStyle(parent).borderRightWidth);
    if (box.width > 0 && box.right > inner + 1) {
      found.push(
        `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}: right edge ${Math.round(box.right)} past ${Math.round(inner)}`,
      );
    }
  }
  return found;
}

describe('every page, in both themes at 1280 and 375 px', () => {
  it('the walk covers every route in the route table', () => {
    const covered = new Set(VISITS.map((v) => v.route));
    expect(Object.keys(APP_ROUTES).filter((r) => !covered.has(r as AppRoute))).toEqual([]);
  });

  VISITS.forEach((visit, index) => {
    it(`${visit.name} (${visit.who === 'out' ? 'signed out' : visit.who})`, async () => {
      const problems: string[] = [];
      for (const { theme, size } of variants(index)) {
        const page = await pageFor(visit.who, theme, size);
        await page.goto(visit.url());
        await page.locator('h1:visible').first().waitFor();
        await visit.ready?.(page);
        await visit.act?.(page);
        await settle(page);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
        if (scroll > width) problems.push(`${theme} ${size.width}: the page is ${scroll}px wide`);
        const sticking = await page.evaluate(sticksOut);
        if (sticking.length) problems.push(`${theme} ${size.width}: sticks out of its container:\n${sticking.join('\n')}`);
        problems.push(...hydrationWarnings.splice(0));
        // A settled page redraws nothing: an animation that never ends (a live dot's ping, a spinner
        // left behind) keeps the screen redrawing for as long as the page is open. A loading
        // skeleton is one until its data comes, which on a loaded machine can take a while.
        const endlessNow = () =>
          page.evaluate(() =>
            document
              .getAnimations()
              .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY)
              .map((a) => ((a.effect as KeyframeEffect | null)?.target as Element | null)?.outerHTML.slice(0, 120) ?? String(a)),
          );
        for (let waited = 0; waited < 20_000 && (await endlessNow()).length; waited += 500) await page.waitForTimeout(500);
        const endless = await endlessNow();
        if (endless.length) problems.push(`${theme} ${size.width}: animations that never end:\n${endless.join('\n')}`);
        // Label in name (WCAG 2.5.3) is experimental in axe, so off unless asked for. Serious and
        // critical count, and a role an element may not carry at any impact (axe calls a textarea
        // with role=combobox "minor"; Lighthouse's accessibility score counts it all the same), and
        // two landmarks of one name (admin tables once repeated their card's name as a region).
        const counted = new Set(['aria-allowed-role', 'landmark-unique']);
        const violations = (
          await axeViolations(page, {
            enableRules: ['label-content-name-mismatch'],
            impacts: ['minor', 'moderate', 'serious', 'critical'],
          })
        ).filter((v) => v.impact === 'serious' || v.impact === 'critical' || counted.has(v.id));
        if (violations.length) problems.push(`${theme} ${size.width}:\n${describeViolations(violations)}`);
        // The whole page, up to four windows tall (the legal pages run to 19,000 px on a phone).
        if (SHOTS) {
          const tall = await page.evaluate(() => document.documentElement.scrollHeight);
          await page.screenshot({
            path: path.join(SHOTS, `${visit.name}-${size.width}-${theme}.png`),
            fullPage: true,
            clip: { x: 0, y: 0, width: size.width, height: Math.min(tall, size.height * 4) },
          });
        }
      }
      expect(problems, `${visit.url()}\n${problems.join('\n')}`).toEqual([]);
    }, 180_000);
  });
});
