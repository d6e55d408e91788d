import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'client');
const LOCK = path.join(DIST, '.build-lock');
const SOURCES = ['src/client', 'src/shared', 'content', 'index.html', 'vite.config.ts', 'package.json', 'public', 'scripts'];
const STALE_LOCK_MS = 5 * 60_000;

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function isStale(): boolean {
  const index = path.join(OUT, 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  return !built || built < Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
}

/** mkdir is atomic: one process builds while the others wait (tests and servers start in parallel). */
async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(DIST, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Pages opened before a rebuild still load their lazy chunks: recent old assets stay for an hour. */
function carryOverRecentAssets(from: string, to: string) {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  const cutoff = Date.now() - 60 * 60_000;
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    if (!existsSync(target) && statSync(source).mtimeMs > cutoff) copyFileSync(source, target);
  }
}

/**
 * Vite runs in a child process (decision 017): a build in the server's own process left ~600 MB
 * of bundler heap resident for the server's whole life, and set NODE_ENV=production in it.
 */
function viteBuild(outDir: string): Promise<void> {
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--config', path.join(ROOT, 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`Building the client failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/**
 * Builds the client when the build is missing or older than any of its sources. The new
 * build is written beside the old one and swapped in, so a running server never serves a
 * half-written folder.
 */
export async function ensureClientBuild(): Promise<void> {
  if (!isStale()) return;
  await withLock(async () => {
    if (!isStale()) return;
    console.log(existsSync(OUT) ? 'Client sources changed: rebuilding…' : 'Building the client (first start)…');
    const next = path.join(DIST, `client-next-${process.pid}`);
    await viteBuild(next);
    carryOverRecentAssets(path.join(OUT, 'assets'), path.join(next, 'assets'));
    const old = path.join(DIST, `client-old-${process.pid}`);
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(next, OUT);
    rmSync(old, { recursive: true, force: true });
  });
}
