/**
 * `npm start` (decision 017): runs the server as one pre-bundled ES module instead of ~300
 * TypeScript files through tsx's loader. That loader thread, its per-file transform-cache reads
 * and Node's per-module resolution took ~1.5 s of every start and ~60 MB resident.
 *
 * dist/server/start.mjs is src/server/start.ts bundled by esbuild (packages stay in
 * node_modules; each dynamic import is a chunk beside it); it is rebuilt here, in well under a
 * second, whenever any file under src/server or src/shared (or package.json) is newer than it.
 * Plain JavaScript so that it runs before anything is compiled.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT_DIR = path.join(ROOT, 'dist', 'server');
const BUNDLE = path.join(OUT_DIR, 'start.mjs');
const SOURCES = ['src/server', 'src/shared', 'package.json', 'tsconfig.json'];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function isStale() {
  if (!existsSync(BUNDLE)) return true;
  const built = statSync(BUNDLE).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

async function buildServer() {
  // esbuild comes with tsx (a dependency); resolved through it so no second copy is needed.
  const requireFromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = requireFromTsx('esbuild');
  const next = path.join(ROOT, 'dist', `server-next-${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { start: path.join(ROOT, 'src/server/start.ts') },
    outdir: next,
    outExtension: { '.js': '.mjs' },
    // A dynamic import() is a chunk of its own, loaded (with the packages it imports) only when
    // reached: serve.ts opens the database before it loads the rest of the server. Chunks sit
    // beside start.mjs, so modules that find files beside themselves (migrations, workers) do so
    // from any chunk.
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    // Bundled CommonJS helpers that call require() get a real one.
    banner: {
      js: "import { createRequire as __fancyCreateRequire } from 'node:module'; const require = __fancyCreateRequire(import.meta.url);",
    },
  });
  // The migrator reads the SQL beside the code (db/client.ts: MIGRATIONS_DIR).
  cpSync(path.join(ROOT, 'src/server/db/migrations'), path.join(next, 'migrations'), { recursive: true });
  // The embedded database's thread (db/pglite-thread.ts) loads its worker from beside the code.
  cpSync(path.join(ROOT, 'src/server/db/pglite-worker.mjs'), path.join(next, 'pglite-worker.mjs'));
  // So do the HEIC decoder's (modules/profiles/heic.ts).
  cpSync(path.join(ROOT, 'src/server/modules/profiles/heic-worker.mjs'), path.join(next, 'heic-worker.mjs'));
  mkdirSync(path.dirname(OUT_DIR), { recursive: true });
  // Swapped in whole: a server starting alongside never sees half a bundle.
  const old = path.join(ROOT, 'dist', `server-old-${process.pid}`);
  try {
    if (existsSync(OUT_DIR)) renameSync(OUT_DIR, old);
    renameSync(next, OUT_DIR);
  } catch (err) {
    // Another start swapped in its own build of the same sources first: use that one.
    if (!existsSync(BUNDLE)) throw err;
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (isStale()) await buildServer();
await import(pathToFileURL(BUNDLE).href);
