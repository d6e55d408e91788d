import { mkdirSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fancies, mixerMemberships, mixerMessages, mixers } from '../../src/server/db/schema';
import { advanceMixers } from '../../src/server/modules/mixers/lifecycle';
import { axeViolations } from './a11y';
import { type E2E, startE2E } from './harness';

/**
 * Issue 14, the member's side: Maya says when she's free and what she'd join (Profile), a
 * mixer she was in ends, and from its "Who did you click with?" page she fancies Rhys, who
 * already fancied her: it's a match, and "Say hello" opens the conversation. Screenshots of
 * the editor, the Home cards, the prompt (open and closed) and the reliability note go to
 * test-results/screenshots and SHOTS_DIR, at 1280 and 375 px, light and dark.
 */
let e2e: E2E;
const SHOTS = process.env.SHOTS_DIR;
beforeAll(async () => {
  e2e = await startE2E();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await e2e?.close();
});

/** A full-page screenshot, or just one element (the Profile sections sit in a long page). */
async function shot(page: Page, name: string, element?: Locator) {
  if (element) {
    await element.scrollIntoViewIfNeeded();
    await element.screenshot({ path: `test-results/screenshots/${name}.png` });
    if (SHOTS) await element.screenshot({ path: `${SHOTS}/${name}.png` });
    return;
  }
  await e2e.screenshot(page, name);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function expectNoSeriousA11yIssues(page: Page, where: string) {
  const violations = await axeViolations(page);
  expect(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    where,
  ).toEqual([]);
}

async function member(name: string) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  return { ...m, id };
}

const HOUR = 3_600_000;

