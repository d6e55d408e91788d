import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Storage } from '../storage/storage';
import type { BackupSource } from './archive';

/** The file loadConfig generates outside production when AUTH_SECRET is not set. */
export const authSecretFile = (dataDir: string) => path.join(dataDir, 'auth-secret');

export function readAuthSecretFile(dataDir: string): string | undefined {
  try {
    return readFileSync(authSecretFile(dataDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** What a backup of this embedded instance holds: its database, its local photos, its generated secret. */
export function embeddedBackupSource(config: Pick<Config, 'dataDir'>, database: Database, storage: Storage): BackupSource {
  const dump = database.dump;
  if (!dump) throw new Error('only the embedded database is backed up this way; use pg_dump for PostgreSQL');
  return {
    dump: () => dump.call(database),
    uploads: storage.kind === 'local' ? storage : undefined,
    authSecret: readAuthSecretFile(config.dataDir),
  };
}
