import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { isSafeKey, type Storage } from '../storage/storage';

/**
 * A backup of the embedded mode (decision 019): one gzipped tar holding
 *   fancy-backup.json   what is inside (format, time, counts)
 *   pglite.tar          PGlite's own data-dir dump (`dumpDataDir`), loaded back with `loadDataDir`
 *   auth-secret, vapid-keys.json   the secrets DATA_DIR generated, when it has them (infra/backup/embedded.ts)
 *   uploads/<key>       every local photo, unless photos live in a bucket
 */
/**
 * Files loadConfig generates in DATA_DIR outside production: the auth secret (sessions, two-step
 * secrets) and the Web Push keys (a restore with new keys would orphan every push subscription).
 */
export const KEPT_FILES = ['auth-secret', 'vapid-keys.json'] as const;

export const BACKUP_FORMAT = 'fancy-embedded-backup';
export const BACKUP_VERSION = 1;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** Photos in the archive; null when they live in a bucket and are backed up there. */
  uploads: number | null;
  /** Bytes of the database dump. */
  databaseBytes: number;
}

export interface BackupSource {
  /** The database's data-dir dump as an uncompressed tar. */
  dump(): Promise<Blob>;
  /** Local photo storage; undefined when photos are in a bucket. */
  uploads?: Storage;
  /** The secrets the embedded mode generated in DATA_DIR, by file name (KEPT_FILES). */
  keptFiles?: Record<string, string>;
}

/**
 * Writes the archive. The database is dumped first, then the photos are read: a photo is
 * stored before the row that names it and deleted after that row is gone, so every photo a
 * dumped row names is still on disk when the files are copied — except one deleted during the
 * backup, whose member was removing it anyway.
 */
export async function writeBackup(out: Writable, source: BackupSource): Promise<Manifest> {
  // Loaded on use: the server never pays for it unless a backup is asked for.
  const { pack: tarPack } = await import('tar-stream');
  const pack = tarPack();
  const done = pipeline(pack, createGzip(), out);
  // A failure on the output side (a closed socket, a full disk) stops the packing too.
  done.catch((err) => pack.destroy(err));
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: data.length, mode: 0o600 }, data, (err) => (err ? reject(err) : resolve())),
    );

  const database = Buffer.from(await (await source.dump()).arrayBuffer());
  const keys = source.uploads ? (await source.uploads.list('')).filter(isSafeKey) : null;
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    uploads: keys ? keys.length : null,
    databaseBytes: database.length,
  };
  await add('fancy-backup.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  await add('pglite.tar', database);
  for (const [name, text] of Object.entries(source.keptFiles ?? {})) await add(name, Buffer.from(text));
  // One photo in memory at a time.
  for (const key of keys ?? []) {
    const file = await source.uploads?.get(key);
    if (file) await add(`uploads/${key}`, file.data);
  }
  pack.finalize();
  await done;
  return manifest;
}

export class BackupFormatError extends Error {}

export interface Restored {
  manifest: Manifest;
  database: Buffer;
  keptFiles: Record<string, string>;
  uploads: number;
}

/** Reads an archive made by writeBackup, writing its photos under `uploadsDir` (only checking them without one). */
export async function readBackup(file: string, uploadsDir?: string): Promise<Restored> {
  const { extract: tarExtract } = await import('tar-stream');
  const extract = tarExtract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  let manifest: Manifest | undefined;
  let database: Buffer | undefined;
  const keptFiles: Record<string, string> = {};
  let uploads = 0;
  try {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const data = Buffer.concat(chunks);
      const name = entry.header.name;
      if (name === 'fancy-backup.json') {
        manifest = JSON.parse(data.toString('utf8')) as Manifest;
        if (manifest.format !== BACKUP_FORMAT || manifest.version > BACKUP_VERSION) {
          throw new BackupFormatError(`${file} is not a Fancy backup this version can read.`);
        }
      } else if (name === 'pglite.tar') {
        database = data;
      } else if ((KEPT_FILES as readonly string[]).includes(name)) {
        keptFiles[name] = data.toString('utf8').trim();
      } else if (name.startsWith('uploads/') && isSafeKey(name.slice('uploads/'.length))) {
        if (uploadsDir) {
          const target = path.join(uploadsDir, name.slice('uploads/'.length));
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, data, { mode: 0o600 });
        }
        uploads++;
      }
    }
    await reading;
  } catch (err) {
    reading.catch(() => {});
    if (err instanceof BackupFormatError) throw err;
    throw new BackupFormatError(`${file} is not a readable Fancy backup (${(err as Error).message}).`);
  }
  if (!manifest || !database) throw new BackupFormatError(`${file} is not a Fancy backup: it has no database.`);
  return { manifest, database, keptFiles, uploads };
}
