/**
 * The embedded database's own thread (issue 15, decision 023): PGlite runs PostgreSQL's
 * WebAssembly synchronously, so on the main thread every statement stalled sockets and HTTP
 * for as long as it ran. Here it owns the database; src/server/db/pglite-thread.ts is its
 * client. Plain JavaScript, so that it runs the same from the sources, from tests and from the
 * `npm start` bundle (launch.mjs copies it beside the bundle).
 *
 * Requests: { id, op, ... } → answers { id, result } or { id, error }. Ops: init, query, exec,
 * begin / end (a transaction held open across requests), dump, close.
 */
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {PGlite | undefined} */
let db;
let txSeq = 0;
/** Open transactions: the PGlite transaction object and how to end it. */
const txs = new Map();

/** Parsers for the given type oids that keep the text (the drivers' choice for dates and intervals). */
const parsersCache = new Map();
function asText(oids) {
  if (!oids?.length) return undefined;
  const key = oids.join(',');
  let parsers = parsersCache.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(oids.map((oid) => [oid, (value) => value]));
    parsersCache.set(key, parsers);
  }
  return parsers;
}

function target(tx) {
  if (tx === undefined) return db;
  const open = txs.get(tx);
  if (!open) throw new Error('This transaction has already ended.');
  return open.tx;
}

/** What crosses the thread boundary of an error: its message and every field PostgreSQL set. */
function serialiseError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const out = { name: err.name, message: err.message };
  for (const [k, v] of Object.entries(err)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}

async function handle(req) {
  switch (req.op) {
    case 'init':
      // `initialData`: a dump to start a new data folder from (tests start from a migrated copy).
      // PGlite's own start parameters, then ours (`-c` settings): PGlite is loaded here, not on the server's thread.
      db = await PGlite.create(req.dataDir, {
        startParams: [...PGlite.defaultStartParams, ...req.settings.flatMap((s) => ['-c', s])],
        loadDataDir: req.initialData ? new Blob([req.initialData]) : undefined,
      });
      return null;
    case 'query': {
      const options = { rowMode: req.rowMode };
      const parsers = asText(req.textOids);
      if (parsers) options.parsers = parsers;
      const r = await target(req.tx).query(req.text, req.params, options);
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case 'exec': {
      const parsers = asText(req.textOids);
      const results = await target(req.tx).exec(req.text, parsers ? { parsers } : undefined);
      return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    }
    case 'begin': {
      const id = ++txSeq;
      let started;
      const ready = new Promise((resolve) => (started = resolve));
      const done = db.transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            txs.set(id, { tx, resolve, reject, done: undefined });
            started();
          }),
      );
      // Rolled back on purpose is not a failure of the request that asked for it.
      done.catch(() => {});
      await Promise.race([ready, done]);
      txs.get(id).done = done;
      return id;
    }
    case 'end': {
      const open = txs.get(req.tx);
      if (!open) return null;
      txs.delete(req.tx);
      if (req.commit) {
        open.resolve();
        await open.done;
      } else {
        open.reject(new Error('rolled back'));
        await open.done.catch(() => {});
      }
      return null;
    }
    case 'dump': {
      const file = await db.dumpDataDir(req.compression);
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'close':
      if (db && !db.closed) await db.close();
      return null;
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

parentPort.on('message', (req) => {
  handle(req).then(
    (result) => parentPort.postMessage({ id: req.id, result }),
    (err) => parentPort.postMessage({ id: req.id, error: serialiseError(err) }),
  );
});
