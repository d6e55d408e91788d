import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { shiftClock, testClockOffset } from '../clock/test-now.mjs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * Finds Chromium: CHROMIUM_PATH, then the usual paths. As root on Debian with none found it
 * installs Debian's `chromium`; otherwise it stops with a message saying how to get one.
 */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`);
    return fromEnv;
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/etc/debian_version')) {
    console.log('Chromium not found: installing Debian\'s "chromium" package with apt-get…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = CANDIDATES.find((p) => existsSync(p));
    if (installed) return installed;
  }
  throw new Error(
    'Browser tests need Chromium. Install it (Debian/Ubuntu: `sudo apt-get install chromium`; macOS: install Google Chrome) or set CHROMIUM_PATH to its executable.',
  );
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
