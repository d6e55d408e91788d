import { ensureClientBuild } from '../../src/server/build-client';
import { findChromium } from './chromium';

/** Once per browser run: a current client build and a Chromium to drive. */
export default async function setup() {
  process.env.CHROMIUM_PATH = findChromium();
  await ensureClientBuild();
}
