import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  proxied = await createTestApp({ TRUST_PROXY: 'true' });
  await t.member('Mo Mailbox');
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
});

const PATHS = ['/dev/mailbox', '/dev/mailbox.json'];

describe('dev mailbox', () => {
  it('answers requests from this machine', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      for (const url of PATHS) expect((await t.request({ method: 'GET', url, remoteAddress })).statusCode).toBe(200);
    }
    const mails = (await t.request({ method: 'GET', url: '/dev/mailbox.json' })).json();
    expect(mails[0].subject).toBe('Confirm your email for Fancy');
  });

  it('is a plain 404 from any other address, whatever the request claims', async () => {
    for (const remoteAddress of ['192.168.1.20', '10.0.0.5', '203.0.113.9', '::ffff:192.168.1.20', 'fe80::1']) {
      for (const url of PATHS) {
        const res = await t.request({ method: 'GET', url, remoteAddress, headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
        expect(res.body).not.toContain('verify');
      }
    }
  });

  it('behind a reverse proxy on this machine, a client from the network is refused', async () => {
    const viaProxy = await proxied.request({ method: 'GET', url: '/dev/mailbox.json', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(viaProxy.statusCode).toBe(404);
    const local = await proxied.request({ method: 'GET', url: '/dev/mailbox.json', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(local.statusCode).toBe(200);
  });

  it('does not exist in production', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      MAIL_OUTBOX_ONLY: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://fancy.example',
    });
    try {
      for (const url of PATHS) expect((await prod.request({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
