import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-durability-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;

function serve(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/serve.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Fancy is running')) resolve(proc);
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (d) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}

const post = (url: string, body: unknown) =>
  fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('durability of the embedded database', () => {
  it('keeps every acknowledged write after SIGKILL and restart on the same DATA_DIR', async () => {
    child = await serve();
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `durable${i}@example.com`;
      const res = await post('/api/auth/register', { fullName: `Durable ${i}`, email, password: 'velvet-otter-lantern' });
      expect(res.status).toBe(200);
      emails.push(email);
    }
    // Verification mails are written after the response (decision 006); once the mailbox shows
    // them they are acknowledged too.
    const mailed = async () => ((await (await fetch(`${base}/dev/mailbox.json`)).json()) as { to: string }[]).map((m) => m.to);
    for (let i = 0; i < 600; i++) {
      const to = await mailed();
      if (emails.every((e) => to.includes(e))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Acknowledged: now kill without any chance to flush or close.
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));

    child = await serve();
    const mailbox = (await (await fetch(`${base}/dev/mailbox.json`)).json()) as { to: string }[];
    for (const email of emails) expect(mailbox.some((m) => m.to === email)).toBe(true);
    // Every account is there: each signs in with its password (unverified members may, decision 003).
    for (const email of emails) expect((await post('/api/auth/login', { email, password: 'velvet-otter-lantern' })).status).toBe(200);
    // The accounts exist: a second registration answers generically and mails the owner.
    const res = await post('/api/auth/register', { fullName: 'Again', email: emails[0], password: 'velvet-otter-lantern' });
    expect(res.status).toBe(200);
    // That mail, too, is written after the response.
    let subjects: string[] = [];
    for (let i = 0; i < 600 && !subjects.includes('Someone tried to sign up with your address'); i++) {
      const after = (await (await fetch(`${base}/dev/mailbox.json`)).json()) as { to: string; subject: string }[];
      subjects = after.filter((m) => m.to === emails[0]).map((m) => m.subject);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(subjects).toContain('Someone tried to sign up with your address');
    child.kill('SIGTERM');
    await new Promise((r) => child?.once('exit', r));
  }, 120_000);
});
