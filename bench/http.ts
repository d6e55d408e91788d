/**
 * The HTTP rows of `npm run bench` (DESIGN §7, issue 33): ours against bare Fastify and bare
 * node:http sending the same answers, on loopback, in the same run.
 */
import type { Answer } from './bare-answers';
import { freePort, type LoadResult, load, spawnUntil } from './lib';

export const RATIO_TARGET = 0.9;
/** Each figure is the median of this many rounds of ROUND_SECONDS per server, taken in turn. */
const ROUNDS = 5;
const ROUND_SECONDS = 3;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** What a browser sends: the compressed row (decision 015) has the bare servers send the same brotli bytes. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br' };

/** Headers that describe one answer's transfer, not the answer: the bare servers make their own. */
const TRANSFER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Our answer to GET path as the bare servers replay it: status line aside, the same headers and body. */
async function answerOf(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const sent: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!TRANSFER_HEADERS.has(name)) sent[name] = value;
  });
  return { headers: sent, body: body.toString('base64') };
}

export async function benchHttp(base: string) {
  const paths = ['/api/health', '/api/catalog/interests'];
  const catalog = '/api/catalog/interests';
  // What a client without compression gets, and (the catalogue) what a browser gets: ours answers
  // brotli from the cached copy. The bare servers send the same bytes — headers (the security
  // headers included) and body — so the ratios compare the work of answering, not the answers.
  const routes: Record<string, { plain: Answer; br?: Answer }> = {};
  for (const p of paths) routes[p] = { plain: await answerOf(base + p) };
  routes[catalog].br = await answerOf(base + catalog, BROWSER_ENCODINGS);
  const runs: { label: string; path: string; headers?: Record<string, string> }[] = [
    ...paths.map((p) => ({ label: `GET ${p}`, path: p })),
    { label: `GET ${catalog} (br)`, path: catalog, headers: BROWSER_ENCODINGS },
  ];
  const barePort = freePort();
  const bare = await spawnUntil(
    ['--import', 'tsx', 'bench/bare-server.ts'],
    { PORT: String(barePort), BARE_ROUTES: JSON.stringify(routes) },
    'bare ready',
  );
  // The ceiling for any Fastify app, and the goal's baseline (issue 33): bare Fastify with the same bytes.
  const fastifyPort = freePort();
  const fastify = await spawnUntil(
    ['--import', 'tsx', 'bench/bare-fastify.ts'],
    { PORT: String(fastifyPort), BARE_ROUTES: JSON.stringify(routes) },
    'bare ready',
  );
  const rows = [];
  try {
    for (const { label, path: p, headers } of runs) {
      // Short rounds in turn, the median of each: a shared machine's slow spell then falls on all
      // three servers instead of on whichever was being measured.
      const rounds: { b: LoadResult; o: LoadResult; f: LoadResult }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const b = await load(`http://127.0.0.1:${barePort}${p}`, { headers, seconds: ROUND_SECONDS });
        const o = await load(base + p, { headers, seconds: ROUND_SECONDS });
        const f = await load(`http://127.0.0.1:${fastifyPort}${p}`, { headers, seconds: ROUND_SECONDS });
        rounds.push({ b, o, f });
      }
      const median = (pick: (r: (typeof rounds)[number]) => number) => {
        const sorted = rounds.map(pick).sort((x, y) => x - y);
        return sorted[Math.floor(sorted.length / 2)];
      };
      const vsFastify = median((r) => r.o.reqPerSec / r.f.reqPerSec);
      rows.push({
        endpoint: label,
        ours_rps: median((r) => r.o.reqPerSec),
        bare_fastify_rps: median((r) => r.f.reqPerSec),
        bare_rps: median((r) => r.b.reqPerSec),
        ours_vs_fastify: round2(vsFastify),
        goal: `≥ ${RATIO_TARGET}`,
        pass: vsFastify >= RATIO_TARGET ? '✓' : '✗',
        ours_vs_bare: round2(median((r) => r.o.reqPerSec / r.b.reqPerSec)),
        fastify_vs_bare: round2(median((r) => r.f.reqPerSec / r.b.reqPerSec)),
        ours_p99_ms: median((r) => r.o.p99Ms),
        bare_fastify_p99_ms: median((r) => r.f.p99Ms),
        errors: rounds.reduce((n, r) => n + r.o.errors + r.o.non2xx, 0),
      });
    }
  } finally {
    bare.kill('SIGTERM');
    fastify.kill('SIGTERM');
  }
  return rows;
}
