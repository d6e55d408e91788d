import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { profiles } from '../db/schema';
import { buildApp } from '../app';

/** Member pages sent with their chunks named and their first reads' answers in them (decision 018). */
let t: TestApp;
let withClient: Awaited<ReturnType<typeof buildApp>>;
let clientDir: string;
beforeAll(async () => {
  t = await createTestApp();
  clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  mkdirSync(path.join(clientDir, 'routes'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Fancy</title>plain');
  writeFileSync(path.join(clientDir, 'assets', 'app-1.js'), 'export {}');
  // A build with the mixer page's HTML, not the matches page's.
  writeFileSync(path.join(clientDir, 'routes', 'mixer.html'), '<!doctype html><link rel="modulepreload" href="/assets/app-1.js">mixer');
  writeFileSync(path.join(clientDir, 'routes', 'home.html'), '<!doctype html><body>home</body>');
  writeFileSync(path.join(clientDir, 'routes', 'settings.html'), '<!doctype html><body>settings</body>');
  withClient = await buildApp({ ...t.deps, clientDir });
});
afterAll(async () => {
  await withClient?.close();
  await t?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

/** The JSON a member page carries, parsed as the app reads it. */
function embedded(html: string): Record<string, unknown> {
  const m = /<script type="application\/json" id="fancy-data">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error('no embedded data in the page');
  return JSON.parse(m[1]) as Record<string, unknown>;
}

describe('member pages start their code and data with the HTML', () => {
  it("a member page is its route's HTML with its first reads' answers, exactly as the API gives them to that member, never stored", async () => {
    const maya = await t.member('Maya Embed');
    const res = await withClient.inject({ method: 'GET', url: '/settings', headers: { cookie: maya.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers.vary)).toContain('cookie');
    expect(res.headers.link).toBeUndefined();
    expect(res.body).toContain('settings');
    const data = embedded(res.body);
    expect(Object.keys(data)).toEqual([
      '/api/auth/session',
      '/api/stats',
      '/api/settings',
      '/api/me/sessions',
      '/api/push/devices',
      '/api/settings/hidden-words',
    ]);
    for (const url of Object.keys(data)) {
      const direct = (await withClient.inject({ method: 'GET', url, headers: { cookie: maya.cookie } })).json();
      // The sessions list says when each was last used (now, for this one): the same sessions.
      if (url === '/api/me/sessions') {
        const ids = (v: unknown) => (v as { sessions: { id: string }[] }).sessions.map((x) => x.id);
        expect(ids(data[url])).toEqual(ids(direct));
      } else expect(data[url], url).toEqual(direct);
    }
    expect((data['/api/auth/session'] as { user: { email: string } }).user.email).toBe(maya.email);

    // Another member gets their own answers; a page without a session only the signed-out session answer.
    const sam = await t.member('Sam Embed');
    const other = embedded((await withClient.inject({ method: 'GET', url: '/settings', headers: { cookie: sam.cookie } })).body);
    expect((other['/api/auth/session'] as { user: { email: string } }).user.email).toBe(sam.email);
    const nobody = await withClient.inject({ method: 'GET', url: '/settings' });
    expect(embedded(nobody.body)).toEqual({ '/api/auth/session': { user: null, session: null, profile: null } });
    expect(nobody.body).not.toContain(maya.email);
  });

  it('the ids of /mixers/:id go into its reads; a read that is refused is left out for the app to ask itself', async () => {
    const maya = await t.member('Maya Mixer');
    const res = await withClient.inject({ method: 'GET', url: '/mixers/m-1?from=list', headers: { cookie: maya.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('modulepreload');
    // No such mixer: its reads answer 4xx and are not in the page; the session and counters are.
    expect(Object.keys(embedded(res.body))).toEqual(['/api/auth/session', '/api/stats', '/api/settings/hidden-words']);
  });

  it('nothing a member wrote can end the script element: the JSON is escaped, and parses back to the same text', async () => {
    const evil = '</script><script>alert(1)</script><!-- & \u2028';
    const m = await t.member('Evil Name');
    await t.database.db.update(profiles).set({ fullName: evil }).where(eq(profiles.id, m.id));
    const res = await withClient.inject({ method: 'GET', url: '/home', headers: { cookie: m.cookie, 'accept-encoding': 'identity' } });
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body.match(/<\/script>/g)).toHaveLength(1);
    const data = embedded(res.body);
    expect((data['/api/auth/session'] as { profile: { fullName: string } }).profile.fullName).toBe(evil);
  });

  it('the page is compressed for browsers that accept it', async () => {
    const m = await t.member('Brotli Page');
    const res = await withClient.inject({ method: 'GET', url: '/home', headers: { cookie: m.cookie, 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBe('br');
    const { brotliDecompressSync } = await import('node:zlib');
    expect(embedded(brotliDecompressSync(res.rawPayload).toString())['/api/auth/session']).toMatchObject({ user: { email: m.email } });
  });

  it('a page the build has no route HTML for and an id that is not one get the plain SPA page without hints; an unknown path a 404', async () => {
    for (const url of ['/matches', '/mixers/a%3Cb', '/mixers/m-1/after']) {
      const res = await withClient.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('plain');
      expect(res.headers.link, url).toBeUndefined();
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // Not a route at all (decision 021): the app's not-found page, with no hints either.
    const unknown = await withClient.inject({ method: 'GET', url: '/no-such-page' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.link).toBeUndefined();
  });

  it('the reads stay behind sign-in: without a session the page carries no member data and the reads answer 401', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/home' });
    expect(Object.keys(embedded(res.body))).toEqual(['/api/auth/session']);
    for (const read of ['/api/profile', '/api/settings', '/api/stats']) {
      expect((await withClient.inject({ method: 'GET', url: read })).statusCode, read).toBe(401);
    }
  });

  it('hashed assets keep long-lived immutable caching, so a warm visit fetches no script again', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
