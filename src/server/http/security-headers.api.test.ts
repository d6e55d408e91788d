import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app';
import { buildApp } from '../app';

/** What @fastify/helmet sent with our options, with connections narrowed to the app's own origin. */
const CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self' ws://localhost:3000";
const PROD_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests;connect-src 'self' wss://fancy.example";
const COMMON = {
  'permissions-policy':
    'accelerometer=(), browsing-topics=(), camera=(self), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const SECURITY_NAMES = [...Object.keys(COMMON), 'content-security-policy', 'strict-transport-security'];
const securityOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => SECURITY_NAMES.includes(k)));

let t: TestApp;
let withClient: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  t = await createTestApp();
  const clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Fancy</title>');
  writeFileSync(path.join(clientDir, 'assets', 'app-1.js'), 'console.log(1)');
  withClient = await buildApp({ ...t.deps, clientDir });
});
afterAll(async () => {
  await withClient?.close();
  await t?.close();
});

describe('security headers', () => {
  it('every kind of response carries exactly the security headers, without HSTS outside production', async () => {
    const member = await t.member('Headers');
    const responses = [
      await t.request({ method: 'GET', url: '/api/health' }),
      await t.request({ method: 'GET', url: '/api/catalog/interests' }),
      await t.request({ method: 'GET', url: '/api/mixers', cookie: member.cookie }),
      await t.request({ method: 'GET', url: '/api/mixers' }), // 401
      await t.request({ method: 'GET', url: '/api/conversations/not-a-uuid/messages', cookie: member.cookie }), // 400
      await t.request({ method: 'GET', url: '/api/no-such-thing' }), // 404
      await withClient.inject({ method: 'GET', url: '/' }),
      await withClient.inject({ method: 'GET', url: '/mixers/abc' }),
      await withClient.inject({ method: 'GET', url: '/assets/app-1.js' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 401, 400, 404, 200, 200, 200]);
    for (const res of responses) {
      expect(securityOf(res.headers)).toEqual({ ...COMMON, 'content-security-policy': CSP });
    }
  });

  it('production adds HSTS and upgrade-insecure-requests', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      MAIL_OUTBOX_ONLY: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://fancy.example',
    });
    try {
      for (const url of ['/api/health', '/api/no-such-thing']) {
        const res = await prod.request({ method: 'GET', url });
        expect(securityOf(res.headers)).toEqual({
          ...COMMON,
          'content-security-policy': PROD_CSP,
          'strict-transport-security': 'max-age=31536000; includeSubDomains',
        });
      }
    } finally {
      await prod.close();
    }
  });
});

describe('origin check', () => {
  const body = { email: 'nobody@example.com', password: 'wrong-password-123' };

  it('refuses a state-changing request from another site', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: body, headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { code: 'forbidden', message: 'This request came from another site and was refused.' } });
    expect(res.headers['content-security-policy']).toBe(CSP);
  });

  it('lets our own origin, the same host and origin-less clients through, and reads from anywhere', async () => {
    const own = await t.request({ method: 'POST', url: '/api/auth/login', payload: body, headers: { origin: TEST_ORIGIN } });
    const sameHost = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: body,
      headers: { origin: 'http://fancy.internal:8080', host: 'fancy.internal:8080' },
    });
    const none = await t.request({ method: 'POST', url: '/api/auth/login', payload: body });
    const read = await t.request({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    for (const res of [own, sameHost, none]) expect(res.statusCode).toBe(401);
    expect(read.statusCode).toBe(200);
  });
});
