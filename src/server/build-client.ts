import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'client');
const LOCK = path.join(DIST, '.build-lock');
const SOURCES = ['src/client', 'src/shared', 'content', 'index.html', 'vite.config.ts', 'package.json', 'public'];
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
 * Builds the client when the build is missing or older than any of its sources. The new
 * build is written beside the old one and swapped in, so a running server never serves a
 * half-written folder.
 */
export async function ensureClientBuild(): Promise<void> {
  if (!isStale()) return;
  await withLock(async () => {
    if (!isStale()) return;
    console.log(existsSync(OUT) ? 'Client sources changed: rebuilding…' : 'Building the client (first start)…');
    const { build } = await import('vite');
    const next = path.join(DIST, `client-next-${process.pid}`);
    // Vite sets NODE_ENV=production in this process; the server that starts next must see its own.
    const nodeEnv = process.env.NODE_ENV;
    try {
      await build({
        root: ROOT,
        logLevel: 'warn',
        configFile: path.join(ROOT, 'vite.config.ts'),
        build: { outDir: next, emptyOutDir: true },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    carryOverRecentAssets(path.join(OUT, 'assets'), path.join(next, 'assets'));
    const old = path.join(DIST, `client-old-${process.pid}`);
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(next, OUT);
    rmSync(old, { recursive: true, force: true });
  });
}
