import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { shiftClock, testClockOffset } from '../clock/test-now.mjs';

const BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
/** Debian's `chromium-headless-shell` (the binary itself: /usr/bin's is a shell script that starts it). */
const HEADLESS_SHELLS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

const canInstall = () => process.getuid?.() === 0 && existsSync('/etc/debian_version');

/**
 * CHROMIUM_PATH when set, else the first of `paths` that exists; failing that, as root on Debian,
 * Debian's package `pkg` installed with apt-get. Undefined when none is found.
 */
function findOrInstall(paths: string[], pkg: string): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && !existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`);
  const found = fromEnv ?? paths.find((p) => existsSync(p));
  if (found || !canInstall()) return found;
  console.log(`Installing Debian's "${pkg}" package with apt-get…`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return paths.find((p) => existsSync(p));
}

/**
 * Finds Chromium, the whole browser (the benches measure pages with it, as the web does):
 * CHROMIUM_PATH, then the usual paths. As root on Debian with none found it installs Debian's
 * `chromium`; otherwise it stops with a message saying how to get one.
 */
export function findChromium(): string {
  const found = findOrInstall(BROWSERS, 'chromium');
  if (found) return found;
  throw new Error(
    'Browser tests need Chromium. Install it (Debian/Ubuntu: `sudo apt-get install chromium chromium-headless-shell`; macOS: install Google Chrome) or set CHROMIUM_PATH to its executable.',
  );
}

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, then Debian's headless shell (the same
 * engine without the browser's own windows and tabs, which Playwright also runs headless tests
 * in), installed with apt-get as root on Debian; else the whole browser (findChromium). Three
 * journey files took 0.44–0.70× the CPU in the shell (decision 043).
 */
export function findTestChromium(): string {
  return findOrInstall(HEADLESS_SHELLS, 'chromium-headless-shell') ?? findChromium();
}

/** Flags for a closed network (no background calls home) and root in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * With FANCY_TEST_NOW set, every page of every context the browser opens starts with the same clock
 * as the server and the test (tests/clock/test-now.mjs); otherwise the browser as it is.
 */
export function withTestClock(browser: Browser): Browser {
  const offset = testClockOffset();
  if (offset === 0) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript({ content: `(${shiftClock.toString()})(globalThis, ${offset});` });
    return context;
  };
  return browser;
}
