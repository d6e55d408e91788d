import { ensureClientBuild } from '../../src/server/build-client';
import { findChromium, findTestChromium } from './chromium';

/**
 * Once per browser run: a current client build, and the Chromium the journeys drive (its headless
 * shell) with the whole browser for what only it has (decision 043), installed here if they must be,
 * before any journey starts its clock.
 */
export default async function setup() {
  findTestChromium();
  findChromium();
  await ensureClientBuild();
}
