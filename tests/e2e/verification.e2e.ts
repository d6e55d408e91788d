import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberVerifications, mixerMemberships, mixers, profiles, user, verificationReviews } from '../../src/server/db/schema';
import { BLINK_TEXT, FAIL_REASONS, FRAME_PROBLEMS } from '../../src/shared/verification';
import { seedAgeReview } from '../helpers/verification-fixtures';
import { face, type Who } from '../fixtures/faces';
import { checkA11y } from './a11y';
import { CHROMIUM_ARGS, findChromium } from './chromium';
import { writeStillY4m } from './y4m';
import { appReady, E2E_PASSWORD, type E2E, startE2E } from './harness';

/**
 * Issue 21 in Chromium with a fake camera: the camera is fed a y4m video written at test time
 * from a test photo (a face that does not move; tests/e2e/y4m.ts, no video tool needed). The member goes through consent, the
 * challenge and the verdict — a still face is refused with a reason; an unverified member is
 * turned away from a verified-only mixer kindly; an admin decides an age review and the member
 * sees the badge. Screenshots at 1280 and 375 px.
 */
let e2e: E2E;
let camBrowser: Browser;
/** A second browser whose camera films in the dark. */
let darkBrowser: Browser;
let work: string;
const SHOTS = process.env.VERIFY_SHOTS_DIR;

