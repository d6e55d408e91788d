import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formationSettings, mixerInvitations, mixerMemberships, mixers, profiles, topicTemplates, user } from '../../src/server/db/schema';
import { checkA11y } from './a11y';
import { type E2E, startE2E, viewportShot } from './harness';

/**
 * Issue 14: a member sees an invitation on Home, opens the mixer and accepts the held seat; an
 * admin opens /admin/formation, pauses formation and edits a topic template. Screenshots at 1280
 * and 375 px, light and dark (also copied to SHOTS_DIR when set).
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const HOUR = 3_600_000;

async function shot(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => localStorage.setItem('fancy-theme', t), theme);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await e2e.screenshot(page, `${name}-${theme}`);
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      copyFileSync(
        path.join('test-results', 'screenshots', `${name}-${theme}.png`),
        path.join(process.env.SHOTS_DIR, `${name}-${theme}.png`),
      );
    }
  }
  await page.evaluate(() => localStorage.setItem('fancy-theme', 'light'));
  await page.reload();
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('invitations', () => {
  it('a member sees the invitation on Home, opens the mixer and accepts the held seat', async () => {
    const me = await e2e.createMember('Priya Shah');
    const myId = await e2e.completeProfile(me.email);
    const other = await e2e.createMember('Sam Other');
    const otherId = await e2e.completeProfile(other.email);
    const seated = await e2e.createMember('Jo Seated');
    const seatedId = await e2e.completeProfile(seated.email);
    // An evening two days ahead (19:30 UK time in winter), like a formed mixer's slot.
    const startsAt = new Date(Date.now() + 48 * HOUR);
    startsAt.setUTCHours(19, 30, 0, 0);
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Bouldering and a brew',
        topic: 'Bouldering',
        description: 'A few climbers free on the same evening: swap favourite problems and plan a session.',
        theme: 'forest',
        intent: 'Friends',
        origin: 'auto',
        status: 'scheduled',
        startsAt,
        endsAt: new Date(startsAt.getTime() + HOUR),
        maxParticipants: 4,
        icebreaker: "What's the climb you're proudest of?",
      })
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values({ mixerId: mixer.id, userId: seatedId, state: 'joined' });
    const expiresAt = new Date(Date.now() + 12 * HOUR);
    const [inv] = await e2e.db
      .insert(mixerInvitations)
      .values({ mixerId: mixer.id, userId: myId, expiresAt })
      .returning({ id: mixerInvitations.id });
    await e2e.db.insert(mixerInvitations).values({ mixerId: mixer.id, userId: otherId, expiresAt });

    // Home at 375 px and 1280 px: "You're invited" with why, when and the hold.
    const phone = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(phone.page, me.email);
    await phone.page.goto('/home');
    await phone.page.getByRole('heading', { name: "You're invited" }).waitFor();
    expect(await noSideScroll(phone.page)).toBe(true);
    await shot(phone.page, 'c-home-invitation-375');
    await phone.context.close();

    const { page, context } = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(page, me.email);
    await page.goto('/home');
    const card = page.getByTestId('invitation-card');
    await card.waitFor();
    expect(await card.textContent()).toContain('Bouldering and a brew');
    expect(await card.textContent()).toMatch(/2 people who love Bouldering are free \w+day (morning|afternoon|evening)/);
    expect(await card.textContent()).toContain('Your seat is held until');
    await checkA11y(page);
    await shot(page, 'c-home-invitation-1280');

    // The mixer page: the held seat instead of Join.
    await card.getByRole('link', { name: 'See the mixer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bouldering and a brew' }).waitFor();
    const held = page.getByTestId('held-seat');
    await held.waitFor();
    expect(await held.textContent()).toContain('A seat is held for you until');
    expect(await page.getByRole('button', { name: 'Join mixer' }).count()).toBe(0);
    await checkA11y(page);
    await shot(page, 'c-mixer-held-1280');
    const narrow = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(narrow.page, me.email);
    await narrow.page.goto(`/mixers/${mixer.id}`);
    await narrow.page.getByTestId('held-seat').waitFor();
    expect(await noSideScroll(narrow.page)).toBe(true);
    await shot(narrow.page, 'c-mixer-held-375');
    await narrow.context.close();

    await page.getByTestId('held-seat').getByRole('button', { name: 'Accept' }).click();
    await page.getByText("You're in!", { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Leave mixer' }).waitFor();
    const [saved] = await e2e.db.select({ status: mixerInvitations.status }).from(mixerInvitations).where(eq(mixerInvitations.id, inv.id));
    expect(saved.status).toBe('accepted');

    // Home no longer shows it.
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('invitation-card').count()).toBe(0);
    await context.close();
  });

  it('an admin opens /admin/formation, pauses formation and edits a topic template', async () => {
    const admin = await e2e.createMember('Alex Admin');
    const adminId = await e2e.completeProfile(admin.email);
    await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, adminId));
    // Some demand and a template to edit.
    for (const [i, asks] of [['Bouldering'], ['Bouldering', 'Hiking'], ['Board games']].entries()) {
      const m = await e2e.createMember(`Demand Member${i}`);
      const id = await e2e.completeProfile(m.email);
      await e2e.db
        .update(profiles)
        .set({ topicAsks: asks, availability: ['thu-evening', 'sat-morning'] })
        .where(eq(profiles.id, id));
    }
    await e2e.db
      .insert(topicTemplates)
      .values([
        { topic: 'Bouldering', title: 'Bouldering and a brew', theme: 'forest', icebreaker: "What's the climb you're proudest of?" },
        { topic: 'Hiking', title: 'Hill walkers', theme: 'ocean', icebreaker: 'Best view you ever earned?' },
      ])
      .onConflictDoNothing();

    const phone = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(phone.page, admin.email);
    await phone.page.goto('/admin/formation');
    await phone.page.getByRole('heading', { name: 'Demand' }).waitFor();
    await phone.page.getByRole('cell', { name: 'Bouldering' }).first().waitFor();
    expect(await noSideScroll(phone.page)).toBe(true);
    await shot(phone.page, 'c-admin-formation-375');
    await phone.context.close();

    const { page, context } = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(page, admin.email);
    await page.goto('/admin/formation');
    await page.getByRole('heading', { level: 1, name: 'Formation' }).waitFor();
    await page.getByRole('cell', { name: 'Bouldering' }).first().waitFor();
    await checkA11y(page);
    await shot(page, 'c-admin-formation-1280');

    await page.getByRole('button', { name: 'Pause formation' }).click();
    await page.getByTestId('formation-state').getByText('Paused').waitFor();
    const [settings] = await e2e.db.select({ paused: formationSettings.paused }).from(formationSettings);
    expect(settings.paused).toBe(true);

    await page.getByRole('button', { name: 'Edit the Hiking template' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Hill walkers and map nerds');
    await viewportShot(page, 'c-admin-template-dialog-1280');
    if (process.env.SHOTS_DIR) {
      copyFileSync(
        path.join('test-results', 'screenshots', 'c-admin-template-dialog-1280.png'),
        path.join(process.env.SHOTS_DIR, 'c-admin-template-dialog-1280-light.png'),
      );
    }
    await dialog.getByRole('button', { name: 'Save template' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Hill walkers and map nerds' }).waitFor();
    const [tpl] = await e2e.db.select({ title: topicTemplates.title }).from(topicTemplates).where(eq(topicTemplates.topic, 'Hiking'));
    expect(tpl.title).toBe('Hill walkers and map nerds');
    await page.getByText('Edited a topic template').first().waitFor();
    await context.close();
  });
});
