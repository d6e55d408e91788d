import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
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

/**
 * Unix socket paths are limited to ~107 bytes; a long DATA_DIR gets a hashed name in a folder of
 * its own, `fancy-<uid>`, in $XDG_RUNTIME_DIR (else the temp folder), that only this user can write (CONTROL_DIR_MODE,
 * checked by `privateControlDir`): a name in the temp folder itself could be taken first by any
 * local user (issue 32).
 */
export function controlSocketPath(dataDir: string): string {
  return controlSocketPlace(dataDir).socketPath;
}

/** Where the socket is, and the private temp-folder home it is in (none when it is in DATA_DIR). */
function controlSocketPlace(dataDir: string): { socketPath: string; privateDir?: string } {
  const inside = path.join(path.resolve(dataDir), 'control.sock');
  if (Buffer.byteLength(inside) < 100) return { socketPath: inside };
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  // The login session's own runtime folder when there is one (only this user can make names
  // there, so nobody can take `fancy-<uid>` first and keep the server from starting).
  const runtime = process.env.XDG_RUNTIME_DIR;
  const privateDir = path.join(runtime && path.isAbsolute(runtime) ? runtime : tmpdir(), `fancy-${currentUid()}`);
  return { socketPath: path.join(privateDir, `${hash}.sock`), privateDir };
}

/** The mode of the temp-folder home of control sockets: this user only. */
export const CONTROL_DIR_MODE = 0o700;

/** A control socket (or its folder) that this process must not use: someone else's, or not what it should be. */
export class UnsafeControlSocketError extends Error {}

const currentUid = () => process.getuid?.() ?? 0;

/**
 * Checks the private folder of a temp-folder socket: a real folder (not a link), this user's,
 * writable by nobody else. With `create`, makes it first (mode CONTROL_DIR_MODE) if missing.
 */
function privateControlDir(dir: string | undefined, create: boolean): void {
  if (!dir) return;
  if (create) {
    try {
      mkdirSync(dir, { mode: CONTROL_DIR_MODE });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(dir);
  } catch (err) {
    if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!stats.isDirectory() || stats.uid !== currentUid() || (stats.mode & 0o077) !== 0) {
    throw new UnsafeControlSocketError(
      `${dir} (the folder of DATA_DIR's control socket) must be a folder owned by this user (uid ${currentUid()}) that nobody else can open (mode 700): it is not, so it is not used. Remove it, or use a shorter DATA_DIR.`,
    );
  }
}

/**
 * What is at `socketPath` before this process talks to it: nothing ('absent'), a socket of this
 * user's ('own'), or something left behind that is this user's but no socket ('stale'). Someone
 * else's socket or file, or a link, is refused: its owner would get the request (or the backup).
 */
function inspectSocket({ socketPath, privateDir }: { socketPath: string; privateDir?: string }): 'absent' | 'own' | 'stale' {
  privateControlDir(privateDir, false);
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(socketPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
  if (stats.isSymbolicLink() || stats.uid !== currentUid()) {
    throw new UnsafeControlSocketError(
      `${socketPath} (DATA_DIR's control socket) is ${stats.isSymbolicLink() ? 'a link' : `owned by another user (uid ${stats.uid})`}: it is not used. Check who put it there, and remove it.`,
    );
  }
  return stats.isSocket() ? 'own' : 'stale';
}

/** The control socket's path once it is safe to connect to (this user's own socket), or null when there is none to reach. */
export function ownControlSocket(dataDir: string): string | null {
  const place = controlSocketPlace(dataDir);
  return inspectSocket(place) === 'own' ? place.socketPath : null;
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
  // Never a request to a socket this user does not own (throws UnsafeControlSocketError).
  const socketPath = ownControlSocket(dataDir);
  if (!socketPath) return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/status', method: 'GET', timeout: 5_000 }, (res) => {
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
  const { socketPath, privateDir } = controlSocketPlace(dataDir);
  privateControlDir(privateDir, true);
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
    // Someone else's socket, or a link, is not ours to take over or to ask (UnsafeControlSocketError).
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
