/**
 * `npm run simulate`: the formation job over two simulated weeks for 10,000 synthetic members
 * (spreads and sources: bench/simulate-lib.ts), on the embedded database and, when
 * BENCH_DATABASE_URL is set, on PostgreSQL. Each figure is printed beside its goal.
 */
import { report, SIM_MEMBERS, type SimulationResult, simulateOn, summary, withSimDatabase } from './simulate-lib';

const targets: [SimulationResult['database'], string | undefined][] = [['PGlite', undefined]];
if (process.env.BENCH_DATABASE_URL) targets.push(['PostgreSQL', process.env.BENCH_DATABASE_URL]);
else console.log('(Set BENCH_DATABASE_URL to a PostgreSQL server to simulate on PostgreSQL too.)');

let failed = false;
for (const [label, url] of targets) {
  console.log(
    `\nFormation simulation on ${label}: ${SIM_MEMBERS.toLocaleString('en-GB')} members, two simulated weeks, a run every 6 hours`,
  );
  const result = await withSimDatabase(url, (database) => simulateOn(database, label));
  const rows = report(result);
  console.table(rows);
  console.log(summary(result));
  if (rows.some((r) => r.ok === '✗')) failed = true;
}
process.exitCode = failed ? 1 : 0;
