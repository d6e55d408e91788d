#!/usr/bin/env node
/**
 * Runs the tests that deal with the time of day, the weekday, the date and UK daylight saving at
 * the moments most likely to break them, with the test clock (tests/clock/test-now.mjs) set through
 * FANCY_TEST_NOW: every process of a run — vitest, its workers, the servers tests start, the
 * embedded database and the browser pages — starts its clock at that moment.
 *
 *   node scripts/test-at-moments.mjs            the time-sensitive files at every moment
 *   node scripts/test-at-moments.mjs --all      the whole unit + API suite at every moment, and the files
 *   node scripts/test-at-moments.mjs --moment "Monday 00:01" [files…]   one moment, chosen files
 *
 * Prints vitest's summary for each moment and exits non-zero when any run failed.
 */
import { spawnSync } from 'node:child_process';

const MOMENTS = [
  ['Saturday 23:59', '2026-11-28T23:59:00Z'],
  ['Monday 00:01', '2026-11-30T00:01:00Z'],
  // 01:30 comes twice on 25 October 2026: 00:30 UTC (BST) and 01:30 UTC (GMT); this is the second.
  ['clocks go back, 01:30 the second time', '2026-10-25T01:30:00Z'],
  // 01:00 GMT becomes 02:00 BST on 28 March 2027: the run starts a minute before.
  ['clocks go forward, 00:59 the minute before', '2027-03-28T00:59:00Z'],
];

/** Unit and API files whose subject is a time of day, a weekday, a date or "now". */
const TIME_FILES = [
  'src/client/features/mixers/format.test.ts',
  'src/client/features/messages/time.test.ts',
  'src/server/modules/mixers/ranking.test.ts',
  'src/server/modules/formation/slots.test.ts',
  'src/server/modules/push/rules.test.ts',
  'src/server/modules/mixers/foryou.api.test.ts',
  'src/server/modules/push/push.api.test.ts',
  'src/server/modules/settings/reminders.api.test.ts',
  'src/server/modules/after-mixer/after-mixer.api.test.ts',
  'src/server/modules/invitations/invitations.api.test.ts',
  'src/server/modules/fancies/fancies.api.test.ts',
  'src/server/modules/formation/formation.api.test.ts',
];

/**
 * Browser journeys that show or act on times: quiet hours, the post-mixer window, invitations,
 * formation, day separators, For you's reasons (beside the demo's mixers, which start a fixed time
 * from now, formation holds seats at members' next free slot: at some hours the two overlap).
 */
const TIME_JOURNEYS = [
  'tests/e2e/audiences.e2e.ts',
  'tests/e2e/outside-the-tab.e2e.ts',
  'tests/e2e/after-mixer.e2e.ts',
  'tests/e2e/invitations.e2e.ts',
  'tests/e2e/formation-journey.e2e.ts',
  'tests/e2e/matches.e2e.ts',
];
/** Of those journeys, the tests that touch times (the rest of each file runs with the whole suite). */
const TIME_JOURNEY_TESTS =
  "For you with reasons|a discreet push|sets times and an ask|sees the invitation on Home|availability and an ask|Maya's matches";

function run(label, at, args) {
  console.log(`\n==> ${label} (FANCY_TEST_NOW=${at}): vitest ${args.join(' ')}`);
  const env = { ...process.env, FANCY_TEST_NOW: at };
  delete env.FANCY_TEST_NOW_ANCHOR;
  const res = spawnSync('npx', ['vitest', 'run', ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const out = `${res.stdout}${res.stderr}`;
  const failed = res.status !== 0;
  // The whole output of a failed run; of a green one, vitest's closing lines.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest's colour codes
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  console.log(
    failed
      ? plain
      : plain
          .split('\n')
          .filter((l) => /^\s+(Test Files|Tests|Duration)\s/.test(l))
          .join('\n'),
  );
  return !failed;
}

const argv = process.argv.slice(2);
const all = argv.includes('--all');
const momentAt = argv.indexOf('--moment');
const moments = momentAt >= 0 ? MOMENTS.filter(([label]) => label === argv[momentAt + 1]) : MOMENTS;
if (moments.length === 0) {
  console.error(`Unknown moment. One of: ${MOMENTS.map(([l]) => `"${l}"`).join(', ')}`);
  process.exit(2);
}
const files = argv.filter((a, i) => !a.startsWith('--') && i !== momentAt + 1);
const units = files.length ? files.filter((f) => !f.endsWith('.e2e.ts')) : all ? [] : TIME_FILES;
const journeys = files.length ? files.filter((f) => f.endsWith('.e2e.ts')) : TIME_JOURNEYS;

let ok = true;
for (const [label, at] of moments) {
  if (all || units.length) ok = run(label, at, ['--project', 'unit', '--project', 'api', ...units]) && ok;
  // The journeys' own timeout (vite.config.ts) already allows for running beside the whole suite.
  const only = files.length ? [] : ['-t', TIME_JOURNEY_TESTS];
  if (journeys.length) ok = run(label, at, ['--project', 'e2e', ...only, ...journeys]) && ok;
}
console.log(ok ? '\nEvery moment passed.' : '\nSome moment failed: see above.');
process.exitCode = ok ? 0 : 1; // not process.exit(): a failed run's whole output may still be on its way into a pipe
