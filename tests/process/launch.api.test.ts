/**
 * `npm start` as shipped (decision 017): src/server/launch.mjs runs the esbuild bundle of the
 * server, not the TypeScript sources. The first start on a fresh DATA_DIR migrates and seeds
 * the demo (sharp, loaded lazily, draws the avatars); the modules loaded on first use (the
 * password estimator) work from the bundle; a restart on the same DATA_DIR keeps the data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-launch-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;

function npmStart(): Promise<{ proc: ChildProcess; out: string }> {
  const proc = spawn(process.execPath, ['src/server/launch.mjs'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Fancy is running') && out.includes('Dev mailbox')) resolve({ proc, out });
    });
    proc.stderr?.on('data', (d) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}

const stop = async () => {
  const proc = child;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
};

const register = (email: string, password: string) =>
  fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName: 'Launch Tester', email, password }),
  });

const login = (email: string | undefined, password: string | undefined) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (the bundled server)', () => {
  it('starts fresh with demo data, checks passwords, and restarts on the same data', async () => {
    const first = await npmStart();
    child = first.proc;
    expect(first.out).toMatch(/Demo sign-ins \(password "[^"]+"\): \S+@demo\.fancy\.test/);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const interests = (await (await fetch(`${base}/api/catalog/interests`)).json()) as unknown[] | { interests: unknown[] };
    expect(JSON.stringify(interests).length).toBeGreaterThan(100);
    // The estimator loads on this first check, from the bundle.
    expect((await register('weak@example.com', 'password123')).status).toBe(400);
    expect((await register('launch@example.com', 'velvet-otter-lantern')).status).toBe(200);
    // The demo (avatars drawn by sharp, loaded on first use) is there to sign in to.
    expect((await login(/(\S+@demo\.fancy\.test)/.exec(first.out)?.[1], /password "([^"]+)"/.exec(first.out)?.[1])).status).toBe(200);
    await stop();

    const second = await npmStart();
    child = second.proc;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    // The member registered before the restart is still there.
    expect((await login('launch@example.com', 'velvet-otter-lantern')).status).toBe(200);
    expect((await login('launch@example.com', 'not-the-password-at-all')).status).toBe(401);
  }, 180_000);
});
