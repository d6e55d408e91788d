import { Worker } from 'node:worker_threads';

/** A result as PGlite answers it (what drizzle's PGlite driver and db/prepared.ts read). */
export interface ThreadResult<T = Record<string, unknown>> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** What callers pass as options: drizzle passes `parsers` that keep dates as text, and so do we. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

interface Queries {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult<T>>;
  exec(text: string, options?: QueryOptions): Promise<ThreadResult[]>;
}

/**
 * The embedded database on its own thread (issue 15, decision 023): the client half of
 * pglite-worker.mjs, with the part of PGlite's interface that drizzle and db/prepared.ts use
 * (query, exec, transaction, dumpDataDir, close). Statements run in the worker, so however long
 * one takes, the event loop keeps serving sockets and HTTP.
 *
 * Type parsers cannot cross threads: every parser passed here must keep the value's text (the
 * only kind drizzle and db/prepared.ts pass); the worker applies that to the same type oids.
 */
export class PGliteThread implements Queries {
  private worker: Worker;
  private seq = 0;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private failed?: Error;
  closed = false;
  private closing?: Promise<void>;

  private constructor() {
    this.worker = new Worker(workerFile());
    this.worker.on('message', (m: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(Object.assign(new Error(String(m.error.message)), m.error));
      else p.resolve(m.result);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`The database thread stopped (exit code ${code}).`)));
  }

  /**
   * Starts the thread and opens the database in `dataDir` (or `memory://`) with PostgreSQL's `-c`
   * `settings` (e.g. `shared_buffers=16MB`); a new data folder starts from `initialData` (a
   * `dumpDataDir` tar) when given.
   */
  static async create(dataDir: string, settings: string[], initialData?: Uint8Array): Promise<PGliteThread> {
    const client = new PGliteThread();
    try {
      await client.call({ op: 'init', dataDir, settings, initialData });
    } catch (err) {
      await client.worker.terminate();
      throw err;
    }
    return client;
  }

  query<T = Record<string, unknown>>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<ThreadResult<T>> {
    return this.call({ op: 'query', text, params, rowMode: options?.rowMode, textOids: textOids(options) });
  }

  exec(text: string, options?: QueryOptions): Promise<ThreadResult[]> {
    return this.call({ op: 'exec', text, textOids: textOids(options) });
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Queries) => Promise<T>): Promise<T> {
    const tx = await this.call<number>({ op: 'begin' });
    const scoped: Queries = {
      query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) =>
        this.call<ThreadResult<R>>({ op: 'query', tx, text, params, rowMode: options?.rowMode, textOids: textOids(options) }),
      exec: (text, options) => this.call({ op: 'exec', tx, text, textOids: textOids(options) }),
    };
    let result: T;
    try {
      result = await fn(scoped);
    } catch (err) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => {});
      throw err;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  /** The data directory as a tarball (PGlite's dumpDataDir), e.g. for backups. */
  async dumpDataDir(compression?: 'auto' | 'gzip' | 'none'): Promise<File> {
    const bytes = await this.call<Uint8Array>({ op: 'dump', compression });
    return new File([bytes as Uint8Array<ArrayBuffer>], compression === 'none' ? 'pgdata.tar' : 'pgdata.tar.gz');
  }

  /** Closes the database and ends the thread; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      try {
        await this.call({ op: 'close' });
      } finally {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private call<T>(request: Record<string, unknown>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  private fail(err: Error) {
    this.failed ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

function textOids(options?: QueryOptions): number[] | undefined {
  return options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
}

/** Beside this module in the sources, and beside the bundle in dist/server (launch.mjs copies it there). */
const workerFile = () => new URL('./pglite-worker.mjs', import.meta.url);
