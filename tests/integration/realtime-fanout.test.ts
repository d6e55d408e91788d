import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseServerEvent } from '../../src/shared/realtime/events';
import { freePort } from '../helpers/ports';
import { dropDatabase } from '../helpers/test-db';

/**
 * Two server processes on one PostgreSQL (TEST_DATABASE_URL): an event published through
 * instance A reaches a socket connected to instance B, via LISTEN/NOTIFY.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('The pg project needs TEST_DATABASE_URL (a PostgreSQL server).');

const dbName = `fancy_fanout_${Date.now()}`;
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-fanout-'));
const children: ChildProcess[] = [];

function serve(port: number): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/serve.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      AUTH_SECRET: 'shared-secret-for-both-instances-0123456789',
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d.toString();
      if (out.includes('Fancy is running')) resolve();
    });
    proc.stderr?.on('data', (d) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`instance exited (${code}):\n${out}`)));
  });
}

const portA = await freePort();
const portB = await freePort();

beforeAll(async () => {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  await serve(portA);
  await serve(portB);
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await dropDatabase(serverUrl, dbName);
  rmSync(dataDir, { recursive: true, force: true });
});

async function registerVerifiedLogin(base: string, email: string): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };
  await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ fullName: 'Fan Out', email, password: 'velvet-otter-lantern' }),
  });
  // Verification link from the outbox (SMTP is not configured, so mail is stored). Mail leaves
  // after the response (no enumeration by timing), so wait for it.
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  let text: string | undefined;
  for (let i = 0; i < 100 && !text; i++) {
    const { rows } = await db.query('select text from mail_outbox where "to" = $1 order by created_at desc limit 1', [email]);
    text = rows[0]?.text;
    if (!text) await new Promise((r) => setTimeout(r, 100));
  }
  await db.end();
  const link = new URL(String(text).match(/https?:\/\/\S+/)?.[0] as string);
  // The link alone confirms nothing (docs/decisions/006): signing in with its token does.
  const verifyToken = link.searchParams.get('token');
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'velvet-otter-lantern', verifyToken }),
  });
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

describe('realtime across instances', () => {
  it('a message posted through instance A reaches a socket on instance B', async () => {
    const cookie = await registerVerifiedLogin(`http://127.0.0.1:${portA}`, `fanout${Date.now()}@example.com`);
    // The socket connects to B; the logout (a published close instruction) goes through A.
    const socket = new WebSocket(`ws://127.0.0.1:${portB}/api/realtime`, { headers: { cookie, origin: 'http://localhost:3000' } });
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (raw) => parseServerEvent(raw.toString())?.type === 'ready' && resolve());
      socket.on('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const out = await fetch(`http://127.0.0.1:${portA}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: '{}',
    });
    expect(out.status).toBe(200);
    expect(await closed).toBe(4001);
  });
});
