import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client';
import { referenceFingerprint, seedReferenceData } from '../../src/server/db/seed/reference';

const CACHE_DIR = path.resolve(import.meta.dirname, '../../node_modules/.cache/fancy');

/** What the template holds: every migration file, the reference data and the PGlite that wrote it. */
export function templateKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  hash.update(referenceFingerprint());
  hash.update(readFileSync(path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

let cached: Promise<Uint8Array> | undefined;

/**
 * A migrated embedded database with the reference data, as PGlite's files (`dump()`), for
 * `openDatabase({ initialData })`: creating and migrating a database costs ~5 s of CPU, loading
 * this ~1 s, and the suites make a few hundred. Made once per migrations, reference data and
 * PGlite version, and kept in node_modules/.cache (written under another name, then renamed, so
 * a reader never sees half a file; two processes that both make it write the same thing).
 */
export function databaseTemplate(): Promise<Uint8Array> {
  cached ??= (async () => {
    const file = path.join(CACHE_DIR, `db-template-${templateKey()}.tar`);
    try {
      return new Uint8Array(readFileSync(file));
    } catch {
      const database = await openDatabase({ dataDir: 'memory://' });
      try {
        await seedReferenceData(database.db);
        if (!database.dump) throw new Error('the embedded database has no dump');
        const bytes = new Uint8Array(await (await database.dump()).arrayBuffer());
        mkdirSync(CACHE_DIR, { recursive: true });
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, bytes);
        renameSync(partial, file);
        return bytes;
      } finally {
        await database.close();
      }
    }
  })();
  return cached;
}
