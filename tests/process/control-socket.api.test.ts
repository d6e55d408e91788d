/**
 * DATA_DIR's control socket cannot be squatted (issue 32, decision 019). With a long DATA_DIR the
 * socket used to live at a predictable `<temp>/fancy-<hash>.sock`: another local user listening
 * there first kept the server from starting and received `npm run db:backup`'s request. It now
 * lives in `<temp>/fancy-<uid>/`, made with mode 700 and checked (owner, mode, a real folder), and
 * neither the server nor the CLI talks to a socket that is a link or someone else's.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { controlSocketPath, UnsafeControlSocketError } from '../../src/server/infra/backup/control';
import { type Running, startServer } from '../../src/server/main';

const root = mkdtempSync(path.join(tmpdir(), 'fancy-sock-'));
// The temp folder of this test and of the CLI it runs: the squatter's and the server's.
const temp = path.join(root, 'tmp');
const previousTmp = process.env.TMPDIR;
// Without a login session's runtime folder the socket's home is in the temp folder (the last test sets one).
const previousRuntime = process.env.XDG_RUNTIME_DIR;
delete process.env.XDG_RUNTIME_DIR;
const dataDir = path.join(root, 'a-data-folder-with-a-long-name-'.repeat(3));
let running: Running | undefined;
let squatter: Server | undefined;
const squatted: string[] = [];

beforeAll(async () => {
  mkdirSync(temp);
  process.env.TMPDIR = temp;
  // Another user's listener at the name a long DATA_DIR's socket used to have.
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  squatter = createServer((req, res) => {
    squatted.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ holder: 'a squatter', pid: 1 }));
  });
  await new Promise<void>((resolve) => squatter?.listen(path.join(temp, `fancy-${hash}.sock`), resolve));
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => squatter?.close(resolve));
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  if (previousRuntime !== undefined) process.env.XDG_RUNTIME_DIR = previousRuntime;
  rmSync(root, { recursive: true, force: true });
});

const config = () =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PUBLIC_URL: 'http://localhost:3000',
  });

function backup(file: string): Promise<{ code: number | null; out: string }> {
  const proc = spawn('npm', ['run', '--silent', 'db:backup', '--', file], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', TMPDIR: temp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, out })));
}

describe('the control socket of a long DATA_DIR', () => {
  it("lives in a folder only the server's user can open: a squatter on the old name neither stops the server nor gets the backup", async () => {
    expect(Buffer.byteLength(path.join(dataDir, 'control.sock'))).toBeGreaterThan(100);
    running = await startServer(config());
    const socket = controlSocketPath(dataDir);
    const folder = lstatSync(path.dirname(socket));
    expect(path.dirname(path.dirname(socket))).toBe(temp);
    expect(folder.isDirectory()).toBe(true);
    expect(folder.uid).toBe(process.getuid?.());
    expect(folder.mode & 0o777).toBe(0o700);
    expect(lstatSync(socket).isSocket()).toBe(true);

    const res = await backup(path.join(root, 'live.tar.gz'));
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('Backed up a running Fancy server');
    expect(squatted).toEqual([]);
    await running.close();
    running = undefined;
  }, 120_000);

  it('the CLI does not talk to a link where the socket should be (it would reach whoever made it)', async () => {
    const socket = controlSocketPath(dataDir);
    rmSync(socket, { force: true });
    const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
    symlinkSync(path.join(temp, `fancy-${hash}.sock`), socket);
    try {
      const res = await backup(path.join(root, 'linked.tar.gz'));
      expect(res.code, res.out).toBe(2);
      expect(res.out).toContain('is a link');
      expect(squatted).toEqual([]);
      await expect(startServer(config())).rejects.toThrow(UnsafeControlSocketError);
      expect(squatted).toEqual([]);
    } finally {
      unlinkSync(socket);
    }
  }, 120_000);

  it('a folder others can write into is not used, by the server or by the CLI', async () => {
    const folder = path.dirname(controlSocketPath(dataDir));
    chmodSync(folder, 0o777);
    try {
      await expect(startServer(config())).rejects.toThrow(/mode 700/);
      const res = await backup(path.join(root, 'open.tar.gz'));
      expect(res.code, res.out).toBe(2);
      expect(res.out).toContain('mode 700');
      expect(squatted).toEqual([]);
    } finally {
      chmodSync(folder, 0o700);
    }
    // Put right, it is used again.
    running = await startServer(config());
    await running.close();
    running = undefined;
  }, 120_000);

  it("prefers the login session's runtime folder, where nobody else can make a name first", () => {
    const runtime = path.join(root, 'run-user');
    mkdirSync(runtime, { mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = runtime;
    try {
      expect(path.dirname(path.dirname(controlSocketPath(dataDir)))).toBe(runtime);
    } finally {
      delete process.env.XDG_RUNTIME_DIR;
    }
  });
});
