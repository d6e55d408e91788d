import { and, eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formationSettings, mixerInvitations, mixerMemberships, mixers, profiles, user } from '../../src/server/db/schema';
import { MIXER_MESSAGES } from '../../src/shared/schemas/mixers';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { checkA11y } from './a11y';
import { demoEmail, type E2E, startE2E, viewportShot } from './harness';

/**
 * Issue 13 with the embedded demo: a member sees For you with reasons, meets a full side and
 * its waitlist, joins; a member outside a mixer's audience following the same link is turned
 * away kindly; an admin sets an audience with its live preview. Screenshots at 1280 and 375 px,
 * light and dark.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await e2e?.close();
});

const SUPPER = 'Supper Club Singles';
const WINE = 'Hackney Wick Wine Walk';

async function shots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => localStorage.setItem('fancy-theme', t), theme);
    await page.reload();
    await page.locator('main').waitFor();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await e2e.screenshot(page, `${name}-${theme}`);
  }
  await page.evaluate(() => localStorage.setItem('fancy-theme', 'light'));
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('who a mixer is for', () => {
  it('For you with reasons, a full side with its waitlist, a join, and a kind no for someone else', async () => {
    // Below, Maya joins a London mixer from For you. The formation job ran when the app started and
    // may have held her a seat in a formed mixer at the same time as that one (it starts a fixed
    // time from now, the formed one at her next free slot, so at some hours they overlap, and For
    // you then leaves it out): first the test turns those invitations down for her and pauses
    // formation, so no new one is held.
    await e2e.db.update(formationSettings).set({ paused: true });
    const [mayaRow] = await e2e.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, demoEmail('maya-okafor')));
    await e2e.db
      .update(mixerInvitations)
      .set({ status: 'declined', respondedAt: new Date() })
      .where(and(eq(mixerInvitations.userId, mayaRow.id), eq(mixerInvitations.status, 'pending')));
    const maya = await e2e.newPage({ width: 1280, height: 900 });
    await e2e.login(maya.page, demoEmail('maya-okafor'), DEMO_PASSWORD);

    // /mixers opens on For you: each card says why it is there.
    await maya.page.goto('/mixers');
    await maya.page.getByRole('heading', { name: 'Picked for you' }).waitFor();
    await maya.page.getByTestId('mixer-reasons').first().waitFor();
    const reasons = await maya.page.getByTestId('mixer-reasons').allTextContents();
    expect(reasons.length).toBeGreaterThanOrEqual(3);
    expect(reasons.join('\n')).toMatch(/seats? for you/);
    expect(await maya.page.getByRole('link', { name: 'For you' }).getAttribute('aria-current')).toBe('page');
    await shots(maya.page, 'foryou-1280');
    await checkA11y(maya.page);

    // A Dating mixer whose women's side is full: the waitlist is for that side only (ranked low, so opened by its link).
    const [supper] = await e2e.db.select({ id: mixers.id }).from(mixers).where(eq(mixers.title, SUPPER));
    await maya.page.goto(`/mixers/${supper.id}`);
    await maya.page.getByRole('heading', { level: 1, name: SUPPER }).waitFor();
    await maya.page.getByText('The seats on your side are taken.', { exact: false }).waitFor();
    const sides = maya.page.getByRole('list', { name: 'Seats per side' });
    expect(await sides.textContent()).toMatch(/Women into men2\/2 · full.*Men into women1\/2/);
    await shots(maya.page, 'full-side-1280');
    await checkA11y(maya.page);
    await maya.page.getByRole('button', { name: 'Join the waitlist' }).click();
    await maya.page.getByText("You're #1 on the waitlist.").waitFor();
    const supperUrl = maya.page.url();

    // She joins a London mixer from For you.
    await maya.page.goto('/mixers');
    await maya.page.getByRole('link', { name: WINE }).click();
    await maya.page.getByRole('heading', { level: 1, name: WINE }).waitFor();
    await maya.page.getByRole('button', { name: 'Join mixer' }).click();
    await maya.page.getByText("You're in!", { exact: true }).first().waitFor();
    const wineUrl = maya.page.url();

    // A mixer at the same time says so before any Join, and leads back to the one she is in.
    const [wine] = await e2e.db.select({ id: mixers.id, startsAt: mixers.startsAt }).from(mixers).where(eq(mixers.title, WINE));
    const sketchStart = new Date(wine.startsAt.getTime() + 30 * 60_000);
    const [sketch] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Canal-side Sketching',
        topic: 'Drawing',
        description:
          'Bring a pencil and a small sketchbook: swap the views along the canal worth drawing and the tricks that make water look wet.',
        theme: 'ocean',
        intent: 'Friends',
        status: 'scheduled',
        startsAt: sketchStart,
        endsAt: new Date(sketchStart.getTime() + 60 * 60_000),
        maxParticipants: 6,
        icebreaker: 'What did you last draw, and who saw it?',
      })
      .returning({ id: mixers.id });
    await maya.page.setViewportSize({ width: 375, height: 812 });
    await maya.page.goto(`/mixers/${sketch.id}`);
    const clash = maya.page.getByTestId('mixer-clash');
    await clash.getByText(`This overlaps with ${WINE}`).waitFor();
    expect(await clash.textContent()).toContain("which you're in. Leave that one first if you'd rather go to this one.");
    expect(await maya.page.getByRole('button', { name: 'Join mixer' }).count()).toBe(0);
    expect(await noSideScroll(maya.page)).toBe(true);
    await clash.scrollIntoViewIfNeeded();
    await viewportShot(maya.page, 'mixer-clash-375');
    await checkA11y(maya.page);
    await maya.page.setViewportSize({ width: 1280, height: 900 });
    await viewportShot(maya.page, 'mixer-clash-1280');
    await clash.getByRole('link', { name: `Open ${WINE}` }).click();
    await maya.page.getByRole('heading', { level: 1, name: WINE }).waitFor();

    // Holding as many upcoming mixers as a member may, another one's page says so before any Join.
    const DAY = 24 * 3_600_000;
    const later = await e2e.db
      .insert(mixers)
      .values(
        [8, 9, 10, 11].map((days) => ({
          title: `Sketch walk ${days}`,
          topic: 'Drawing',
          intent: 'Friends',
          status: 'scheduled',
          startsAt: new Date(Date.now() + days * DAY),
          endsAt: new Date(Date.now() + days * DAY + 60 * 60_000),
          maxParticipants: 6,
        })),
      )
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values(later.slice(0, 3).map((m) => ({ mixerId: m.id, userId: mayaRow.id, state: 'joined' })));
    await maya.page.goto(`/mixers/${later[3].id}`);
    const limit = maya.page.getByTestId('mixer-limit');
    await limit.getByText(MIXER_MESSAGES.tooManyUpcoming).waitFor();
    expect(await maya.page.getByRole('button', { name: 'Join mixer' }).count()).toBe(0);
    await viewportShot(maya.page, 'mixer-limit-1280');
    await maya.page.setViewportSize({ width: 375, height: 812 });
    await limit.scrollIntoViewIfNeeded();
    await viewportShot(maya.page, 'mixer-limit-375');
    await maya.page.setViewportSize({ width: 1280, height: 900 });
    await limit.getByRole('link', { name: 'Your mixers' }).click();
    await maya.page.getByRole('heading', { name: 'Your mixers' }).waitFor();
    await e2e.db.delete(mixerMemberships).where(
      and(
        eq(mixerMemberships.userId, mayaRow.id),
        eq(mixerMemberships.state, 'joined'),
        inArray(
          mixerMemberships.mixerId,
          later.map((m) => m.id),
        ),
      ),
    );

    // Rhys, on a phone, sees For you too, without sideways scrolling.
    const rhys = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(rhys.page, demoEmail('rhys-llewellyn'), DEMO_PASSWORD);
    await rhys.page.goto('/mixers');
    await rhys.page.getByTestId('mixer-reasons').first().waitFor();
    expect(await noSideScroll(rhys.page)).toBe(true);
    await shots(rhys.page, 'foryou-375');
    await rhys.page.getByTestId('mixer-reasons').first().waitFor();
    await viewportShot(rhys.page, 'foryou-375-viewport');
    // The seat left on the men's side is his to take.
    await rhys.page.goto(supperUrl);
    await rhys.page.getByRole('button', { name: 'Join mixer' }).waitFor();

    // A member from Bristol who gave no orientation follows both links: turned away kindly.
    const other = await e2e.createMember('Bea Bristol');
    await e2e.completeProfile(other.email);
    const bea = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(bea.page, other.email);
    for (const url of [supperUrl, wineUrl]) {
      await bea.page.goto(url);
      await bea.page.getByRole('heading', { name: "This one isn't for you" }).waitFor();
      const text = (await bea.page.locator('main').textContent()) ?? '';
      expect(text).not.toMatch(/women into|men into|Greater London|seat plan/i);
      expect(await bea.page.getByRole('button', { name: /Join/ }).count()).toBe(0);
    }
    expect(await noSideScroll(bea.page)).toBe(true);
    await shots(bea.page, 'not-for-you-375');
    await checkA11y(bea.page);
    await bea.page.getByRole('link', { name: 'Mixers for you' }).click();
    await bea.page.getByRole('heading', { name: 'Picked for you' }).waitFor();

    // Without a city on her profile, Bea sees online mixers only and is told why.
    const [beaRow] = await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, other.email));
    await e2e.db.update(profiles).set({ cityRegion: null }).where(eq(profiles.id, beaRow.id));
    await bea.page.goto('/mixers');
    await bea.page.getByRole('note').getByText('Add your city to your profile to see mixers near you').waitFor();
    await bea.page.getByTestId('mixer-reasons').first().waitFor();
    expect(await bea.page.getByRole('link', { name: WINE }).count()).toBe(0);
    await viewportShot(bea.page, 'foryou-no-city-375');

    await maya.context.close();
    await rhys.context.close();
    await bea.context.close();
  });

  it('an admin sets who a mixer is for and sees how many members each side reaches', async () => {
    const a = await e2e.createMember('Ada Admin');
    const id = await e2e.completeProfile(a.email);
    await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, id));
    for (const size of [
      { name: '1280', width: 1280, height: 1400 },
      { name: '375', width: 375, height: 812 },
    ]) {
      const { context, page } = await e2e.newPage(size);
      await e2e.login(page, a.email);
      await page.goto('/admin/mixers');
      // The list shows the plan and the fill per side.
      await page.getByTestId('admin-mixer-row').filter({ hasText: SUPPER }).getByText('women into men: 2/2').waitFor();
      await page.getByRole('button', { name: 'New mixer' }).click();
      await page.getByLabel('For', { exact: true }).selectOption('Dating');
      await page.getByLabel('Seat plan').waitFor();
      const preview = page.getByTestId('audience-preview');
      await preview.getByText('Women into men').waitFor();
      await page.getByLabel('Where').selectOption('Greater London');
      await page.getByLabel('Youngest').selectOption('25');
      await page.getByLabel('Oldest').selectOption('34');
      // Maya (29, Hackney) is on the women's side; Rhys (31, Islington) on the men's.
      await page.waitForFunction(() =>
        /Women into men\s*1 eligible/.test(document.querySelector('[data-testid="audience-preview"]')?.textContent ?? ''),
      );
      expect(await preview.textContent()).toMatch(/Men into women\s*1 eligible/);
      expect(await page.getByLabel('Capacity').inputValue()).toBe('8');
      await checkA11y(page);
      await page.getByTestId('audience-fields').scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `admin-audience-${size.name}-light`);
      await viewportShot(page, `admin-audience-${size.name}-viewport`);
      await page.evaluate(() => {
        localStorage.setItem('fancy-theme', 'dark');
        document.documentElement.classList.add('dark');
      });
      await e2e.screenshot(page, `admin-audience-${size.name}-dark`);
      await page.evaluate(() => localStorage.setItem('fancy-theme', 'light'));
      await context.close();
    }
  });
});
