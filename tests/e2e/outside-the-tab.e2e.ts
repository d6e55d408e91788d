/**
 * Fancy outside the tab (issue 20) in real Chromium: the service worker registers and Chromium
 * finds no installability errors; offline, our own page shows and the app comes back with the
 * network; a push the server sent (through a loopback push service that checks VAPID and
 * decrypts it) is delivered through CDP, shows the discreet notification, and its click opens
 * the conversation in the open tab. Only `PushManager.subscribe` is stubbed (the browser's own
 * push service is out of reach): it hands back the test's subscription. Also the 404 page and
 * a link preview rendered from the served HTML.
 */
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/server/modules/messages/service';
import { pushIdle } from '../../src/server/modules/push/service';
import { type PushServiceStandIn, startPushService } from '../helpers/push-service';
import { type E2E, startE2E, viewportShot } from './harness';

let e2e: E2E;
let push: PushServiceStandIn;
beforeAll(async () => {
  // Web Push needs the whole browser: the headless shell has no push service (decision 043).
  e2e = await startE2E({}, { wholeBrowser: true });
  push = await startPushService();
  mkdirSync('test-results/screenshots', { recursive: true });
});
afterAll(async () => {
  await e2e?.close();
  await push?.close();
});

async function member(name: string) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  return { ...m, id };
}

/** Waits until the service worker controls the page (it registers after load). */
async function controlled(page: Page) {
  await page
    .waitForFunction(() => navigator.serviceWorker?.controller !== null || false, undefined, { timeout: 15_000 })
    .catch(async () => {
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    });
}

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The id of the page's service worker registration, once DevTools reports its worker activated
 * and running: a push delivered on the registration alone, right after `ServiceWorker.enable`,
 * was now and then never shown (2 of 4 runs of the moments' journeys in one session).
 */
async function registrationId(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  // The two events come in either order: each one checks what both have said so far.
  const ours = new Set<string>();
  const ready = new Set<string>();
  const found = new Promise<string>((resolve) => {
    const settle = () => {
      const id = [...ready].find((r) => ours.has(r));
      if (id) resolve(id);
    };
    cdp.on(
      'ServiceWorker.workerRegistrationUpdated',
      (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        for (const r of e.registrations) if (!r.isDeleted && r.scopeURL.startsWith(e2e.baseUrl)) ours.add(r.registrationId);
        settle();
      },
    );
    cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { registrationId: string; status: string; runningStatus: string }[] }) => {
      for (const v of e.versions) {
        if (v.status === 'activated' && v.runningStatus === 'running') ready.add(v.registrationId);
        else ready.delete(v.registrationId);
      }
      settle();
    });
  });
  await cdp.send('ServiceWorker.enable');
  // A worker idle long enough is stopped: start it (a running one is left as it is).
  await cdp.send('ServiceWorker.startWorker', { scopeURL: `${e2e.baseUrl}/` });
  return { cdp, id: await found };
}

