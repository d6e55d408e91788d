import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { buildApp } from '../app';

/** Member pages sent with their chunks named and their first reads preloaded (decision 018). */
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
  writeFileSync(path.join(clientDir, 'routes', 'home.html'), '<!doctype html>home');
  withClient = await buildApp({ ...t.deps, clientDir });
});
afterAll(async () => {
  await withClient?.close();
  await t?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('member pages start their code and data with the HTML', () => {
  it("a member page is its route's HTML, no-cache, with its first reads in a Link header", async () => {
    const res = await withClient.inject({ method: 'GET', url: '/mixers/m-1?from=list' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('modulepreload');
    expect(String(res.headers.link).split(', ')).toEqual([
      '</api/auth/session>; rel=preload; as=fetch; crossorigin',
      '</api/stats>; rel=preload; as=fetch; crossorigin',
      '</api/mixers/m-1>; rel=preload; as=fetch; crossorigin',
      '</api/mixers/m-1/messages>; rel=preload; as=fetch; crossorigin',
      '</api/fancies?mixerId=m-1>; rel=preload; as=fetch; crossorigin',
    ]);
    const home = await withClient.inject({ method: 'GET', url: '/home' });
    expect(home.body).toBe('<!doctype html>home');
    expect(home.headers.link).toContain('</api/invitations>');
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

  it('the preloaded reads stay behind sign-in: the HTML carries no member data, the reads answer 401 without a session', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/profile' });
    expect(res.body).toContain('plain');
    for (const read of ['/api/profile', '/api/settings', '/api/stats']) {
      expect((await withClient.inject({ method: 'GET', url: read })).statusCode, read).toBe(401);
    }
  });

  it('hashed assets keep long-lived immutable caching, so a warm visit fetches no script again', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
