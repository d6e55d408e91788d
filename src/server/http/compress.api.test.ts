import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { precompressDir } from '../../../vite.config';
import { buildApp } from '../app';
import { COMPRESS_MIN_BYTES, negotiateEncoding } from './compress';

/** A script of repetitive text (compresses well) of about `bytes`. */
const script = (bytes: number) => `/* app */\n${'export const greeting = "Hello from Fancy";\n'.repeat(Math.ceil(bytes / 44))}`;
const BIG_JS = script(20_000);
const SMALL_JS = 'console.log(1)';
const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ id: i, name: `Mixer number ${i}`, theme: 'Board games' })) });

function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  expect(encoding).toBeUndefined();
  return res.body;
}

let t: TestApp;
let withClient: Awaited<ReturnType<typeof buildApp>>;
let clientDir: string;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      setup(app) {
        app.get('/api/test/large', async () => items(60));
        app.get('/api/test/huge', async () => items(3000));
        app.get('/api/test/small', async () => ({ ok: true }));
        app.get('/api/test/text', async (_req, reply) => reply.type('text/plain').send('x'.repeat(5000)));
        app.get('/api/auth/test-large', async () => items(60));
      },
    },
  );
  clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><title>Fancy</title><!--${'x'.repeat(2000)}-->`);
  writeFileSync(path.join(clientDir, 'assets', 'app-1.js'), BIG_JS);
  writeFileSync(path.join(clientDir, 'assets', 'tiny-1.js'), SMALL_JS);
  writeFileSync(path.join(clientDir, 'assets', 'photo-1.png'), Buffer.alloc(4000, 7));
  // A build with the landing and login pages prerendered, not the register page.
  mkdirSync(path.join(clientDir, 'prerendered'));
  writeFileSync(
    path.join(clientDir, 'prerendered', 'landing.html'),
    `<!doctype html><div id="root" data-prerendered="">Meet people${' '.repeat(1200)}</div>`,
  );
  writeFileSync(path.join(clientDir, 'prerendered', 'login.html'), '<!doctype html><div id="root" data-prerendered="">Welcome back</div>');
  // What the build does (vite.config.ts): .br and .gz beside every text asset worth it.
  await precompressDir(clientDir);
  withClient = await buildApp({ ...t.deps, clientDir });
});
afterAll(async () => {
  await withClient?.close();
  await t?.close();
});

describe('pre-compressed build assets', () => {
  it('the build writes .br and .gz beside text assets, not beside tiny files or images', () => {
    for (const f of ['assets/app-1.js', 'index.html']) {
      expect(existsSync(path.join(clientDir, `${f}.br`))).toBe(true);
      expect(existsSync(path.join(clientDir, `${f}.gz`))).toBe(true);
    }
    for (const f of ['assets/tiny-1.js.br', 'assets/tiny-1.js.gz', 'assets/photo-1.png.br', 'assets/photo-1.png.gz']) {
      expect(existsSync(path.join(clientDir, f))).toBe(false);
    }
  });

  it('answers brotli when accepted, gzip when only that is, identity otherwise, always with Vary', async () => {
    const url = '/assets/app-1.js';
    const br = await withClient.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await withClient.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    const none = await withClient.inject({ method: 'GET', url });
    const refused = await withClient.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect([br, gz, none, refused].map((r) => r.headers['content-encoding'])).toEqual(['br', 'gzip', undefined, undefined]);
    for (const res of [br, gz, none, refused]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      // Hashed assets keep their long-lived immutable caching.
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Security headers (decision 005) on every variant.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(decoded(res)).toBe(BIG_JS);
    }
    expect(Number(br.headers['content-length'])).toBeLessThan(BIG_JS.length / 5);
    expect(Number(none.headers['content-length'])).toBe(BIG_JS.length);
  });

  it('sends small files as they are', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/assets/tiny-1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SMALL_JS);
  });

  it('the SPA page is compressed too and stays no-cache', async () => {
    for (const url of ['/home', '/mixers/abc']) {
      const res = await withClient.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(decoded(res)).toContain('<title>Fancy</title>');
    }
  });

  it('the signed-out entry pages are sent with their prerendered HTML when the build has it', async () => {
    const landing = await withClient.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(landing.headers['content-encoding']).toBe('br');
    expect(decoded(landing)).toContain('Meet people');
    const login = await withClient.inject({ method: 'GET', url: '/auth/login?next=%2Fmixers' });
    expect(login.body).toContain('Welcome back');
    for (const res of [landing, login]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
    // Not prerendered in this build, and member pages: the plain SPA page.
    for (const url of ['/auth/register', '/home', '/auth/forgot-password']) {
      const res = await withClient.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/<title>[^<]*Fancy<\/title>/);
      expect(res.body).not.toContain('data-prerendered');
    }
  });

  it('a missing asset is still a 404, whatever the client accepts', async () => {
    const res = await withClient.inject({ method: 'GET', url: '/assets/nope-1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('compressed JSON answers', () => {
  it('a large JSON answer is compressed for a client that accepts it, with Vary', async () => {
    const expected = JSON.stringify(items(60));
    expect(expected.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const br = await t.request({ method: 'GET', url: '/api/test/large', headers: { 'accept-encoding': 'gzip, br' } });
    const gz = await t.request({ method: 'GET', url: '/api/test/large', headers: { 'accept-encoding': 'gzip' } });
    const none = await t.request({ method: 'GET', url: '/api/test/large' });
    expect([br, gz, none].map((r) => r.headers['content-encoding'])).toEqual(['br', 'gzip', undefined]);
    for (const res of [br, gz, none]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(decoded(res)).toBe(expected);
    }
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(expected.length / 3);
  });

  it('a very large answer (compressed off the event loop) arrives whole', async () => {
    const res = await t.request({ method: 'GET', url: '/api/test/huge', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(res))).toEqual(items(3000));
  });

  it('a small JSON answer is never compressed', async () => {
    for (const url of ['/api/test/small', '/api/health']) {
      const res = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toBeTypeOf('object');
    }
  });

  it('leaves other content types and the sign-in routes alone', async () => {
    const text = await t.request({ method: 'GET', url: '/api/test/text', headers: { 'accept-encoding': 'br' } });
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.body).toBe('x'.repeat(5000));
    const auth = await t.request({ method: 'GET', url: '/api/auth/test-large', headers: { 'accept-encoding': 'br' } });
    expect(auth.headers['content-encoding']).toBeUndefined();
    expect(auth.json()).toEqual(items(60));
  });

  it('a small error answer stays identity, in the error shape', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().error.code).toBe('not_found');
  });

  it('a catalogue read on a cold cache answers its list once, however many ask at once', async () => {
    for (const entry of [t.app.catalog.interests, t.app.catalog.genderOptions, t.app.catalog.orientationOptions]) entry.invalidate();
    const urls = ['/api/catalog/interests', '/api/catalog/gender-options', '/api/catalog/orientation-options'];
    const answers = await Promise.all([...urls, ...urls].map((url) => t.request({ method: 'GET', url })));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(Object.values(res.json())[0]).toEqual(expect.arrayContaining([expect.anything()]));
    }
  });

  it('the cached catalogue (cached-json) answers compressed from its own copy, the same every time', async () => {
    const plain = await t.request({ method: 'GET', url: '/api/catalog/interests' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.json().interests.length).toBeGreaterThan(0);
    for (const encoding of ['br', 'gzip', 'br']) {
      const res = await t.request({ method: 'GET', url: '/api/catalog/interests', headers: { 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(decoded(res)).toBe(plain.body);
    }
    // A small cached list stays identity.
    const small = await t.request({ method: 'GET', url: '/api/catalog/gender-options', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    if (small.body.length < COMPRESS_MIN_BYTES) expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('negotiateEncoding', () => {
  it('prefers brotli, honours q=0 and *, and ignores what it does not know', () => {
    expect(negotiateEncoding(undefined)).toBeUndefined();
    expect(negotiateEncoding('')).toBeUndefined();
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('GZIP;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0')).toBeUndefined();
    expect(negotiateEncoding('identity')).toBeUndefined();
    expect(negotiateEncoding('deflate')).toBeUndefined();
    expect(negotiateEncoding('br;q=banana, gzip')).toBe('gzip');
  });

  it('gives a header seen before the same answer, also once more distinct headers than it keeps have passed', () => {
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [header, want] of cases) expect(negotiateEncoding(header)).toBe(want);
      // Many distinct values (a client making them up) must not change any answer.
      for (let i = 0; i < 100; i++) expect(negotiateEncoding(`x-${round}-${i}, gzip`)).toBe('gzip');
    }
  });
});