describe('availability, the after-mixer prompt and reliability', () => {
  it('a member sets times and an ask, a mixer ends, and she fancies someone back from the prompt', async () => {
    const maya = await member('Maya Okafor');
    const rhys = await member('Rhys Llewellyn');
    const sam = await member('Sam Patel');

    const { page } = await e2e.newPage();
    await e2e.login(page, maya.email);
    await page.goto('/home');
    const prompt = page.getByTestId('availability-prompt');
    await prompt.getByText("Tell us when you're usually free and we'll form mixers around you.").waitFor();
    await shot(page, 'home-availability-prompt-1280');

    // Profile → When you're free.
    await page.goto('/profile#availability');
    const section = page.getByRole('region', { name: "When you're free" });
    await section.getByRole('button', { name: "Edit when you're free" }).click();
    await section.getByRole('button', { name: 'Weekday evenings' }).click();
    const saturday = section.getByRole('button', { name: 'Saturday morning' });
    await saturday.click();
    expect(await saturday.getAttribute('aria-pressed')).toBe('true');
    // The grid is keyboard operable: from Saturday morning, → then Space picks Sunday morning.
    await saturday.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    expect(await section.getByRole('button', { name: 'Sunday morning' }).getAttribute('aria-pressed')).toBe('true');
    await section.getByRole('button', { name: 'Hiking' }).click(); // one of my interests, offered first
    await section.getByLabel('Search all topics').fill('boulder');
    await section.getByRole('button', { name: 'Bouldering' }).click();
    await section.getByRole('button', { name: 'Remove Bouldering' }).waitFor();
    await shot(page, 'profile-availability-editor-1280', section);
    await expectNoSeriousA11yIssues(page, 'profile availability editor');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByTestId('availability-summary').getByText('Weekday evenings · Sat morning · Sun morning').waitFor();
    await section.getByText('Bouldering').waitFor();
    const saved = await page.evaluate(async () => (await fetch('/api/profile/availability')).json());
    expect(saved).toMatchObject({
      availability: ['mon-evening', 'tue-evening', 'wed-evening', 'thu-evening', 'fri-evening', 'sat-morning', 'sun-morning'],
      topicAsks: ['Hiking', 'Bouldering'],
    });
    // No record yet: no reliability note.
    expect(await page.getByTestId('reliability-note').count()).toBe(0);

    // A mixer the three were in: Maya and Rhys talk, Rhys fancies Maya; then it ends.
    const now = Date.now();
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Sunday Bouldering Crew',
        topic: 'Bouldering',
        theme: 'forest',
        status: 'live',
        startsAt: new Date(now - HOUR),
        endsAt: new Date(now - 1000),
      })
      .returning({ id: mixers.id });
    // All three there from the start (attendance needs that, not just a line: decision 014).
    await e2e.db
      .insert(mixerMemberships)
      .values([maya, rhys, sam].map((m) => ({ mixerId: mixer.id, userId: m.id, joinedAt: new Date(now - HOUR) })));
    await e2e.db.insert(mixerMessages).values([
      { mixerId: mixer.id, senderId: maya.id, kind: 'member', body: 'Anyone tried the new wall in Bristol?' },
      { mixerId: mixer.id, senderId: rhys.id, kind: 'member', body: 'Yes! The overhang is brutal.' },
    ]);
    await e2e.db.insert(fancies).values({ fromUserId: rhys.id, toUserId: maya.id, mixerId: mixer.id });
    await advanceMixers(e2e.db, new Date(), () => {});

    // Home lists the open prompt; it leads to the page.
    await page.goto('/home');
    const card = page.getByTestId('after-mixer-prompts');
    await card.getByText('Sunday Bouldering Crew').waitFor();
    // Times set: the availability prompt is gone.
    expect(await page.getByTestId('availability-prompt').count()).toBe(0);
    await shot(page, 'home-after-mixer-card-1280');
    await card.getByRole('link', { name: /Sunday Bouldering Crew/ }).click();
    await page.waitForURL(`**/mixers/${mixer.id}/after`);
    await page.getByRole('heading', { level: 1, name: 'Who did you click with?' }).waitFor();
    const people = await page.getByTestId('prompt-person').allInnerTexts();
    expect(people.map((p) => (p.includes('Rhys') ? 'Rhys' : p.includes('Sam') ? 'Sam' : p)).sort()).toEqual(['Rhys', 'Sam']);
    await shot(page, 'after-mixer-open-1280');
    await expectNoSeriousA11yIssues(page, 'after-mixer page');

    // Rhys already fancied Maya: her fancy makes the match, celebrated with a way to say hello.
    await page.getByRole('button', { name: 'Fancy Rhys' }).click();
    const toast = page.locator('[data-variant="celebration"]');
    await toast.getByText("It's a match!").waitFor();
    await shot(page, 'after-mixer-match-1280');
    await toast.getByRole('link', { name: 'Say hello to Rhys' }).click();
    await page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    // Its work done, the celebration goes.
    await toast.waitFor({ state: 'detached' });

    // The page now offers "Say hello" for Rhys; Sam stays a plain toggle.
    await page.goto(`/mixers/${mixer.id}/after`);
    await page.getByRole('link', { name: 'Say hello' }).waitFor();
    expect(await page.getByRole('button', { name: 'Fancy Sam' }).getAttribute('aria-pressed')).toBe('false');

    // Her own record, kindly, on Profile.
    await page.goto('/profile#availability');
    await page.getByTestId('reliability-note').getByText('You came to your first mixer — lovely to have you.').waitFor();
    await shot(page, 'profile-reliability-note-1280', page.getByRole('region', { name: "When you're free" }));

    // Phone width and dark theme.
    const phone = await e2e.newPage({ width: 375, height: 812 });
    await phone.context.addInitScript(() => localStorage.setItem('fancy-theme', 'dark'));
    await e2e.login(phone.page, maya.email);
    await phone.page.goto(`/mixers/${mixer.id}/after`);
    await phone.page.getByTestId('prompt-person').first().waitFor();
    await shot(phone.page, 'after-mixer-open-375-dark');
    await expectNoSeriousA11yIssues(phone.page, 'after-mixer page, phone, dark');
    await phone.page.goto('/home');
    await phone.page.getByTestId('after-mixer-prompts').getByText('Sunday Bouldering Crew').waitFor();
    await shot(phone.page, 'home-after-mixer-card-375-dark');
    await phone.page.goto('/profile#availability');
    const phoneSection = phone.page.getByRole('region', { name: "When you're free" });
    await phoneSection.getByTestId('reliability-note').waitFor();
    await shot(phone.page, 'profile-reliability-note-375-dark', phoneSection);
    await phoneSection.getByRole('button', { name: "Edit when you're free" }).click();
    await phoneSection.getByRole('button', { name: 'Monday evening' }).waitFor();
    // The 7-column grid fits the phone: no sideways scrolling.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(phone.page, 'profile-availability-editor-375-dark', phoneSection);
    await expectNoSeriousA11yIssues(phone.page, 'profile availability editor, phone, dark');

    // 48 hours on, the prompt has closed kindly.
    await e2e.db.update(mixers).set({ endsAt: sql`now() - interval '49 hours'` }).where(eq(mixers.id, mixer.id));
    await phone.page.goto(`/mixers/${mixer.id}/after`);
    await phone.page.getByTestId('prompt-closed').getByRole('link', { name: 'Go to Matches' }).waitFor();
    await shot(phone.page, 'after-mixer-closed-375-dark');
    await page.goto(`/mixers/${mixer.id}/after`);
    await page.getByTestId('prompt-closed').waitFor();
    await shot(page, 'after-mixer-closed-1280');
    await phone.context.close();
  });

  it('the Home availability prompt opens the editor at 375 px and can be dismissed', async () => {
    const ana = await member('Ana Lima');
    const { page, context } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, ana.email);
    await page.goto('/home');
    const prompt = page.getByTestId('availability-prompt');
    await prompt.waitFor();
    await shot(page, 'home-availability-prompt-375');
    await prompt.getByRole('button', { name: 'Choose my times' }).click();
    const dialog = page.getByRole('dialog', { name: "When you're free" });
    await dialog.getByRole('button', { name: 'Friday evening' }).click();
    await shot(page, 'home-availability-dialog-375');
    await expectNoSeriousA11yIssues(page, 'availability dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('availability-prompt').count()).toBe(0);

    // Another member dismisses it: it stays hidden after a reload.
    const ben = await member('Ben Ode');
    const other = await e2e.newPage();
    await e2e.login(other.page, ben.email);
    await other.page.goto('/home');
    await other.page.getByTestId('availability-prompt').getByRole('button', { name: 'Not now' }).click();
    // A tap before the app has taken the page over is acted on at take-over: gone, then reloaded.
    await other.page.getByTestId('availability-prompt').waitFor({ state: 'detached' });
    await other.page.reload();
    await other.page.getByRole('heading', { level: 1 }).waitFor();
    await other.page.getByText('Your activity').waitFor({ state: 'attached' });
    expect(await other.page.getByTestId('availability-prompt').count()).toBe(0);

    // Settings → Notifications: the two new switches save and survive a reload.
    await other.page.goto('/settings#notifications');
    const after = other.page.getByRole('switch', { name: 'After a mixer' });
    expect(await other.page.getByRole('switch', { name: 'Mixer invitations' }).getAttribute('aria-checked')).toBe('true');
    expect(await after.getAttribute('aria-checked')).toBe('true');
    await after.click();
    await other.page.getByText('No more emails about who you clicked with after a mixer.').first().waitFor();
    await other.page.reload();
    await other.page.getByRole('switch', { name: 'After a mixer' }).waitFor();
    expect(await other.page.getByRole('switch', { name: 'After a mixer' }).getAttribute('aria-checked')).toBe('false');
    await other.context.close();
    await context.close();
  });
});
