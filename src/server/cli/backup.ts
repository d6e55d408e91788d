/**
 * `npm run db:backup [FILE]` and `npm run db:restore FILE` for the embedded mode (decision 019).
 * A running server is asked for the backup over DATA_DIR's control socket; a stopped one is
 * backed up by this process, which holds the socket meanwhile so no server starts on the
 * folder. A restore needs the server stopped and keeps the data it replaces.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError, generateVapidKeys, loadConfig } from '../config';
import { PGLITE_SETTINGS } from '../db/client';
import { BackupFormatError, readBackup, writeBackup } from '../infra/backup/archive';
import { DataDirInUseError, openControl, ownControlSocket, probeControl, UnsafeControlSocketError } from '../infra/backup/control';
import { readKeptFiles } from '../infra/backup/embedded';
import { createStorage, uploadsDir } from '../infra/storage/create';

const USAGE = 'Usage: npm run db:backup [FILE]  |  npm run db:restore FILE';
const [command, fileArg] = process.argv.slice(2);

class Refused extends Error {}

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
const startParams = [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])];

function config() {
  try {
    // Neither the auth secret nor the push keys are used here: placeholders keep loadConfig from
    // writing new ones into DATA_DIR (a restore would then count them as data it replaced).
    const push = generateVapidKeys();
    return loadConfig({
      AUTH_SECRET: 'not-used-by-this-command-not-used-by-this-command',
      VAPID_PUBLIC_KEY: push.publicKey,
      VAPID_PRIVATE_KEY: push.privateKey,
      ...process.env,
    });
  } catch (err) {
    if (err instanceof ConfigError) throw new Refused(err.message);
    throw err;
  }
}

/** Streams the running server's backup into `file`. */
function backupFromServer(dataDir: string, file: string): Promise<void> {
  // Checked again right before the request: only this user's own socket gets it.
  const socketPath = ownControlSocket(dataDir);
  if (!socketPath) return Promise.reject(new Refused('The server stopped before the backup started: run the command again.'));
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/backup', method: 'POST' }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => reject(new Refused(body || `The server answered ${res.statusCode}.`)));
        return;
      }
      pipeline(res, createWriteStream(file, { mode: 0o600 })).then(() => {
        // A server that fails mid-way cuts the stream: an archive without its end is no backup.
        if (!res.complete) reject(new Error('The server stopped sending the backup before the end.'));
        else resolve();
      }, reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function backup() {
  const c = config();
  if (c.databaseUrl) {
    throw new Refused('DATABASE_URL is set: back up PostgreSQL with pg_dump (see README, Production › Backups).');
  }
  const file = path.resolve(fileArg ?? path.join('backups', `fancy-backup-${stamp()}.tar.gz`));
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  let uploads: number | null;
  let from: string;
  try {
    const holder = await probeControl(c.dataDir);
    if (holder) {
      await backupFromServer(c.dataDir, partial);
      // Read back whole: a cut or corrupt stream fails here, not on the day of the restore.
      const { manifest } = await readBackup(partial);
      uploads = manifest.uploads;
      from = `${holder.holder}${holder.pid ? ` (pid ${holder.pid})` : ''}`;
    } else {
      const pgdata = path.join(c.dataDir, 'pglite');
      if (!existsSync(pgdata)) throw new Refused(`There is no embedded database in ${c.dataDir} (DATA_DIR).`);
      const control = await openControl(c.dataDir, { holder: 'npm run db:backup' });
      try {
        const pg = await PGlite.create(pgdata, { startParams });
        const storage = await createStorage(c);
        try {
          const manifest = await writeBackup(createWriteStream(partial, { mode: 0o600 }), {
            dump: async () => {
              await pg.exec('CHECKPOINT');
              return pg.dumpDataDir('none');
            },
            uploads: storage.kind === 'local' ? storage : undefined,
            keptFiles: readKeptFiles(c.dataDir),
          });
          uploads = manifest.uploads;
        } finally {
          storage.close();
          await pg.close();
        }
      } finally {
        await control.close();
      }
      from = 'the stopped database';
    }
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  console.log(`Backed up ${from}${uploads === null ? '' : ` with ${uploads} photo file(s)`} to ${file}`);
  if (uploads === null && c.s3) {
    console.log(`Photos are in the bucket ${c.s3.bucket}: back it up with your storage provider's tools (see README).`);
  }
}

async function restore() {
  if (!fileArg) throw new Refused(USAGE);
  const file = path.resolve(fileArg);
  if (!existsSync(file)) throw new Refused(`${file} does not exist.`);
  const c = config();
  if (c.databaseUrl) throw new Refused('DATABASE_URL is set: restore PostgreSQL with pg_restore or psql (see README).');
  const holder = await probeControl(c.dataDir);
  if (holder) {
    throw new Refused(
      `${c.dataDir} is in use by ${holder.holder}${holder.pid ? ` (pid ${holder.pid})` : ''}. Stop it first, then restore: a restore replaces the whole database.`,
    );
  }
  await mkdir(c.dataDir, { recursive: true });
  const control = await openControl(c.dataDir, { holder: 'npm run db:restore' });
  const when = stamp();
  const staging = path.join(c.dataDir, `.restoring-${when}`);
  const previous = path.join(c.dataDir, `before-restore-${when}`);
  try {
    // Everything is unpacked and opened beside the live data first: a bad archive changes nothing.
    const restored = await readBackup(file, path.join(staging, 'uploads'));
    const pg = await PGlite.create(path.join(staging, 'pglite'), {
      loadDataDir: new Blob([new Uint8Array(restored.database)]),
      startParams,
    });
    let members: number;
    try {
      const { rows } = await pg.query<{ n: number }>('select count(*)::int as n from "user"');
      members = rows[0].n;
    } finally {
      await pg.close();
    }
    await mkdir(previous, { recursive: true });
    const moveAside = async (name: string) => {
      const from = path.join(c.dataDir, name);
      if (existsSync(from)) await rename(from, path.join(previous, name));
    };
    await moveAside('pglite');
    await rename(path.join(staging, 'pglite'), path.join(c.dataDir, 'pglite'));
    if (restored.manifest.uploads !== null) {
      await moveAside('uploads');
      await mkdir(path.join(staging, 'uploads'), { recursive: true });
      await rename(path.join(staging, 'uploads'), uploadsDir(c));
    }
    for (const [name, text] of Object.entries(restored.keptFiles)) {
      await moveAside(name);
      await writeFile(path.join(c.dataDir, name), text, { mode: 0o600 });
    }
    console.log(
      `Restored ${members} account(s)${restored.manifest.uploads === null ? '' : ` and ${restored.uploads} photo file(s)`} from ${file} (made ${restored.manifest.createdAt}).`,
    );
    if ((await readdir(previous)).length === 0) await rm(previous, { recursive: true });
    else console.log(`The data it replaced is in ${previous}: delete it once the restored data looks right.`);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await control.close();
  }
}

try {
  if (command === 'backup') await backup();
  else if (command === 'restore') await restore();
  else throw new Refused(USAGE);
} catch (err) {
  if (
    err instanceof Refused ||
    err instanceof DataDirInUseError ||
    err instanceof UnsafeControlSocketError ||
    err instanceof BackupFormatError
  ) {
    console.error(err.message);
    process.exitCode = 2;
  } else {
    console.error(err);
    process.exitCode = 1;
  }
}
