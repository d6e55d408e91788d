/**
 * The baseline of the signed-in read rows (issue 15): a bare node:http server that runs the
 * same SQL with the same driver and sends the same JSON.
 *
 * On its own copy of the seeded DATA_DIR it first runs our real server in this process with
 * every PGlite call recorded, signs in and asks for BARE_PATH a few times: the statements of a
 * steady request (the last, shortest one), with the very arguments and options our code passed
 * (text, parameters, row mode, type parsers), and the body it answered. It then closes our
 * server, opens the same files with a bare PGlite on its own thread (as ours, decision 023), runs the statements of our first request once
 * (the PREPAREs our statement cache issues), and answers every request to BARE_PATH by running
 * the recorded statements one after another on that PGlite and sending the recorded body.
 * No Fastify, no auth, no JSON building: what is left of ours above this is our overhead.
 */
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { PGLITE_SETTINGS } from '../src/server/db/client';
import { PGliteThread } from '../src/server/db/pglite-thread';
import { startServer } from '../src/server/main';
import { signIn } from './seed';

type Call = { method: 'query' | 'exec'; args: unknown[] };

const dataDir = process.env.DATA_DIR ?? '';
const target = process.env.BARE_PATH ?? '';
const email = process.env.BARE_EMAIL ?? '';

let recording: Call[] | null = null;
const proto = PGliteThread.prototype as unknown as Record<'query' | 'exec', (...args: unknown[]) => Promise<unknown>>;
for (const method of ['query', 'exec'] as const) {
  const original = proto[method];
  proto[method] = function (this: unknown, ...args: unknown[]) {
    recording?.push({ method, args });
    return original.apply(this, args);
  };
}

const config = loadConfig({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'error',
  PUBLIC_URL: 'http://localhost:3000',
});
const running = await startServer(config, {});
const address = running.app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const cookie = await signIn(base, email);

async function recordOne(): Promise<{ calls: Call[]; body: string; type: string; status: number }> {
  recording = [];
  const res = await fetch(base + target, { headers: { cookie } });
  const body = await res.text();
  const calls = recording;
  recording = null;
  return { calls, body, type: res.headers.get('content-type') ?? 'application/json', status: res.status };
}

const first = await recordOne();
const steady = [await recordOne(), await recordOne(), await recordOne()].sort((a, b) => a.calls.length - b.calls.length)[0];
if (steady.status !== 200) throw new Error(`bare capture: ${target} answered ${steady.status}: ${steady.body.slice(0, 200)}`);
await running.close();

const client = await PGliteThread.create(path.resolve(dataDir, 'pglite'), PGLITE_SETTINGS);
const run = async (calls: Call[], tolerant: boolean) => {
  for (const c of calls) {
    const call = (client[c.method] as (...a: unknown[]) => Promise<unknown>).apply(client, c.args);
    await (tolerant ? call.catch(() => undefined) : call);
  }
};
await run(first.calls, true);
await run(steady.calls, false);
if (process.env.BARE_DUMP) {
  appendFileSync(process.env.BARE_DUMP, `--- ${target}: first request ${first.calls.length} calls, steady ${steady.calls.length}\n`);
  // Per-statement timings of a steady request (profiling, decision 016).
  for (const c of steady.calls) {
    const t = performance.now();
    for (let i = 0; i < 50; i++) await (client[c.method] as (...a: unknown[]) => Promise<unknown>).apply(client, c.args);
    if (process.env.BARE_EXPLAIN && c.method === 'exec' && String(c.args[0]).startsWith('execute ')) {
      const [plan] = await client.exec(`explain (analyze, costs off) ${c.args[0]}`);
      appendFileSync(process.env.BARE_DUMP, `${plan.rows.map((r) => Object.values(r)[0]).join('\n')}\n`);
    }
    appendFileSync(
      process.env.BARE_DUMP,
      `${((performance.now() - t) / 50).toFixed(3)} ms  ${c.method}  ${String(c.args[0]).replace(/\s+/g, ' ').slice(0, 300)}\n`,
    );
  }
}

const headers = { 'content-type': steady.type, 'content-length': Buffer.byteLength(steady.body) };
const server = http.createServer((req, res) => {
  if (req.url !== target) {
    res.writeHead(404).end();
    return;
  }
  run(steady.calls, false).then(
    () => res.writeHead(200, headers).end(steady.body),
    (err) => res.writeHead(500).end(String(err)),
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1', () =>
  console.log(`bare ready ${JSON.stringify({ statements: steady.calls.length, bytes: headers['content-length'] })}`),
);
process.on('SIGTERM', () => server.close(() => client.close().then(() => process.exit(0))));
