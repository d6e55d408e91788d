import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The embedded database's control socket (decision 019). PGlite is one PostgreSQL backend inside
 * one process: two processes opening the same DATA_DIR would corrupt it. The process that holds
 * DATA_DIR (the server, or a db:backup / db:restore run while the server is stopped) listens on
 * a Unix socket there, readable by the data's owner only, which is
 *  - the lock: a second process finds it answering and stops instead of opening the database;
 *  - the way `npm run db:backup` asks a running server for a consistent dump (nothing new is
 *    exposed on the network; whoever can reach the socket can already read DATA_DIR).
 */

/** Unix socket paths are limited to ~107 bytes; a long DATA_DIR gets a hashed name in the temp folder. */
export function controlSocketPath(dataDir: string): string {
  const inside = path.join(path.resolve(dataDir), 'control.sock');
  if (Buffer.byteLength(inside) < 100) return inside;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `fancy-${hash}.sock`);
}

export class DataDirInUseError extends Error {}

export interface ControlHandlers {
  /** Who holds the folder, for the message a second process prints. */
  holder: string;
  /** Writes a backup archive to the response; absent while a backup or restore holds the folder. */
  backup?: (out: ServerResponse) => Promise<void>;
}

export interface Control {
  handlers: ControlHandlers;
  close(): Promise<void>;
}

interface Status {
  holder: string;
  pid: number;
}

/** Asks the holder of DATA_DIR who it is; null when nobody listens (stopped, or a stale socket). */
export function probeControl(dataDir: string): Promise<Status | null> {
  return new Promise((resolve) => {
    const req = request({ socketPath: controlSocketPath(dataDir), path: '/status', method: 'GET', timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as Status);
        } catch {
          resolve({ holder: 'an unknown process', pid: 0 });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Something holds the socket but does not answer in time: treat it as held.
      resolve(err.message === 'timeout' ? { holder: 'a process that does not answer', pid: 0 } : null);
    });
    req.end();
  });
}

/**
 * Takes DATA_DIR: listens on its control socket, or throws DataDirInUseError naming the process
 * that holds it. A socket left behind by a process that was killed is removed and taken over.
 */
export async function openControl(dataDir: string, handlers: ControlHandlers): Promise<Control> {
  const socketPath = controlSocketPath(dataDir);
  const control: Control = { handlers, close: async () => {} };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/status') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ holder: control.handlers.holder, pid: process.pid } satisfies Status));
      return;
    }
    if (req.method === 'POST' && req.url === '/backup') {
      const backup = control.handlers.backup;
      if (!backup) {
        res.statusCode = 409;
        res.end(`${control.handlers.holder} holds this DATA_DIR and cannot make a backup now.`);
        return;
      }
      res.setHeader('content-type', 'application/gzip');
      backup(res).catch((err: Error) => {
        // Headers are gone already: cut the stream so the client sees an incomplete archive.
        res.destroy(err);
      });
      return;
    }
    res.statusCode = 404;
    res.end();
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      server.once('error', onError);
      server.listen(socketPath, () => {
        server.off('error', onError);
        resolve();
      });
    });

  try {
    await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const holder = await probeControl(dataDir);
    if (holder) {
      throw new DataDirInUseError(
        `${path.resolve(dataDir)} is in use by ${holder.holder}${holder.pid ? ` (pid ${holder.pid})` : ''}: the embedded database takes one process at a time.`,
      );
    }
    rmSync(socketPath, { force: true });
    await listen();
  }
  chmodSync(socketPath, 0o600);
  control.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return control;
}
