import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a worker script (`src/server/modules/<module>/<name>`) is, seen from the module that
 * starts it (`from`: its `import.meta.url`): beside it in the sources; `npm start` runs a bundle
 * from dist/server, which finds it back in the sources.
 */
export function workerFile(from: string, module: string, name: string): string {
  const here = path.dirname(fileURLToPath(from));
  const candidates = [
    path.join(here, name),
    path.resolve(here, `../../src/server/modules/${module}/${name}`),
    path.resolve(process.cwd(), `src/server/modules/${module}/${name}`),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${name} not found`);
  return found;
}
