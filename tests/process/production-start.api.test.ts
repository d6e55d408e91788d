/**
 * A production start as shipped (`npm start`, NODE_ENV=production), on whichever Node runs the
 * suite: .ci/run runs it on Node 20 and, through `npm run test:pg`, on Node 24 (decision 020).
 * Production refuses to start without a mail transport, naming SMTP_URL; with one it is ready
 * (database and SMTP checked), serves metrics to the token holder, and drains on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-production-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const METRICS_TOKEN = 'production-metrics-token-0123456789';
let smtp: SMTPServer;
let smtpUrl: string;
const children: ChildProcess[] = [];

function start(env: Record<string, string>) {
  const proc = spawn(process.execPath, ['src/server/launch.mjs'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      AUTH_SECRET: 'production-secret-for-the-start-test-0123456789',
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      SMTP_URL: '',
      MAIL_OUTBOX_ONLY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, output: () => out };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`production start on Node ${process.versions.node}`, () => {
  it('refuses to start without SMTP_URL, naming it and the explicit outbox-only opt-in', async () => {
    const run = start({});
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/SMTP_URL: required when NODE_ENV=production/);
    expect(run.output()).toMatch(/MAIL_OUTBOX_ONLY=true/);
  }, 120_000);

  it('starts with SMTP, is ready (database and SMTP), serves metrics to the token, and drains on SIGTERM', async () => {
    const run = start({ SMTP_URL: smtpUrl, METRICS_TOKEN });
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (!run.output().includes('Fancy is running')) return;
        clearInterval(timer);
        resolve();
      }, 50);
      void run.exited.then((code) => reject(new Error(`exited ${code}: ${run.output()}`)));
    });
    const ready = await fetch(`${base}/api/ready`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', smtp: 'ok' }, warnings: [] });
    expect(await (await fetch(`${base}/api/ready`)).json()).toEqual({ status: 'ready' });
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(
      /fancy_http_request_duration_seconds_count\{method="GET",route="\/api\/ready",status_code="200"\} 2/,
    );
    run.proc.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 180_000);
});
