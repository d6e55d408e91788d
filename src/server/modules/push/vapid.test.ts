import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateVapidKeys, loadConfig } from '../../config';

const dir = () => mkdtempSync(path.join(tmpdir(), 'fancy-vapid-'));

describe('VAPID keys', () => {
  it('are generated once in the embedded mode and kept in DATA_DIR', () => {
    const DATA_DIR = dir();
    const first = loadConfig({ DATA_DIR }).vapid;
    expect(first?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first?.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadConfig({ DATA_DIR }).vapid).toEqual(first);
  });

  it('come from the environment (both or neither); production without them has no push', () => {
    const keys = generateVapidKeys();
    const env = { DATA_DIR: dir(), VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
    expect(loadConfig(env).vapid).toEqual(keys);
    expect(() => loadConfig({ DATA_DIR: dir(), VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/set both or neither/);
    expect(() => loadConfig({ DATA_DIR: dir(), VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY/,
    );
    const prod = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://fancy.example',
      SMTP_URL: 'smtp://mail.example:587',
      DATA_DIR: dir(),
    };
    expect(loadConfig(prod).vapid).toBeUndefined();
    expect(loadConfig({ ...prod, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).vapid).toEqual(keys);
  });

  it('security.txt contact defaults to the support address', () => {
    expect(loadConfig({ DATA_DIR: dir() }).securityContact).toBe('mailto:support@fancy.example');
    expect(() => loadConfig({ DATA_DIR: dir(), SECURITY_CONTACT: 'javascript:alert(1)' })).toThrow(/SECURITY_CONTACT/);
  });
});
