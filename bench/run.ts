/**
 * `npm run bench`: performance budgets of DESIGN §7, measured on loopback. Every figure is
 * reported next to a baseline measured in the same run (shared, noisy machines).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureClientBuild } from '../src/server/build-client';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium';
import { benchFirstLoad, JS_GOAL_KIB, LCP_GOAL_MS } from './first-load';
import { benchHttp, RATIO_TARGET } from './http';
import { startBenchServer } from './seed';

const BUDGET_KIB = 150;

/** Initial JavaScript a first visit downloads, gzipped, measured in Chromium. */
async function initialJs(base: string) {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const rows = [];
  try {
    for (const p of ['/', '/auth/login', '/auth/register']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => gzipSync(b).length));
      });
      await page.goto(base + p, { waitUntil: 'networkidle' });
      const bytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
      rows.push({
        page: p,
        scripts: scripts.length,
        gzip_kib: Math.round((bytes / 1024) * 10) / 10,
        budget_kib: BUDGET_KIB,
        within: bytes / 1024 <= BUDGET_KIB,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return rows;
}

async function optional(file: string, name: string): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(path.join(import.meta.dirname, `${file}.ts`))) return undefined;
  const mod = (await import(`./${file}`)) as Record<string, () => Promise<Record<string, unknown>>>;
  return mod[name]();
}

await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-bench-'));
const started = Date.now();
const server = await startBenchServer(dataDir);
const { base } = server;
const startupMs = Date.now() - started;
try {
  console.log(`\nStart-up to listening (fresh DATA_DIR, migrations + reference data): ${startupMs} ms\n`);
  console.log(`HTTP: ours vs bare Fastify serving the same bytes (goal ≥ ${RATIO_TARGET}×, issue 33), and both vs bare node:http`);
  console.log(
    '(bare: node:http, and bare_fastify: Fastify with no plugins or hooks, each sending our exact headers and body; bare_fastify is the ceiling for any Fastify app)',
  );
  console.table(await benchHttp(base));
  console.log(`Initial JavaScript, gzipped (budget ≤ ${BUDGET_KIB} KiB)`);
  console.table(await initialJs(base));
  console.log(
    `First load on a phone: 375 px, 4× CPU, 1.6 Mbit/s down / 750 kbit/s up, 150 ms RTT, cold cache, median of 3 (goals: LCP ≤ ${LCP_GOAL_MS} ms, JS over the wire ≤ ${JS_GOAL_KIB} KiB)`,
  );
  console.table(await benchFirstLoad(base));
} finally {
  await server.stop();
}
const fanout = await optional('chat-fanout', 'benchChatFanout');
if (fanout) {
  console.log('Chat fan-out: 50 mixers × 8 members, 1 msg/s each (ours vs a bare ws broadcast server)');
  console.table(fanout);
}
const liveRoom = await optional('chat-live-room', 'benchChatLiveRoom');
if (liveRoom) {
  console.log(
    'Chat with typing and reactions (issue 29): 400 sockets in 50 mixers, 1 line/s per room, a third typing (1 event per 3 s), a reaction per 5 lines (switched on where the reaction message exists)',
  );
  console.table(liveRoom);
}
const conversation = await optional('conversation', 'benchConversation');
if (conversation) {
  console.log('Conversation page (50 messages): ours vs bare node:http running the same SQL on the same driver, same JSON');
  console.table(conversation);
}
const mixerList = await optional('mixers', 'benchMixers');
if (mixerList) {
  console.log('Mixers list (signed-in member, one page): ours vs bare node:http running the same SQL on the same driver, same JSON');
  console.table(mixerList);
}
const flood = await optional('realtime-flood', 'benchRealtimeFlood');
if (flood) {
  console.log("Realtime flood: one member's sockets flooding vs another member's GET /api/mixers (p95 ratio goal ≤ 3)");
  console.table(flood);
}
const pagesFlood = await optional('member-pages-flood', 'benchMemberPagesFlood');
if (pagesFlood) {
  console.log(
    "Member pages flood (issue 32): one member firing 300 member-page requests (GET /mixers) at concurrency 30 vs another member's GET /api/mixers (p95 goal ≤ 2× idle)",
  );
  console.table(pagesFlood);
}
const forYou = await optional('foryou', 'benchForYou');
if (forYou) {
  console.log('For you (signed-in member, one ranked page, a few thousand mixers and members): ours vs bare node:http');
  console.table(forYou);
}
const simulation = await optional('simulate-lib', 'benchSimulate');
if (simulation) {
  console.log(
    'Formation simulation: 10,000 synthetic members, two simulated weeks (npm run simulate; PostgreSQL too with BENCH_DATABASE_URL)',
  );
  console.table(simulation);
}
const verification = await optional('verification', 'benchVerification');
if (verification) {
  console.log(
    'Verified members (issues 21, 31): one on-server check of a whole capture (goal ≤ 3 s) and chat p99 while ten verifications run',
  );
  console.table(verification);
}
const verificationTables = await optional('verification', 'benchVerificationTables');
if (verificationTables) {
  console.log('Liveness attack sets (issue 31): what each verdict was (goal: no attack passes, every genuine capture does)');
  console.table(verificationTables.liveness);
  console.log(
    'Face match (issue 31): FaceRes and face-api on every pair of the shipped grid, straight and mirrored; the labelled pairs judge it, the not-known ones (mostly two different women) guide it (goal: no false accept; same person accepted: 90 %)',
  );
  console.table(verificationTables.faceMatch);
}
const phone = await optional('lighthouse', 'benchLighthouse');
if (phone) {
  console.log(
    'Member pages on a phone (issue 19): Lighthouse 12.2.3 default mobile run, demo data, cold cache, median of 3 (goals: performance ≥ 90, LCP ≤ 2,500 ms, TBT ≤ 200 ms, CLS ≤ 0.1, accessibility 100, best practices ≥ 95)',
  );
  console.table(phone.lighthouse);
  console.log(
    'Warm visit (second load, same browser, slow 4G and 4× CPU): scripts asked for again (goal 0), own content painted (goal ≤ 1,000 ms)',
  );
  console.table(phone.warm);
  console.log(
    'Interaction: INP typing in a live chat with 200 messages (goal ≤ 100 ms), TBT of the mixers list with 100 more mixers (goal ≤ 200 ms)',
  );
  console.table(phone.interaction);
}
const safety = await optional('safety', 'benchSafety');
if (safety) {
  const { printSafety } = await import('./safety');
  printSafety(safety as Awaited<ReturnType<typeof import('./safety').benchSafety>>);
}
const firstTap = await optional('first-tap', 'benchFirstTap');
if (firstTap) {
  console.log(
    'First tap (issue 33): on each member page, throttled phone (4× CPU, slow 4G, cold cache), a touch tap on a link and on the account menu at first paint, +250 and +500 ms: where it landed, ms from tap to result; FCP → app take-over (goals: every tap lands, links ≤ 1,500 ms, FCP → app ≤ 1,000 ms)',
  );
  console.table(firstTap);
}
const memory = await optional('memory', 'benchMemoryAndRestart');
if (memory) {
  console.log('Warm restart and resident memory, embedded mode (issue 15, decision 017)');
  console.table(memory);
}
rmSync(dataDir, { recursive: true, force: true });
