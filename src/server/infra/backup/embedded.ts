import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Storage } from '../storage/storage';
import { type BackupSource, KEPT_FILES } from './archive';

/** The kept files DATA_DIR has, by name. */
export function readKeptFiles(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of KEPT_FILES) {
    try {
      const text = readFileSync(path.join(dataDir, name), 'utf8').trim();
      if (text) files[name] = text;
    } catch {
      // Not generated (set from the environment instead): nothing to keep.
    }
  }
  return files;
}

/** What a backup of this embedded instance holds: its database, its local photos, the secrets it generated. */
export function embeddedBackupSource(config: Pick<Config, 'dataDir'>, database: Database, storage: Storage): BackupSource {
  const dump = database.dump;
  if (!dump) throw new Error('only the embedded database is backed up this way; use pg_dump for PostgreSQL');
  return {
    dump: () => dump.call(database),
    uploads: storage.kind === 'local' ? storage : undefined,
    keptFiles: readKeptFiles(config.dataDir),
  };
}
