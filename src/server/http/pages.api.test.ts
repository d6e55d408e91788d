import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app';
import { buildApp } from '../app';
import { campaigns } from '../db/schema';

const TEMPLATE = `<!doctype html>
<html lang="en-GB">
  <head>
    <meta name="description" content="placeholder" />
    <title>Fancy</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  const clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
  mkdirSync(path.join(clientDir, 'prerendered'));
  writeFileSync(path.join(clientDir, 'index.html'), TEMPLATE);
  writeFileSync(
    path.join(clientDir, 'prerendered', 'landing.html'),
    TEMPLATE.replace('<div id="root"></div>', '<div id="root" data-prerendered="">Hello</div>'),
  );
  app = await buildApp({ ...t.deps, clientDir });
  await t.database.db.insert(campaigns).values({ label: 'Freshers’ Fair <Bristol> & "friends"', code: 'FRESH26' });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const meta = (html: string, property: string) => html.match(new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`))?.[1];

describe('link previews in the HTML the server sends', () => {
  it('the landing page: prerendered content with Open Graph and Twitter card tags', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-prerendered="">Hello');
    expect(meta(res.body, 'og:title')).toBe('Fancy');
    expect(meta(res.body, 'og:url')).toBe(`${TEST_ORIGIN}/`);
    expect(meta(res.body, 'og:image')).toBe(`${TEST_ORIGIN}/og-image.png`);
    expect(meta(res.body, 'og:image:width')).toBe('1200');
    expect(meta(res.body, 'og:image:height')).toBe('630');
    expect(meta(res.body, 'twitter:card')).toBe('summary_large_image');
    expect(meta(res.body, 'og:description')).toMatch(/themed group chats/);
    expect(meta(res.body, 'description')).toMatch(/themed group chats/);
    expect(res.body).toContain(`<link rel="canonical" href="${TEST_ORIGIN}/" />`);
    // Compressed like every other text answer.
    const br = await get('/', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
  });

  it('a campaign link previews with the admin’s label for its code, escaped; address text never appears', async () => {
    const res = await get('/campaign?code=fresh26&label=%3Cscript%3Ealert(1)%3C%2Fscript%3E%20Free%20money');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta property="og:title" content="Freshers’ Fair &lt;Bristol&gt; &amp; &quot;friends&quot; · Fancy" />');
    expect(res.body).toContain('<title>Freshers’ Fair &lt;Bristol&gt; &amp; &quot;friends&quot; · Fancy</title>');
    expect(meta(res.body, 'og:url')).toBe(`${TEST_ORIGIN}/campaign?code=FRESH26`);
    expect(res.body).not.toMatch(/<script|alert\(|Free money/i);

    const unknown = await get('/campaign?code=%22%3E%3Ch1%3ESpoof&utm_source=evil&label=We%20are%20closed');
    expect(unknown.statusCode).toBe(200);
    expect(meta(unknown.body, 'og:title')).toBe('Welcome to Fancy');
    expect(unknown.body).not.toMatch(/Spoof|evil|closed/);
    const made = await get('/campaign?code=NOPE99&label=Totally%20official');
    expect(made.body).not.toMatch(/NOPE99|Totally/);

    // An admin renames the campaign: the next preview says so.
    await t.database.db.update(campaigns).set({ label: 'Spring Fair' }).where(eq(campaigns.code, 'FRESH26'));
    expect(meta((await get('/campaign?code=FRESH26')).body, 'og:title')).toBe('Spring Fair · Fancy');
  });

  it('member pages load on reload but are not indexed', async () => {
    for (const url of ['/home', '/messages/8d2b0ad8-2b7b-4f0f-9f3a-8c0b1f0f1a11', '/mixers/abc/after', '/settings/', '/admin/metrics']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
      expect(res.body, url).not.toContain('og:title');
    }
  });
});

describe('unknown paths are 404', () => {
  it('with the app’s page (which shows its not-found screen) for pages, JSON for the API and files', async () => {
    for (const url of ['/no-such-page', '/blog~', '/home/extra', '/messages/a/b', '/admin/secrets', '/%2e%2e/etc']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).toContain('<title>Page not found · Fancy</title>');
      expect(res.body, url).toContain('noindex');
    }
    const head = await app.inject({ method: 'HEAD', url: '/no-such-page' });
    expect(head.statusCode).toBe(404);
    for (const url of ['/api/nope', '/backup.zip', '/assets/gone-123.js', '/.env']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe('not_found');
    }
  });
});

describe('crawler files', () => {
  it('robots.txt allows the signed-out pages and keeps crawlers out of the API, admin and member pages', async () => {
    const res = await t.request({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const line of [
      'Allow: /$',
      'Allow: /auth/register',
      'Allow: /terms',
      'Disallow: /api/',
      'Disallow: /admin',
      'Disallow: /messages',
      'Disallow: /settings',
    ]) {
      expect(res.body).toContain(line);
    }
    expect(res.body).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
  });

  it('sitemap.xml lists the signed-out pages', async () => {
    const res = await t.request({ method: 'GET', url: '/sitemap.xml' });
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(TEST_ORIGIN, ''));
    expect(locs).toEqual(['/', '/auth/register', '/auth/login', '/terms', '/privacy', '/contact-support']);
  });

  it('security.txt gives the configured contact and an expiry within a year', async () => {
    const res = await t.request({ method: 'GET', url: '/.well-known/security.txt' });
    expect(res.body).toContain('Contact: mailto:support@fancy.example');
    const expires = new Date(res.body.match(/^Expires: (.+)$/m)?.[1] ?? '');
    expect(expires.getTime()).toBeGreaterThan(Date.now());
    expect(expires.getTime()).toBeLessThan(Date.now() + 365 * 86_400_000);
    const custom = await createTestApp({ SECURITY_CONTACT: 'https://fancy.example/security' });
    expect((await custom.request({ method: 'GET', url: '/.well-known/security.txt' })).body).toContain(
      'Contact: https://fancy.example/security',
    );
    await custom.close();
  });
});
