#!/usr/bin/env node
/**
 * `npm test`: the browser journeys and the unit + API suite side by side (decision 039). Each
 * suite is CPU-bound on its own part (Chromium for the journeys, the app and its database for the
 * API tests), so together they finish sooner than one after the other. The journeys' output shows
 * as it comes; the other suite's is printed whole when it ends. Exits non-zero if either failed.
 *
 * The API suite runs on embedded PGlite, or on the PostgreSQL server of TEST_DATABASE_URL
 * (`.ci/run`). With one core the suites run one after the other.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { stripVTControlCharacters } from 'node:util';

const E2E = ['vitest', 'run', '--project', 'e2e'];
// One worker beside the journeys: a second would take the CPU the browser needs.
const UNIT_API = ['vitest', 'run', '--project', 'unit', '--project', 'api', '--maxWorkers=1'];

/** Runs a suite; its output is kept (to print the failures again at the end) and, unless `buffered`, shown as it comes. */
function run(args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      from.on('data', (d) => {
        chunks.push(d);
        if (!buffered) to.write(d);
      });
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
  });
}

const sideBySide = availableParallelism() >= 2;
const unitApiRun = sideBySide ? run(UNIT_API, { buffered: true }) : undefined;
const e2e = await run(E2E, { buffered: false });
const unitApi = unitApiRun ? await unitApiRun : await run(UNIT_API, { buffered: false });
if (sideBySide) {
  console.log('\n==> Unit and API suite (run beside the browser journeys)\n');
  process.stdout.write(unitApi.output);
}
/**
 * Vitest's "Failed Tests" section (names, errors, stacks), printed again last: a long run's log is
 * often read from its end, where the journeys' failures would otherwise be far above.
 */
function failures(output) {
  const lines = stripVTControlCharacters(output).split('\n');
  const from = lines.findIndex((l) => /Failed Tests \d+/.test(l));
  if (from < 0) return '';
  const to = lines.findIndex((l, i) => i > from && /^\s*Test Files /.test(l));
  return lines
    .slice(from, to < 0 ? undefined : to)
    .slice(0, 200)
    .join('\n');
}

for (const [name, result] of [
  ['browser journeys', e2e],
  ['unit + API', unitApi],
]) {
  if (result.code !== 0)
    console.log(`\n==> What failed in the ${name}\n${failures(result.output) || '(no failed test named: see the output above)'}`);
}
const failed = [e2e.code !== 0 && 'browser journeys', unitApi.code !== 0 && 'unit + API'].filter(Boolean);
console.log(failed.length ? `\nnpm test failed: ${failed.join(' and ')}.` : '\nnpm test passed: browser journeys, unit and API.');
// Not process.exit(): into a pipe (CI's `| tee`) the suite's output is still being written, and
// exiting at once cut the unit + API output, failures and all, mid-line.
process.exitCode = failed.length ? 1 : 0;
