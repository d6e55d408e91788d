import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'dist/client/index.html');
const SOURCES = ['src/client', 'src/shared', 'content', 'index.html', 'vite.config.ts', 'package.json', 'public'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Builds the client when the build is missing or older than any of its sources. */
export async function ensureClientBuild(): Promise<void> {
  const built = existsSync(OUT) ? statSync(OUT).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  if (built && built >= sources) return;
  console.log(built ? 'Client sources changed: rebuilding…' : 'Building the client (first start)…');
  const { build } = await import('vite');
  await build({ root: ROOT, logLevel: 'warn', configFile: path.join(ROOT, 'vite.config.ts') });
}
