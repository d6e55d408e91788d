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
      SMTP_URL: 'smtp://mail.fancy.example:587',
      SEED_DEMO: 'true',
    });
    expect(prod.seedDemo).toBe(false);
    expect(prod.devMailbox).toBe(false);
    expect(prod.mailMode).toBe('smtp');
  });

  it('refuses production without a mail transport unless outbox-only is chosen explicitly', () => {
    const base = { NODE_ENV: 'production', AUTH_SECRET: 's'.repeat(40), PUBLIC_URL: 'https://fancy.example' };
    expect(() => loadConfig(base)).toThrow(/SMTP_URL: required when NODE_ENV=production/);
    expect(() => loadConfig(base)).toThrow(/MAIL_OUTBOX_ONLY=true/);
    expect(() => loadConfig({ ...base, MAIL_OUTBOX_ONLY: 'false' })).toThrow(/SMTP_URL/);
    const outbox = loadConfig({ ...base, MAIL_OUTBOX_ONLY: 'true' });
    expect(outbox.mailMode).toBe('outbox-only');
    expect(outbox.devMailbox).toBe(false);
    // Outside production the dev mailbox stays the default.
    expect(loadConfig({ DATA_DIR: dir() }).mailMode).toBe('dev-mailbox');
  });

  it('takes a metrics token only when it is long enough, and a drain delay', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    const c = loadConfig({ DATA_DIR: dir(), METRICS_TOKEN: 't'.repeat(24), DRAIN_DELAY_MS: '5000' });
    expect(c.metricsToken).toBe('t'.repeat(24));
    expect(c.drainDelayMs).toBe(5000);
    expect(loadConfig({ DATA_DIR: dir() }).metricsToken).toBeUndefined();
  });

  it('parses admin e-mails', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' A@x.com, b@y.com ,', DATA_DIR: dir() }).adminEmails).toEqual(['a@x.com', 'b@y.com']);
  });

  it('takes extra push services (PUSH_SERVICE_HOSTS) as host names only, normalised', () => {
    expect(loadConfig({ DATA_DIR: dir() }).pushServiceHosts).toEqual([]);
    const c = loadConfig({ DATA_DIR: dir(), PUSH_SERVICE_HOSTS: ' Push.Example.NET., *.push.example.org ' });
    expect(c.pushServiceHosts).toEqual(['push.example.net', '*.push.example.org']);
    for (const bad of ['10.0.0.1', 'push.example.net:8443', 'localhost', 'https://push.example.net', '*.', 'a.*.example.org', '[::1]']) {
      expect(() => loadConfig({ DATA_DIR: dir(), PUSH_SERVICE_HOSTS: bad }), bad).toThrow(/PUSH_SERVICE_HOSTS/);
    }
  });

  it('runs the face models at the lowest CPU priority unless VERIFY_WORKER_PRIORITY says normal', () => {
    expect(loadConfig({ DATA_DIR: dir() }).verifyWorkerPriority).toBe('lowest');
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'test' }).verifyWorkerPriority).toBe('lowest');
    expect(loadConfig({ DATA_DIR: dir(), VERIFY_WORKER_PRIORITY: 'normal' }).verifyWorkerPriority).toBe('normal');
    expect(() => loadConfig({ DATA_DIR: dir(), VERIFY_WORKER_PRIORITY: 'high' })).toThrow(/VERIFY_WORKER_PRIORITY/);
  });

  it('hashes passwords the standard way everywhere but in tests, and refuses the light hash outside them', () => {
    expect(loadConfig({ DATA_DIR: dir() }).passwordHashing).toBe('standard');
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'test' }).passwordHashing).toBe('light');
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'test', PASSWORD_HASHING: 'standard' }).passwordHashing).toBe('standard');
    for (const NODE_ENV of ['development', 'production']) {
      const env = { DATA_DIR: dir(), NODE_ENV, AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://fancy.example', MAIL_OUTBOX_ONLY: 'true' };
      expect(() => loadConfig({ ...env, PASSWORD_HASHING: 'light' }), NODE_ENV).toThrow(
        /PASSWORD_HASHING: light is for the test suites only/,
      );
      expect(loadConfig(env).passwordHashing, NODE_ENV).toBe('standard');
    }
  });
});