describe('installable, offline, push', () => {
  it('the worker registers, Chromium reports no installability errors, offline shows our page and the app returns', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await page.goto('/');
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${e2e.baseUrl}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // Test contexts are off-the-record profiles, which Chromium never installs from: that one is the harness's, not ours.
    expect(installability.installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);

    await context.setOffline(true);
    await page.goto('/auth/login');
    await page.getByRole('heading', { name: "You're offline — Fancy will reconnect" }).waitFor();
    await viewportShot(page, 'offline-375');
    // The API is never answered from a cache.
    const api = await page.evaluate(() =>
      fetch('/api/health').then(
        (r) => r.status,
        () => 'network error',
      ),
    );
    expect(api).toBe('network error');

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });

  it('a discreet push for a new message: delivered through CDP, shown, and its click opens the conversation', async () => {
    const maya = await member('Maya Okafor');
    const rhys = await member('Rhys Llewellyn');
    const [p1, p2] = [maya.id, rhys.id].sort();
    const matchId = (
      (await e2e.db.execute(
        sql`insert into matches (profile1_id, profile2_id, status) values (${p1}, ${p2}, 'matched') returning id`,
      )) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0].id;

    const sub = push.subscription();
    const { context, page } = await e2e.newPage();
    await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
    // The only stub: the browser's push service is not reachable from tests.
    await context.addInitScript((s: typeof sub) => {
      PushManager.prototype.subscribe = async () =>
        ({
          endpoint: s.endpoint,
          expirationTime: null,
          toJSON: () => ({ ...s, expirationTime: null }),
          unsubscribe: async () => true,
        }) as unknown as PushSubscription;
    }, sub);
    await e2e.login(page, maya.email);
    await page.goto('/settings#push');
    await controlled(page);
    const section = page.locator('#push');
    await section.getByRole('button', { name: 'Turn on' }).click();
    // Turned on, or the app's own refusal, named; neither, what the section showed instead (a CI
    // run at Monday 00:01 saw neither within 30 s).
    const refused = page.getByText("Couldn't turn notifications on");
    await section
      .getByTestId('push-this-device')
      .or(refused)
      .waitFor()
      .catch(async (err) => {
        throw new Error(`After Turn on, the push section showed: ${await section.textContent()}`, { cause: err });
      });
    if (await refused.isVisible()) throw new Error(`Turn on refused: ${await refused.locator('xpath=..').textContent()}`);
    expect(await section.getByRole('switch', { name: 'Show names and previews' }).getAttribute('aria-checked')).toBe('false');
    await section.scrollIntoViewIfNeeded();
    await viewportShot(page, 'push-settings-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await section.getByRole('switch', { name: 'Quiet hours' }).click();
    await section.getByLabel('From').waitFor();
    await section.getByText('Devices with notifications').scrollIntoViewIfNeeded();
    await viewportShot(page, 'push-settings-375-dark');
    // Off again: the default window (22:00–07:00) would rightly hold the push below back at night.
    await section.getByRole('switch', { name: 'Quiet hours' }).click();
    await section.getByLabel('From').waitFor({ state: 'detached' });
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await page.setViewportSize({ width: 1280, height: 800 });

    // Maya reads elsewhere; Rhys writes. The server pushes through the stand-in, which decrypts.
    await page.goto('/home');
    await sendMessage(e2e.app, rhys.id, matchId, { body: 'Fancy a pint at the Crown on Friday?' });
    await pushIdle(e2e.app);
    const received = await until(() => push.received.find((r) => r.path === new URL(sub.endpoint).pathname), 'the push');
    expect(received.payload).toEqual({
      title: 'Fancy',
      body: 'You have a new message',
      url: `/messages/${matchId}`,
      tag: `conversation:${matchId}`,
    });

    // What the push service would deliver to the browser: the decrypted payload. Under load a
    // delivery through DevTools now and then reaches no running worker and is dropped (a CI run at
    // 01:30 saw no notification in 30 s); a push service delivers again, and so does this, with the
    // same tag, so a second delivery replaces the first rather than adding one.
    const notifications = () =>
      page.evaluate(async () =>
        (await navigator.serviceWorker.ready)
          .getNotifications()
          .then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }))),
      );
    let shown: Awaited<ReturnType<typeof notifications>>[number] | undefined;
    for (let attempt = 1; !shown; attempt++) {
      const { cdp, id } = await registrationId(context, page);
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: e2e.baseUrl,
        registrationId: id,
        data: JSON.stringify(received.payload),
      });
      shown = await until(async () => (await notifications())[0], 'the notification', 10_000).catch((err) => {
        if (attempt >= 3) throw err;
        return undefined;
      });
      await cdp.detach();
    }
    expect(await notifications()).toHaveLength(1);
    expect(shown).toEqual({
      title: 'Fancy',
      body: 'You have a new message',
      tag: `conversation:${matchId}`,
      data: { url: `/messages/${matchId}` },
    });
    expect(JSON.stringify(shown)).not.toMatch(/Rhys|pint/);

    // A lock-screen rendering of exactly what was shown, for the closing note.
    const { page: lock } = await e2e.newPage({ width: 375, height: 300 });
    // On our origin, so the icon loads (its Cross-Origin-Resource-Policy is same-origin).
    await lock.goto('/robots.txt');
    await lock.setContent(
      `<body style="margin:0;height:100vh;background:linear-gradient(160deg,#2b1d3a,#6a1b4d);font-family:system-ui,sans-serif;display:flex;align-items:flex-start;justify-content:center;padding-top:40px">
        <div style="width:343px;border-radius:18px;background:rgba(255,255,255,.86);padding:12px 14px;display:flex;gap:10px;box-shadow:0 8px 24px rgba(0,0,0,.25)">
          <img src="${e2e.baseUrl}/icons/icon-192.png" width="38" height="38" style="border-radius:9px" />
          <div><div style="font-weight:600;font-size:15px" id="t"></div><div style="font-size:14px;color:#333" id="b"></div></div>
        </div></body>`,
    );
    await lock.evaluate(({ title, body }) => {
      (document.getElementById('t') as HTMLElement).textContent = title;
      (document.getElementById('b') as HTMLElement).textContent = body;
    }, shown);
    await lock.waitForLoadState('networkidle');
    await viewportShot(lock, 'push-notification-lock-screen');

    // The tap: the worker's notificationclick, replayed in the worker itself (CDP cannot click a notification).
    const worker = await until(() => context.serviceWorkers().find((w) => w.url().startsWith(e2e.baseUrl)), 'the worker');
    await worker.evaluate(async () => {
      // Worker-scope types are not in this project's DOM lib.
      const sw = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(e: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [n] = await sw.registration.getNotifications();
      sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: n }));
    });
    await page.waitForURL(`**/messages/${matchId}`);
    await page.getByText('Fancy a pint at the Crown on Friday?').last().waitFor();
    await context.close();
  });

  it('the install entry sits quietly in the account menu when the browser offers installation', async () => {
    const m = await member('Ivy Install');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await page.goto('/home');
    // Chromium fires beforeinstallprompt on its own schedule (engagement); hand the page the offer now.
    await page.evaluate(() => {
      const offer = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
        prompt(): Promise<void>;
        userChoice: Promise<unknown>;
      };
      offer.prompt = async () => {
        (window as unknown as { prompted: boolean }).prompted = true;
      };
      offer.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(offer);
    });
    await page
      .getByRole('button', { name: /Account menu/ })
      .first()
      .click();
    const item = page.getByRole('menuitem', { name: 'Install Fancy' });
    await item.waitFor();
    await viewportShot(page, 'install-entry-1280');
    await item.click();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    await context.close();
  });
});