beforeAll(async () => {
  e2e = await startE2E();
  work = mkdtempSync(path.join(tmpdir(), 'fancy-verify-e2e-'));
  // A 640×480 webcam picture of a face, as a short y4m the fake camera loops.
  const photo = await sharp(await face('A1'))
    .resize(320, 320)
    .toBuffer();
  const rgb = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#5f584f' } })
    .composite([{ input: photo, left: 160, top: 80 }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const video = path.join(work, 'camera.y4m');
  writeStillY4m(video, rgb, 640, 480, 20);
  const dark = path.join(work, 'dark.y4m');
  writeStillY4m(dark, Buffer.from(rgb.map((v) => Math.round(v * 0.12))), 640, 480, 20);
  // The camera journeys run in the whole browser, where they had passed in CI before the shell
  // (decision 043); under load they outran their waits in either.
  const launch = (file: string) =>
    chromium.launch({
      executablePath: findChromium(),
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${file}`,
      ],
    });
  camBrowser = await launch(video);
  darkBrowser = await launch(dark);
});
afterAll(async () => {
  await camBrowser?.close();
  await darkBrowser?.close();
  await e2e?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function camPage(width: number, height = 900, browser = camBrowser) {
  const context = await browser.newContext({ baseURL: e2e.baseUrl, viewport: { width, height } });
  await context.grantPermissions(['camera'], { origin: e2e.baseUrl });
  context.setDefaultTimeout(90_000);
  return { context, page: await context.newPage() };
}

async function shot(page: Page, name: string) {
  await e2e.screenshot(page, name);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(path.join('test-results', 'screenshots', `${name}.png`), path.join(SHOTS, `${name}.png`));
  }
}

async function withMainPhoto(page: Page, who: Who) {
  const res = await page.request.post('/api/profile/avatar', {
    multipart: { file: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await face(who) } },
  });
  expect(res.status()).toBe(200);
}

async function signedInMember(page: Page, name: string, photo: Who) {
  const m = await e2e.createMember(name);
  await e2e.completeProfile(m.email);
  await e2e.login(page, m.email, E2E_PASSWORD);
  await withMainPhoto(page, photo);
  return m;
}

// A check is seconds of frames and then the server's analysis, which beside CI's other suites on
// two cores took over a minute (session 17): every wait here is a safety net, not a measurement.
describe('Get verified', { timeout: 300_000 }, () => {
  // One test per width, each a whole check.
  for (const width of [1280, 375]) {
    it(`consent, the camera with the challenge, and a still face refused with a reason (${width} px)`, async () => {
      const { context, page } = await camPage(width);
      await signedInMember(page, width === 1280 ? 'Sam Still' : 'Sue Still', 'A3');
      await page.goto('/profile');
      // This journey is the check, not the first tap (first-tap.e2e.ts): in CI, a tap on this link
      // while the loaded machine was still taking the page over never reached /verify (session 14).
      await appReady(page);
      await page.getByRole('link', { name: 'Get verified' }).click();
      await page.getByRole('heading', { name: 'Get verified' }).waitFor();
      const open = page.getByRole('button', { name: 'Open my camera' });
      expect(await open.isDisabled()).toBe(true);
      await checkA11y(page);
      await shot(page, `verify-consent-${width}`);

      // Keyboard only: tick consent, open the camera, start.
      await page.getByLabel(/I agree that Fancy processes my face/).focus();
      await page.keyboard.press('Space');
      await open.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Start the check' }).waitFor();
      await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0);
      await page.getByRole('button', { name: 'Start the check' }).press('Enter');
      // Look straight, then "Blink now" at a moment the server chose, then the turns.
      await page.getByText(`Step 1 of 3: ${BLINK_TEXT}`).waitFor();
      await shot(page, `verify-blink-${width}`);
      await page.getByText(/Step 2 of 3: Turn your head to your (left|right)/).waitFor();
      await shot(page, `verify-challenge-${width}`);

      // The fake camera shows a photo that never moves: the same picture in every frame.
      await page.getByText('Not verified yet').waitFor({ timeout: 150_000 });
      // A machine too loaded to film five frames a second without a half-second gap has the capture
      // refused first, as "couldn't see you follow the steps" (liveness.ts, captureOk): that happened
      // beside CI's other suites (session 17). Either way the still face is refused with its reason;
      // which frames count as still is liveness.test.ts's and the bench's labelled set's to prove.
      await page.getByText(FAIL_REASONS.still_picture).or(page.getByText(FAIL_REASONS.challenge)).waitFor();
      await page.getByText('Tries left today: 2').waitFor();
      await page.getByRole('button', { name: 'Try again', exact: true }).waitFor();
      await checkA11y(page);
      await shot(page, `verify-verdict-${width}`);
      // The way forward includes a person: the next try keeps its pictures for them.
      await page.getByRole('button', { name: 'Try again with a person to look' }).click();
      await page.getByText(/a member of our team will look at your pictures/).waitFor();
      expect(await page.getByLabel(/Keep my pictures for that review only/).isChecked()).toBe(true);
      await context.close();
    });
  }

  it('a camera filming in the dark is told what to do, and no try is spent (375 px)', async () => {
    const { context, page } = await camPage(375, 900, darkBrowser);
    await signedInMember(page, 'Dan Dark', 'A3');
    await page.goto('/verify');
    await page.getByLabel(/I agree that Fancy processes my face/).check();
    await page.getByRole('button', { name: 'Open my camera' }).click();
    await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0);
    await page.getByRole('button', { name: 'Start the check' }).click();
    await page.getByText(FRAME_PROBLEMS.too_dark).waitFor({ timeout: 150_000 });
    await checkA11y(page);
    await shot(page, 'verify-too-dark-375');
    await page.getByRole('button', { name: 'Start again' }).click();
    await page.getByRole('button', { name: 'Open my camera' }).waitFor();
    // No try spent: the consent page does not count one down.
    expect(await page.getByText(/Tries left today/).count()).toBe(0);
    await context.close();
  });

  it('a badge removed when the match bar was raised says why, with the way back (1280 and 375 px)', async () => {
    const { context, page } = await camPage(1280);
    const m = await signedInMember(page, 'Rex Rechecked', 'A3');
    const id = (await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, m.email)))[0].id;
    await e2e.db
      .insert(memberVerifications)
      .values({ userId: id, status: 'revoked', method: 'test', modelVersion: 'test', revokedReason: 'match_rechecked' });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/profile');
      await page.getByText('Your verified badge was removed').waitFor();
      await page.getByText('We now ask for a closer match between your selfie and your main photo').waitFor();
      await expect(page.getByRole('link', { name: 'Verify again' }).getAttribute('href')).resolves.toBe('/verify');
      await checkA11y(page);
      await shot(page, `verify-rechecked-${width}`);
    }
    await context.close();
  });

  it('an unverified member is turned away from a verified-only mixer kindly, with the way to get verified', async () => {
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Verified supper club',
        intent: 'Friends',
        startsAt: new Date(Date.now() + 48 * 3_600_000),
        endsAt: new Date(Date.now() + 49 * 3_600_000),
        verifiedOnly: true,
      })
      .returning({ id: mixers.id });
    const { context, page } = await camPage(375);
    await signedInMember(page, 'Una Verified', 'B');
    await page.goto(`/mixers/${mixer.id}`);
    await page.getByRole('heading', { name: 'For verified members' }).waitFor();
    await page.getByRole('link', { name: 'Get verified' }).first().click();
    await page.getByRole('heading', { name: 'Get verified' }).waitFor();
    await page.goto(`/mixers/${mixer.id}`);
    await page.getByRole('heading', { name: 'For verified members' }).waitFor();
    await checkA11y(page);
    await shot(page, 'verify-mixer-verified-only-375');

    // Home's gentle prompt after onboarding, and the consent page in the dark theme.
    await page.goto('/home');
    await page.getByRole('link', { name: 'Get verified' }).waitFor();
    await shot(page, 'verify-home-prompt-375');
    await page.evaluate(() => localStorage.setItem('fancy-theme', 'dark'));
    await page.goto('/verify');
    await page.getByRole('heading', { name: 'Get verified' }).waitFor();
    await checkA11y(page);
    await shot(page, 'verify-consent-dark-375');
    await page.goto(`/mixers/${mixer.id}`);
    await page.getByRole('heading', { name: 'For verified members' }).waitFor();
    await shot(page, 'verify-mixer-verified-only-dark-375');
    await context.close();
  });

  it('an age review decided by an admin gives the badge, seen on the profile (admin queue at 1280 and 375 px)', async () => {
    const { context, page } = await camPage(1280);
    await signedInMember(page, 'Eve Young', 'E');
    // The age review a check below the challenge age leaves (seeded: no shipped face under 25
    // renders a blink the models read — decision 031).
    const eve = (await e2e.db.select({ id: user.id }).from(user).where(eq(user.name, 'Eve Young')))[0].id;
    await seedAgeReview(
      { db: e2e.db, storage: e2e.app.deps.storage, faces: e2e.app.faces, verificationKey: e2e.app.deps.config.verificationKey },
      eve,
    );
    const admin = await e2e.createMember('Ada Admin');
    await e2e.completeProfile(admin.email);
    await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.email, admin.email));
    // A badge from the earlier check (decision 031): listed with the model and method that gave it.
    const olly = await e2e.createMember('Olly Older');
    const ollyId = await e2e.completeProfile(olly.email);
    await e2e.db.insert(memberVerifications).values({
      userId: ollyId,
      status: 'verified',
      method: 'live-selfie:head-turn+antispoof+liveness+photo-match',
      modelVersion: '@vladmandic/human@3.3.5',
      verifiedAt: new Date(),
    });
    // A match in the band under the bar that verifies alone (decision 031): a person compares.
    const cleo = await e2e.createMember('Cleo Close');
    const cleoId = await e2e.completeProfile(cleo.email);
    await e2e.db.insert(verificationReviews).values({ userId: cleoId, kind: 'match', scores: { photoMatch: 0.72 }, note: 'close_match' });
    for (const width of [375, 1280]) {
      const a = await e2e.newPage({ width, height: 1000 });
      await e2e.login(a.page, admin.email, E2E_PASSWORD);
      await a.page.goto('/admin/verification');
      await a.page.getByTestId('verification-review').first().waitFor();
      await a.page.getByText('Age check').first().waitFor();
      const close = a.page.getByTestId('verification-review').filter({ hasText: 'Cleo Close' });
      await close.getByText('Close match').waitFor();
      await close.getByText('not close enough to verify on its own').waitFor();
      await close.getByText('Match with main photo').waitFor();
      await close.getByText('0.72', { exact: true }).waitFor();
      await a.page.getByText('Verified by an earlier check (1)').waitFor();
      await a.page.getByTestId('earlier-checks').getByText('@vladmandic/human@3.3.5').waitFor();
      await a.page.waitForFunction(() => [...document.querySelectorAll('img')].every((i) => i.complete));
      await checkA11y(a.page);
      await shot(a.page, `verify-admin-queue-${width}`);
      if (width === 1280) {
        await a.page.getByTestId('verification-review').filter({ hasText: 'Eve Young' }).getByRole('button', { name: 'Approve' }).click();
        await close.getByRole('button', { name: 'Decline' }).click();
        await a.page.getByText('Nothing to review').waitFor();
      }
      await a.context.close();
    }

    await page.goto('/profile');
    await page.getByText('You’re verified').waitFor();
    await page.getByText('Verified', { exact: true }).first().waitFor();
    await shot(page, 'verify-badge-profile-1280');

    // The badge where her name appears: in a verified-only mixer with another verified member, and on his card.
    const eveId = (await e2e.db.select({ id: user.id }).from(user).where(eq(user.name, 'Eve Young')))[0].id;
    const vic = await e2e.createMember('Vic Baker');
    const vicId = await e2e.completeProfile(vic.email);
    await e2e.db
      .update(profiles)
      .set({ genderIdentities: ['Man'], bio: 'Sourdough, long walks and terrible puns.' })
      .where(eq(profiles.id, vicId));
    await e2e.db
      .insert(memberVerifications)
      .values({ userId: vicId, status: 'verified', method: 'test', modelVersion: 'test', verifiedAt: new Date() });
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Verified walk and talk',
        topic: 'Walking',
        intent: 'Friends',
        // Live: a co-participant's full card opens once the mixer has started (issue 32).
        status: 'live',
        startsAt: new Date(Date.now() - 10 * 60_000),
        endsAt: new Date(Date.now() + 50 * 60_000),
        verifiedOnly: true,
      })
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values([
      { mixerId: mixer.id, userId: eveId, state: 'joined' },
      { mixerId: mixer.id, userId: vicId, state: 'joined' },
    ]);
    const views = [{ width: 1280, page }];
    const small = await camPage(375);
    await e2e.login(small.page, (await e2e.db.select({ email: user.email }).from(user).where(eq(user.id, eveId)))[0].email, E2E_PASSWORD);
    views.push({ width: 375, page: small.page });
    for (const { width, page: p } of views) {
      await p.goto(`/mixers/${mixer.id}`);
      // On a phone the people are a tab of their own.
      await p.getByRole('heading', { name: 'Verified walk and talk' }).first().waitFor();
      // Members inside are told whom the mixer is for.
      if (width === 1280) await p.getByText('Verified members only').waitFor();
      const peopleTab = p.getByRole('tab', { name: /People/ });
      if (await peopleTab.isVisible()) await peopleTab.click();
      const shown = p.locator('[data-testid="participant"]:visible');
      await shown.nth(1).waitFor();
      expect(await shown.filter({ hasText: 'Verified' }).count()).toBe(2);
      await checkA11y(p);
      await shot(p, `verify-badge-mixer-${width}`);
      await p.getByRole('button', { name: "View Vic's profile" }).click();
      await p.getByRole('dialog').getByText('Verified', { exact: true }).first().waitFor();
      await shot(p, `verify-badge-card-${width}`);
      await p.keyboard.press('Escape');
    }

    // A main photo of someone else: the badge goes, with her place in the verified-only mixer, and she is told why.
    await withMainPhoto(page, 'C');
    for (const { width, page: p } of views) {
      await p.goto('/profile');
      await p.getByText('Your verified badge was removed').waitFor();
      await p.getByText(/doesn’t look like the face you verified with/).waitFor();
      await p.getByRole('link', { name: 'Verify again' }).waitFor();
      await checkA11y(p);
      await shot(p, `verify-badge-removed-${width}`);
    }
    const [seat] = await e2e.db.select({ state: mixerMemberships.state }).from(mixerMemberships).where(eq(mixerMemberships.userId, eveId));
    expect(seat.state).toBe('left');
    await small.context.close();
    await context.close();
  });
});
