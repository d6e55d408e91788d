/**
 * Server-rendered member pages under abuse (issue 32, `npm run bench`): one member fires 300
 * member-page requests (`GET /mixers`, the page the server renders, decision 028) at concurrency
 * 30, again and again, while another member keeps using the API. Renders are shared out per
 * member and in total (src/server/http/member-page.ts): pages over the member's share are the
 * client-rendered shell at once, so the other member's reads should hardly notice.
 *
 * Reported: the other member's GET /api/mixers latency (p50/p95, sequential requests) with
 * nobody flooding and during the flood, their p95 ratio against the goal (≤ 2× idle), and what
 * the flood got: pages, how many were rendered on the server, how many refused (429, past the
 * member's pace of page requests, answered after a wait), errors. Real server in its own
 * process (`startBenchServer`, the client build as `npm start` serves it), loopback only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMembers, signIn, startBenchServer, withBenchDatabase } from './seed';

const FLOOD_REQUESTS = 300;
const FLOOD_CONCURRENCY = 30;
/** The other member's sequential reads in each phase, at least. */
const REQUESTS = 200;
/** The flood may cost the other member at most this factor on p95 (issue 32). */
const GOAL_RATIO = 2;
const PAGE = '/mixers';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
};

/** Sequential GETs until `enough()` says so (and at least one). */
async function timedGets(url: string, cookie: string, enough: (n: number) => boolean): Promise<number[]> {
  const times: number[] = [];
  do {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
    times.push(performance.now() - t0);
  } while (!enough(times.length));
  return times;
}

/** One round: FLOOD_REQUESTS page requests, FLOOD_CONCURRENCY at a time, as a browser asks. */
async function floodRound(url: string, cookie: string) {
  let next = 0;
  let rendered = 0;
  let refused = 0;
  let errors = 0;
  const worker = async () => {
    while (next < FLOOD_REQUESTS) {
      next++;
      try {
        const res = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
        const body = await res.text();
        if (res.status === 429) refused++;
        else if (!res.ok) errors++;
        else if (body.includes('data-ssr')) rendered++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, worker));
  return { rendered, refused, errors };
}

export async function benchMemberPagesFlood() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-pages-'));
  const people = [
    { name: 'Flo Flood', email: 'flood@bench.example' },
    { name: 'Oti Other', email: 'other@bench.example' },
  ];
  await withBenchDatabase(dataDir, (database) => createMembers(database, people));
  const server = await startBenchServer(dataDir, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
  const { base } = server;
  try {
    const flooder = await signIn(base, people[0].email);
    const other = await signIn(base, people[1].email);
    // The renderer loads at the first member page (decision 028): wait until it renders.
    for (let i = 0; i < 100; i++) {
      const body = await (await fetch(base + PAGE, { headers: { cookie: other } })).text();
      if (body.includes('data-ssr')) break;
      if (i === 99) throw new Error('the member pages renderer never rendered');
      await new Promise((r) => setTimeout(r, 100));
    }
    await timedGets(`${base}/api/mixers`, other, (n) => n >= 50); // warm-up
    const quiet = await timedGets(`${base}/api/mixers`, other, (n) => n >= REQUESTS);

    let flooding = true;
    let rounds = 0;
    let rendered = 0;
    let refused = 0;
    let errors = 0;
    const flood = (async () => {
      while (flooding) {
        const round = await floodRound(base + PAGE, flooder);
        rounds++;
        rendered += round.rendered;
        refused += round.refused;
        errors += round.errors;
      }
    })();
    // Measured while the flood runs: at least REQUESTS reads and at least one whole round.
    const during = await timedGets(`${base}/api/mixers`, other, (n) => n >= REQUESTS && rounds >= 1);
    flooding = false;
    await flood;

    const quietP95 = percentile(quiet, 95);
    const floodP95 = percentile(during, 95);
    return [
      {
        quiet_p50_ms: percentile(quiet, 50),
        quiet_p95_ms: quietP95,
        flood_p50_ms: percentile(during, 50),
        flood_p95_ms: floodP95,
        p95_ratio: Math.round((floodP95 / quietP95) * 100) / 100,
        goal: `p95 ≤ ${GOAL_RATIO}× idle`,
        pass: floodP95 <= quietP95 * GOAL_RATIO ? '✓' : '✗',
        requests_each_phase: during.length,
        flood_pages: rounds * FLOOD_REQUESTS,
        flood_rendered: rendered,
        flood_refused_429: refused,
        flood_errors: errors,
      },
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