describe('from the outside', () => {
  it('an unknown path is a 404 with the app’s not-found page; a member page reloads fine', async () => {
    const { context, page } = await e2e.newPage();
    const res = await page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
    const member = await page.goto('/auth/register');
    expect(member?.status()).toBe(200);
    await context.close();
  });

  it('a shared link previews with a picture, from the served HTML alone', async () => {
    const html = await (await fetch(`${e2e.baseUrl}/`)).text();
    const tag = (p: string) => html.match(new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)"`))?.[1] ?? '';
    const image = tag('og:image');
    expect(image).toBe(`${e2e.baseUrl}/og-image.png`);
    const img = await fetch(image);
    expect(img.headers.get('content-type')).toBe('image/png');
    const { page } = await e2e.newPage({ width: 600, height: 520 });
    await page.goto('/robots.txt');
    await page.setContent(
      `<body style="margin:0;padding:24px;background:#e9edef;font-family:system-ui,sans-serif">
        <div style="max-width:520px;background:#fff;border-radius:12px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.15)">
          <img id="i" style="display:block;width:100%;aspect-ratio:1200/630" />
          <div style="padding:10px 14px"><div id="h" style="font-size:12px;color:#667"></div><div id="t" style="font-weight:600;margin:2px 0"></div><div id="d" style="font-size:14px;color:#444"></div></div>
        </div></body>`,
    );
    await page.evaluate(
      (v) => {
        (document.getElementById('i') as HTMLImageElement).src = v.image;
        (document.getElementById('h') as HTMLElement).textContent = new URL(v.url).host;
        (document.getElementById('t') as HTMLElement).textContent = v.title;
        (document.getElementById('d') as HTMLElement).textContent = v.description;
      },
      { image, url: tag('og:url'), title: tag('og:title'), description: tag('og:description').replace(/&#39;/g, "'") },
    );
    await page.waitForFunction(() => (document.getElementById('i') as HTMLImageElement).naturalWidth === 1200);
    await viewportShot(page, 'link-preview');
  });
});
