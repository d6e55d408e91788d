import { mkdirSync } from 'node:fs';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { type Control, openControl } from './infra/backup/control';

/** Where the server keeps its data: the database and, when it is the embedded one, DATA_DIR's lock. */
export interface Store {
  database: Database;
  /**
   * The embedded database takes one process at a time: DATA_DIR's control socket is its lock,
   * and how `npm run db:backup` reaches this server (decision 019).
   */
  control?: Control;
}

/** Takes DATA_DIR's lock (embedded database only), then opens the database; `initialData` as openDatabase's. */
export async function openStore(config: Config, initialData?: Uint8Array): Promise<Store> {
  let control: Control | undefined;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    control = await openControl(config.dataDir, { holder: 'a running Fancy server' });
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, initialData }).catch(async (err) => {
    await control?.close();
    throw err;
  });
  return { database, control };
}
