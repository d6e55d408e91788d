import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = () => mkdtempSync(path.join(tmpdir(), 'fancy-config-'));

describe('loadConfig', () => {
  it('needs nothing in embedded mode and keeps a generated secret', () => {
    const dataDir = dir();
    const a = loadConfig({ DATA_DIR: dataDir });
    const b = loadConfig({ DATA_DIR: dataDir });
    expect(a.port).toBe(3000);
    expect(a.publicUrl).toBe('http://localhost:3000');
    expect(a.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.authSecret).toBe(a.authSecret);
    expect(a.seedDemo).toBe(true);
    expect(a.devMailbox).toBe(true);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc', DATA_DIR: dir() })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc', DATA_DIR: dir() })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url', DATA_DIR: dir() })).toThrow(/DATABASE_URL/);
  });

  it('refuses production without its secrets and never seeds demo data there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET: required when NODE_ENV=production/);
    const prod = loadConfig({
      NODE_ENV: 'production',
      AUTH_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://fancy.example',
      SEED_DEMO: 'true',
    });
    expect(prod.seedDemo).toBe(false);
    expect(prod.devMailbox).toBe(false);
  });

  it('parses admin e-mails', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' A@x.com, b@y.com ,', DATA_DIR: dir() }).adminEmails).toEqual(['a@x.com', 'b@y.com']);
  });
});
