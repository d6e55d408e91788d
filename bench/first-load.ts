/**
 * First load on a phone (issue 15): a cold visit to the signed-out entry pages in Chromium at
 * 375 px with 4× CPU slowdown and a slow-4G link (1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT),
 * through Chromium's own throttling (CDP). Per page, the median of 3 cold loads (a new
 * browser context each: empty cache) of LCP and of the JavaScript bytes over the wire.
 *
 * Run alone against a running server: `node --import tsx bench/first-load.ts http://127.0.0.1:3000`.
 */
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium';

export const FIRST_LOAD_PAGES = ['/', '/auth/login', '/auth/register'] as const;
export const LCP_GOAL_MS = 1500;
export const JS_GOAL_KIB = 150;
const RUNS = 3;

/** Slow 4G as issue 15 states it; CDP takes bytes per second and the latency in ms. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1_000_000) / 8, uploadThroughput: (750 * 1000) / 8 };
const CPU_SLOWDOWN = 4;

export interface FirstLoad {
  lcpMs: number;
  jsBytes: number;
  scripts: number;
  /** Every response's bytes over the wire (HTML, CSS, JS, fonts, API). */
  totalBytes: number;
  /** Cumulative layout shift until the page is idle (the app taking over a prerendered page must not move it). */
  cls: number;
}

/** One cold load of `url` on the phone profile. */
export async function coldLoad(browser: Browser, url: string): Promise<FirstLoad> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const types = new Map<string, string>();
    let jsBytes = 0;
    let scripts = 0;
    let totalBytes = 0;
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      totalBytes += e.encodedDataLength;
      if (types.get(e.requestId) === 'Script') {
        jsBytes += e.encodedDataLength;
        scripts++;
      }
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number; __cls: number };
      w.__lcp = 0;
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) w.__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    // LCP entries are queued to the observer after the paint: give it a frame or two.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));
    const { lcp, cls } = await page.evaluate(() => {
      const w = window as unknown as { __lcp: number; __cls: number };
      return { lcp: w.__lcp, cls: w.__cls };
    });
    return { lcpMs: Math.round(lcp), jsBytes, scripts, totalBytes, cls: Math.round(cls * 1000) / 1000 };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The bench rows: per page the median of 3 cold loads, beside the goals, with ✓/✗. */
export async function benchFirstLoad(base: string) {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const rows = [];
  try {
    for (const p of FIRST_LOAD_PAGES) {
      const loads: FirstLoad[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, base + p));
      const lcp = median(loads.map((l) => l.lcpMs));
      const js = median(loads.map((l) => l.jsBytes));
      rows.push({
        page: p,
        lcp_ms: lcp,
        lcp_goal_ms: LCP_GOAL_MS,
        lcp_ok: lcp > 0 && lcp <= LCP_GOAL_MS ? '✓' : '✗',
        js_kib_wire: kib(js),
        js_goal_kib: JS_GOAL_KIB,
        js_ok: kib(js) <= JS_GOAL_KIB ? '✓' : '✗',
        scripts: median(loads.map((l) => l.scripts)),
        all_kib_wire: kib(median(loads.map((l) => l.totalBytes))),
        cls: Math.max(...loads.map((l) => l.cls)),
        lcp_runs_ms: loads.map((l) => l.lcpMs).join(' / '),
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2] ?? 'http://127.0.0.1:3000';
  console.log(`First load on a phone: ${base} (375 px, 4× CPU, 1.6 Mbit/s / 750 kbit/s, 150 ms RTT, cold cache, median of ${RUNS})`);
  console.table(await benchFirstLoad(base));
}
