import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, setupTestApp } from '../../tests/helpers/test-app';
import { buildApp } from './app';

const t = setupTestApp();

describe('health', () => {
  it('answers ok with the database up', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', db: 'ok' });
  });

  it('answers 503 when the database is unreachable', async () => {
    const app = await buildApp({ ...t.deps, database: { ...t.deps.database, ping: () => Promise.reject(new Error('down')) } });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().db).toBe('down');
    await app.close();
  });
});

describe('errors and routing', () => {
  it('unknown /api paths get the JSON error shape', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
  });

  it('serves index.html for client routes and assets with long caching', async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'fancy-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Fancy</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app-123.js'), 'console.log(1)');
    const app = await buildApp({ ...t.deps, clientDir });
    const root = await app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>Fancy</title>');
    const deep = await app.inject({ method: 'GET', url: '/mixers/abc' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<title>Fancy</title>');
    expect(deep.headers['content-security-policy']).toContain("default-src 'self'");
    expect(deep.headers['x-content-type-options']).toBe('nosniff');
    const asset = await app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await app.inject({ method: 'GET', url: '/api/missing' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    await app.close();
  });

  it('the dev mailbox lists stored mail as JSON and HTML', async () => {
    await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'Mo', email: 'mo@example.com', password: 'velvet-otter-lantern' },
    });
    // Mail goes out after the response: wait for it, as a member waits for their inbox.
    await t.mailsTo('mo@example.com');
    const json = await t.request({ method: 'GET', url: '/dev/mailbox.json' });
    const mails = json.json() as { to: string; subject: string; text: string; html: string; createdAt: string }[];
    expect(mails[0]).toMatchObject({ to: 'mo@example.com', subject: 'Confirm your email for Fancy' });
    const html = await t.request({ method: 'GET', url: '/dev/mailbox' });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('<a href="http://localhost:3000/api/auth/verify-email?token=');
  });

  it('has no dev mailbox in production mode', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production', MAIL_OUTBOX_ONLY: 'true', AUTH_SECRET: 'x'.repeat(40) });
    const res = await prod.request({ method: 'GET', url: '/dev/mailbox.json' });
    expect(res.statusCode).toBe(404);
    await prod.close();
  });
});
