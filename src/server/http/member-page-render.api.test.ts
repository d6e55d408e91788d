import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMixer, joinMixer } from '../../../tests/helpers/mixer-fixtures';
import { completeProfile } from '../../../tests/helpers/profile-fixtures';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { SERVER_RENDERER_DIR } from '../../shared/route-preload';
import { buildApp } from '../app';
import { PAGE_REQUESTS_PACE, SERVER_PAGES_PACE, SERVER_PAGES_PER_MEMBER, SERVER_RENDERS_AT_ONCE, TOO_MANY_PAGES } from './member-page';

/**
 * Member pages rendered on the server (decision 028): which requests get the markup, made from
 * which answers. The renderer here is a stand-in that writes back what it was given (the real one,
 * src/client/ssr.tsx, is tried in a browser by tests/e2e/server-rendered.e2e.ts).
 */
let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
let clientDir: string;
beforeAll(async () => {
  t = await createTestApp();
  clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-ssr-client-'));
  mkdirSync(path.join(clientDir, 'routes'));
  mkdirSync(path.join(clientDir, SERVER_RENDERER_DIR));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
  for (const page of ['home', 'settings', 'mixer'])
    writeFileSync(path.join(clientDir, 'routes', `${page}.html`), '<!doctype html><body><div id="root"></div></body>');
  writeFileSync(
    path.join(clientDir, SERVER_RENDERER_DIR, 'entry.mjs'),
    `export async function renderMemberPage(url, answers, cookies, renderedAt) {
       globalThis.fancyRendersRunning = (globalThis.fancyRendersRunning ?? 0) + 1;
       try {
         const held = /hold=(\\w+)/.exec(cookies)?.[1];
         if (held) {
           const state = globalThis.fancyRenderHold;
           state.now[held] = (state.now[held] ?? 0) + 1;
           state.most[held] = Math.max(state.most[held] ?? 0, state.now[held]);
           await state.gate;
           state.now[held]--;
         }
         if (url === '/settings' && cookies.includes('slow=1')) await new Promise((r) => setTimeout(r, 3000));
         if (url === '/settings' && cookies.includes('fail=1')) throw new Error('render failed');
         const name = answers['/api/auth/session'].user.name;
         return '<main>rendered ' + url + ' for ' + name + ' as of ' + renderedAt + ' &lt;' + Object.keys(answers).join(',') + '&gt;</main>';
       } finally {
         globalThis.fancyRendersRunning--;
       }
     }`,
  );
  app = await buildApp({ ...t.deps, clientDir });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const ready = async (cookie: string) => {
  // The renderer loads after the first page request (not at start-up): wait until it answers.
  for (let i = 0; i < 50; i++) {
    const res = await app.inject({ method: 'GET', url: '/home', headers: { cookie, 'accept-encoding': 'identity' } });
    if (res.body.includes('data-ssr')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the renderer never answered');
};

async function onboardedMember(name: string) {
  const m = await t.member(name);
  await completeProfile(t.database.db, m.id);
  return m;
}

const page = (url: string, cookie?: string) =>
  app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...(cookie ? { cookie } : {}) } });

describe('member pages rendered on the server', () => {
  it("a member past the gates gets the page rendered from that page's own first reads, waiting for the app until it takes over", async () => {
    const maya = await onboardedMember('Maya Rendered');
    await ready(maya.cookie);
    const res = await page('/settings', maya.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const root =
      /<div id="root" data-ssr="(\d+)" data-waiting-for-app><main>rendered \/settings for Maya Rendered as of (\d+) &lt;([^&]*)&gt;<\/main><\/div>/.exec(
        res.body,
      );
    expect(root).not.toBeNull();
    // The instant the page was rendered as of is the one the app hydrates it with (lib/clock).
    expect(root?.[1]).toBe(root?.[2]);
    expect(root?.[3]).toBe('/api/auth/session,/api/stats,/api/settings,/api/me/sessions,/api/push/devices,/api/settings/hidden-words');
  });

  it('each member gets their own page, however many are rendered at once', async () => {
    const members = await Promise.all(['Ann', 'Ben', 'Cat', 'Dan'].map((n) => onboardedMember(`${n} Parallel`)));
    await ready(members[0].cookie);
    // As many at once as the renderer takes (SERVER_RENDERS_AT_ONCE), each member within their share.
    const each = SERVER_PAGES_PER_MEMBER;
    const pages = await Promise.all(members.flatMap((m) => Array.from({ length: each }, () => page('/home', m.cookie))));
    pages.forEach((res, i) => {
      const own = ['Ann', 'Ben', 'Cat', 'Dan'][Math.floor(i / each)];
      // A page the renderer had no room for goes without the render, never with another's.
      if (res.body.includes('data-ssr')) expect(res.body).toMatch(new RegExp(`rendered /home for ${own} Parallel`));
      expect(res.body).toContain(`"name":"${own} Parallel"`);
      for (const other of ['Ann', 'Ben', 'Cat', 'Dan'].filter((o) => o !== own)) expect(res.body).not.toContain(`${other} Parallel`);
    });
    expect(pages.filter((res) => res.body.includes('data-ssr')).length).toBeGreaterThanOrEqual(SERVER_RENDERS_AT_ONCE);
  });

  it('is not rendered for anyone the page would not show itself to: signed out, address unconfirmed, not onboarded', async () => {
    const maya = await onboardedMember('Maya Gate');
    await ready(maya.cookie);
    const unverified = await t.member('Una Unverified', { verified: false });
    const fresh = await t.member('Fred Fresh');
    for (const cookie of [undefined, unverified.cookie, fresh.cookie]) {
      const res = await page('/settings', cookie);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('data-ssr');
      expect(res.body).toContain('<div id="root"></div>');
    }
  });

  it("a mixer's page is rendered for someone not in it, without its chat (refused to them); a mixer that is not there is left to the browser", async () => {
    const nia = await onboardedMember('Nia Notjoined');
    const jo = await onboardedMember('Jo Joined');
    await ready(nia.cookie);
    const mixerId = await createMixer(t, { status: 'scheduled', startsInMinutes: 120 });
    await joinMixer(t, mixerId, [jo.id]);
    const outside = await page(`/mixers/${mixerId}`, nia.cookie);
    expect(outside.body).toContain(`rendered /mixers/${mixerId} for Nia Notjoined`);
    // Rendered from the reads that answered: the chat's refusal is not among them.
    expect(outside.body).not.toMatch(new RegExp(`&lt;[^&]*/api/mixers/${mixerId}/messages`));
    expect(outside.body).toMatch(new RegExp(`&lt;[^&]*/api/mixers/${mixerId},`));
    const inside = await page(`/mixers/${mixerId}`, jo.cookie);
    expect(inside.body).toMatch(new RegExp(`&lt;[^&]*/api/mixers/${mixerId}/messages`));
    // A mixer that is not there: its reads answer 404, and nothing is rendered.
    const missing = await page('/mixers/00000000-0000-4000-8000-000000000000', nia.cookie);
    expect(missing.body).not.toContain('data-ssr');
  });

  it('a page with a read that did not answer, or with a query string, is left to the browser', async () => {
    const maya = await onboardedMember('Maya Partial');
    await ready(maya.cookie);
    // No such mixer: its reads answer 404, so the page has not all it needs.
    expect((await page('/mixers/no-such-mixer', maya.cookie)).body).not.toContain('data-ssr');
    expect((await page('/settings?tab=privacy', maya.cookie)).body).not.toContain('data-ssr');
  });

  it('a render that fails, or takes longer than the page may wait, sends the page without it', async () => {
    const maya = await onboardedMember('Maya Slow');
    await ready(maya.cookie);
    for (const flag of ['fail=1', 'slow=1']) {
      const res = await page('/settings', `${maya.cookie}; ${flag}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('data-ssr');
      expect(res.body).toContain('id="fancy-data"');
    }
  });
});

const until = async (done: () => boolean) => {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!done()) throw new Error('never happened');
};

/**
 * Renders of the stand-in held back (cookie `hold=<name>`) until `release()`; counted per name.
 * Starts once no render of an earlier test (the slow one) is still running.
 */
async function holdRenders() {
  await until(() => !(globalThis as { fancyRendersRunning?: number }).fancyRendersRunning);
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = { gate, now: {} as Record<string, number>, most: {} as Record<string, number> };
  (globalThis as { fancyRenderHold?: typeof state }).fancyRenderHold = state;
  return { state, release };
}

describe('server renders are shared out (issue 32)', () => {
  it("one member's flood of page requests gets the shell at once for pages over their share; another member is still rendered", async () => {
    const flo = await onboardedMember('Flo Flood');
    const oti = await onboardedMember('Oti Other');
    await ready(oti.cookie);
    const { state, release } = await holdRenders();
    const flood = Array.from({ length: 12 }, () => page('/home', `${flo.cookie}; hold=flo`));
    let settled = 0;
    for (const p of flood) void p.then(() => settled++);
    // While the member's first pages are still in the renderer, the rest have come back already.
    await until(() => (state.now.flo ?? 0) >= 1 && settled >= 12 - SERVER_PAGES_PER_MEMBER);
    const other = await page('/home', oti.cookie);
    expect(other.body).toContain('rendered /home for Oti Other');
    // Over the share, as a browser asks for it: the shell, compressed, with no first reads in it.
    const shell = await app.inject({ method: 'GET', url: '/home', headers: { cookie: flo.cookie, 'accept-encoding': 'br' } });
    expect(shell.headers['content-encoding']).toBe('br');
    expect(shell.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(shell.rawPayload).toString()).toBe('<!doctype html><body><div id="root"></div></body>');
    release();
    const pages = await Promise.all(flood);
    expect(state.most.flo).toBeLessThanOrEqual(SERVER_PAGES_PER_MEMBER);
    const shells = pages.filter((res) => !res.body.includes('data-ssr'));
    expect(shells.length).toBeGreaterThanOrEqual(12 - SERVER_PAGES_PER_MEMBER);
    for (const res of pages) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('<div id="root"');
    }
  });

  it("a member asking for page after page gets the shell once past their pace; another member's pages are still built", async () => {
    const rex = await onboardedMember('Rex Repeat');
    const oti = await onboardedMember('Oti Paced');
    await ready(rex.cookie);
    // One at a time (never over the member's share at once), with the clock held: the pace alone decides.
    vi.useFakeTimers({ toFake: ['Date'] });
    const bodies: string[] = [];
    try {
      for (let i = 0; i < SERVER_PAGES_PACE.limit + 5; i++) bodies.push((await page('/home', rex.cookie)).body);
    } finally {
      vi.useRealTimers();
    }
    const built = bodies.filter((b) => b.includes('id="fancy-data"'));
    expect(built.length).toBeGreaterThan(0);
    expect(built.length).toBeLessThanOrEqual(SERVER_PAGES_PACE.limit);
    // The last ones are the shell: no first reads, no render, and no member data in them.
    for (const body of bodies.slice(-3)) {
      expect(body).toBe('<!doctype html><body><div id="root"></div></body>');
      expect(body).not.toContain('Rex Repeat');
    }
    const other = await page('/home', oti.cookie);
    expect(other.body).toContain('rendered /home for Oti Paced');
  }, 240_000);

  it("a member asking for pages in a loop is refused past their pace (429, said in words); another member's pages still come", async () => {
    const lou = await onboardedMember('Lou Loop');
    const oti = await onboardedMember('Oti Unbothered');
    await ready(lou.cookie);
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers: { statusCode: number; body: string; retry?: string }[] = [];
    try {
      // In batches as a script would (each within the member's share of builds: the shell is quick).
      for (let i = 0; i < PAGE_REQUESTS_PACE.limit + 2; i += 10) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => page('/home', lou.cookie)));
        answers.push(...batch.map((r) => ({ statusCode: r.statusCode, body: r.body, retry: r.headers['retry-after'] as string })));
      }
    } finally {
      vi.useRealTimers();
    }
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(ok.length).toBeLessThanOrEqual(PAGE_REQUESTS_PACE.limit);
    expect(refused.length).toBeGreaterThan(0);
    expect(ok.length + refused.length).toBe(answers.length);
    expect(JSON.parse(refused[0].body).error.message).toBe(TOO_MANY_PAGES);
    expect(Number(refused[0].retry)).toBeGreaterThanOrEqual(1);
    const other = await page('/home', oti.cookie);
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('rendered /home for Oti Unbothered');
  }, 240_000);

  it('a page that finds the renderer busy is sent at once without the render, with its first reads', async () => {
    const names = Array.from({ length: SERVER_RENDERS_AT_ONCE }, (_, i) => `Busy${i}`);
    const members = await Promise.all(names.map((n) => onboardedMember(`${n} Member`)));
    const late = await onboardedMember('Lea Late');
    await ready(late.cookie);
    const { state, release } = await holdRenders();
    const busy = members.map((m, i) => page('/home', `${m.cookie}; hold=${names[i]}`));
    await until(() => names.every((n) => state.now[n] === 1));
    const res = await page('/home', `${late.cookie}; hold=late`);
    release();
    await Promise.all(busy);
    expect(state.most.late ?? 0).toBe(0);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('data-ssr');
    expect(res.body).toContain('id="fancy-data"');
    expect(res.body).toContain('Lea Late');
  });
});
