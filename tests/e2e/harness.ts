import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/config';
import type { Db } from '../../src/server/db/client';
import { profiles, user } from '../../src/server/db/schema';
import { startServer } from '../../src/server/main';
import { jobsSettled } from '../../src/server/infra/jobs/periodic';
import { databaseTemplate } from '../helpers/db-template';
import { freePort, isAddressInUse } from '../helpers/ports';
import { CHROMIUM_ARGS, findChromium, findTestChromium, withTestClock } from './chromium';

export const E2E_PASSWORD = 'velvet-otter-lantern';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

export interface E2E {
  baseUrl: string;
  browser: Browser;
  /** A fresh browser context (own cookies and storage) with one page. Desktop 1280×800 unless given. */
  newPage(opts?: { width?: number; height?: number }): Promise<{ context: BrowserContext; page: Page }>;
  mailsTo(address: string): Promise<Mail[]>;
  /** The first link in the newest mail to an address (waits up to 5 s for it). */
  /**
   * The link in the newest mail to `address` (that contains `path`, when given), waiting for it:
   * mail goes out after the answer, so without `path` an earlier mail's link can win the race.
   */
  lastLinkTo(address: string, path?: string): Promise<string>;
  /** Registers and verifies a member through the API; the browser is not signed in. */
  createMember(fullName?: string): Promise<{ email: string; password: string }>;
  /** The server's database, to arrange data a journey does not cover itself. */
  db: Db;
  /** The running app, to run its jobs (formation, lifecycle) at a chosen moment. */
  app: FastifyInstance;
  /** Marks a member's profile complete with plausible answers, so the gate lets them through. */
  completeProfile(email: string): Promise<string>;
  /** Signs a page in through the login form and waits to leave /auth. */
  login(page: Page, email: string, password?: string): Promise<void>;
  /** Screenshots go to test-results/screenshots/NAME.png. */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

let memberCounter = 0;

/**
 * The built app on a real server on a random loopback port, with its own empty embedded
 * database, and a real headless Chromium: its headless shell, or with `wholeBrowser` the whole
 * browser, for what only it has (Web Push; decision 043).
 */
export async function startE2E(env: Record<string, string> = {}, { wholeBrowser = false } = {}): Promise<E2E> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-e2e-'));
  const start = async () => {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      // Test members get distinct client addresses through X-Forwarded-For (per-IP limits).
      TRUST_PROXY: 'true',
      // The suites keep both cores busy: at nice 19 a check could wait minutes for the CPU.
      VERIFY_WORKER_PRIORITY: 'normal',
      ...env,
    });
    return { port, server: await startServer(config, { initialData: config.databaseUrl ? undefined : await databaseTemplate() }) };
  };
  // Another test stream may bind the port we drew between our probe and our bind: draw again.
  let started: Awaited<ReturnType<typeof start>> | undefined;
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await start();
    } catch (err) {
      if (!isAddressInUse(err) || attempt === 3) throw err;
    }
  }
  const { port, server } = started;
  await jobsSettled(server.app);
  const baseUrl = `http://localhost:${port}`;
  const browser = withTestClock(
    await chromium.launch({ executablePath: wholeBrowser ? findChromium() : findTestChromium(), args: CHROMIUM_ARGS }),
  );

  const mailsTo = async (address: string) => {
    const res = await fetch(`${baseUrl}/dev/mailbox.json`);
    const all = (await res.json()) as Mail[];
    return all.filter((m) => m.to === address);
  };

  const lastLinkTo = async (address: string, path?: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const links = (await mailsTo(address)).map((mail) => mail.text.match(/https?:\/\/\S+/)?.[0]);
      const link = links.find((l) => l && (!path || l.includes(path)));
      if (link) return link;
      if (Date.now() > deadline) throw new Error(`no mail with a link${path ? ` to ${path}` : ''} to ${address}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const e2e: E2E = {
    baseUrl,
    browser,
    async newPage({ width = 1280, height = 800 } = {}) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width, height } });
      const page = await context.newPage();
      return { context, page };
    },
    mailsTo,
    lastLinkTo,
    db: server.database.db,
    app: server.app,
    async completeProfile(email) {
      const [row] = await server.database.db.select({ id: user.id, name: user.name }).from(user).where(eq(user.email, email));
      const answer = 'Long walks along the canal with a flask of tea and a podcast about old maps of London.';
      await server.database.db.insert(profiles).values({ id: row.id, fullName: row.name }).onConflictDoNothing();
      await server.database.db
        .update(profiles)
        .set({
          fullName: row.name,
          dob: '1994-05-17',
          genderIdentities: ['Woman'],
          lookingFor: ['Dating', 'Friends'],
          interests: ['Board games', 'Sourdough', 'Hiking'],
          smallJoy: answer,
          loveToTalkAbout: answer,
          valueInRelationships: answer,
          sharedExperience: answer,
          cityRegion: 'Bristol',
          countryCode: 'GB',
          tz: 'Europe/London',
          onboardingCompleted: true,
          onboardingStep: 10,
        })
        .where(eq(profiles.id, row.id));
      await server.database.db.update(user).set({ onboardingComplete: true }).where(eq(user.id, row.id));
      return row.id;
    },
    async createMember(fullName = 'Test Member') {
      const email = `e2e${++memberCounter}.${Date.now()}@example.com`;
      const res = await fetch(`${baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${memberCounter}` },
        body: JSON.stringify({ fullName, email, password: E2E_PASSWORD }),
      });
      if (!res.ok) throw new Error(`register failed: ${await res.text()}`);
      // Signing in with the verification link's token confirms the address (docs/decisions/006).
      const verifyToken = new URL(await lastLinkTo(email)).searchParams.get('token');
      const verify = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${memberCounter}` },
        body: JSON.stringify({ email, password: E2E_PASSWORD, verifyToken }),
      });
      if (verify.status >= 400) throw new Error(`verify failed: ${verify.status}`);
      return { email, password: E2E_PASSWORD };
    },
    async login(page, email, password = E2E_PASSWORD) {
      await page.goto('/auth/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join('test-results', 'screenshots', `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return e2e;
}

/** A screenshot of what the member sees (the viewport), for fixed and messenger-style views. */
export async function viewportShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join('test-results', 'screenshots', `${name}.png`) });
}

