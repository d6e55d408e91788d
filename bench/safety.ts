/**
 * Before harm (issue 30): each text detector scored on the labelled set (precision and recall
 * beside its goal, with its false accepts and misses), and what checking one line costs a send
 * (goal ≤ 1 ms at p99). Run alone: `node --import tsx bench/safety.ts`.
 */
import { performance } from 'node:perf_hooks';
import { checkLine } from '../src/shared/safety/detect';
import { loadLabelledSet, ORDINARY_FLAGGED_GOAL, RECALL_GOALS, scoreDetectors } from '../tests/fixtures/safety/labelled';

const CHECK_GOAL_MS = 1;
const pct = (n: number) => `${(n * 100).toFixed(1)} %`;

export async function benchSafety() {
  const set = loadLabelledSet();
  const { scores, ordinary } = scoreDetectors(set);
  const detectors = scores.map((s) => ({
    detector: s.detector,
    lines: s.lines,
    recall: s.recall.toFixed(3),
    recall_goal: `≥ ${RECALL_GOALS[s.detector]}`,
    precision: s.precision.toFixed(3),
    misses: s.misses.length,
    false_accepts: s.falseAccepts.length,
    ok: s.recall >= RECALL_GOALS[s.detector] ? 'yes' : 'NO',
  }));
  const ordinaryRow = {
    ordinary_lines: ordinary.lines,
    flagged_by_any: ordinary.flagged.length,
    share: pct(ordinary.flaggedShare),
    goal: `≤ ${pct(ORDINARY_FLAGGED_GOAL)}`,
    ok: ordinary.flaggedShare <= ORDINARY_FLAGGED_GOAL ? 'yes' : 'NO',
  };
  const examples = [
    ...scores.flatMap((s) => s.misses.map((text) => ({ detector: s.detector, kind: 'miss', text }))),
    ...scores.flatMap((s) => s.falseAccepts.map((text) => ({ detector: s.detector, kind: 'false accept', text }))),
  ];

  // The cost a send pays: every detector on one line, with the room's names (warm, as a server is).
  const participants = set.participants;
  for (const line of set.lines) checkLine(line.text, { participants });
  // Wall time includes whatever else this shared machine runs meanwhile; CPU time (this process's
  // user + system time across the call, GC included) is what the check itself adds to a send.
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const line of set.lines) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      checkLine(line.text, { participants });
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  const quantiles = (times: number[]) => {
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return { p50: at(0.5), p99: at(0.99), max: times[times.length - 1] };
  };
  const w = quantiles(wall);
  const c = quantiles(cpu);
  const speed = {
    checks: wall.length,
    cpu_p50_ms: c.p50.toFixed(3),
    cpu_p99_ms: c.p99.toFixed(3),
    wall_p50_ms: w.p50.toFixed(3),
    wall_p99_ms: w.p99.toFixed(3),
    goal: `p99 ≤ ${CHECK_GOAL_MS} ms`,
    ok: c.p99 <= CHECK_GOAL_MS ? 'yes' : 'NO',
  };
  return { detectors, ordinary: [ordinaryRow], examples, speed: [speed] };
}

export function printSafety(r: Awaited<ReturnType<typeof benchSafety>>) {
  console.log('Before harm (issue 30): detectors on the labelled set (tests/fixtures/safety/lines.json), recall beside its goal');
  console.table(r.detectors);
  console.log('Ordinary lines flagged by any detector');
  console.table(r.ordinary);
  console.log('Misses and false accepts');
  if (r.examples.length) console.table(r.examples);
  else console.log('(none)');
  console.log('Checking a line adds to a send (all three detectors, one line)');
  console.table(r.speed);
}

if (import.meta.url === `file://${process.argv[1]}`) printSafety(await benchSafety());
