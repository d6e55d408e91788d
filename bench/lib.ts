import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadResult {
  reqPerSec: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** The arguments `npm start` gives node (package.json), so a bench runs the server as it really starts. */
export const START_ARGS = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .slice(1);
/** Of those, the options for node and V8 (the heap's young generation, V8's helper threads). */
export const START_NODE_OPTIONS = START_ARGS.filter((a) => a.startsWith('--'));

/** Spawns a process and resolves once it prints `ready` (a line containing it); `output` is what it printed by then. */
export function spawnUntil(args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess & { output: string }> {
  const proc = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d.toString();
      if (out.includes(ready)) resolve(Object.assign(proc, { output: out }));
    });
    proc.stderr?.on('data', (d) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`process exited (${code}):\n${out}`)));
  });
}

/** A bounded autocannon run on loopback. */
export async function load(
  url: string,
  opts: { seconds?: number; connections?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({ url, duration: opts.seconds ?? 8, connections: opts.connections ?? 32, headers: opts.headers });
  return { reqPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

export const ratio = (ours: number, bare: number) => Math.round((ours / bare) * 100) / 100;

export function freePort(): number {
  return 24000 + Math.floor(Math.random() * 8000);
}