/** The address of a demo member (src/server/db/seed/demo-data.ts) by key, e.g. `maya-okafor`. */
export const demoEmail = (key: string) => `${key}@demo.fancy.test`;

/**
 * Resolves once the app has taken the page over: a member page the server rendered is on screen
 * before its scripts run, and `data-waiting-for-app` until they have (decisions 028, 038).
 * Keyboard shortcuts and events a test dispatches itself need the app; a click before then is
 * held and given to the app when it takes over (public/early-taps.js).
 */
export function appReady(page: Page) {
  return page.waitForFunction(() => {
    const root = document.getElementById('root');
    return Boolean(root?.firstElementChild) && !root?.hasAttribute('data-waiting-for-app');
  });
}

/**
 * Resolves once the page's socket is ready: what the server sends the member from then on (a
 * notice, a counter) reaches the page live. Before that, an event is only in the next fetch.
 */
export function realtimeLive(page: Page) {
  return page.waitForFunction(() => document.documentElement.dataset.realtime === 'open');
}

/**
 * Resolves once every line this page sent is on the server: a sent line shows in the log at once,
 * as pending, and only leaves that state when the server has it (decision 032). A test
 * that acts on the database after a send (ends the mixer, counts attendance) waits for this.
 */
export function linesDelivered(page: Page) {
  return page.waitForFunction(() => !document.querySelector('[data-pending-line]'));
}

/**
 * A toast by its title. Not `getByText`: while a toast is announced, its text is also in a
 * screen-reader status line ("Notification …"), and a bare text match would find both.
 */
export const toast = (page: Page, title: string) => page.locator('[data-variant]', { hasText: title }).first();
