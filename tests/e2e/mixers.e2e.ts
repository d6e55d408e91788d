import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { checkA11y } from './a11y';
import { type E2E, startE2E, viewportShot } from './harness';

/**
 * Mixers with the embedded demo data: two demo members (in two browser contexts) join the
 * same live mixer and chat in realtime. Screenshots of the list, detail and chat at 1280 and 375 px.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await e2e?.close();
});

const MAYA = 'maya-okafor@demo.fancy.test';
const RHYS = 'rhys-llewellyn@demo.fancy.test';
/** A live demo mixer with free seats that neither demo member has joined. */
const MIXER = 'Warehouse Techno Talk';

async function openMixerFromList(page: Page, name: string) {
  await page.goto('/mixers?tab=discover');
  await page.getByRole('heading', { name: 'Live now' }).waitFor();
  const link = page.getByRole('link', { name });
  await link.waitFor();
  await link.click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function joinAndWaitForChat(page: Page) {
  await page.getByRole('button', { name: 'Join the conversation' }).click();
  await page.getByRole('log').waitFor();
  // Connected: the socket is open and subscribed to the mixer room.
  await page.getByText('Live', { exact: true }).waitFor();
}

describe('mixers', () => {
  it('two members join a live mixer and chat in realtime', async () => {
    const a = await e2e.newPage({ width: 1280, height: 800 });
    const b = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(a.page, MAYA, DEMO_PASSWORD);
    await e2e.login(b.page, RHYS, DEMO_PASSWORD);
    // Nobody holds two mixers at the same time (issue 32): in the demo both sit in the live Board
    // Game Night, so they leave it before joining this one.
    await e2e.db.execute(sql`
      update mixer_memberships set state = 'left', left_at = now()
       where mixer_id = (select id from mixers where title = 'Board Game Night: Catan & Co.')
         and user_id in (select id from "user" where email in (${MAYA}, ${RHYS}))`);

    // The list: live and upcoming sections with theme-coloured cards.
    await a.page.goto('/mixers?tab=discover');
    await a.page.getByRole('heading', { name: 'Coming up this week' }).waitFor();
    await a.page.getByTestId('mixer-card').first().waitFor();
    expect(await a.page.getByTestId('mixer-card').count()).toBeGreaterThanOrEqual(8);
    await e2e.screenshot(a.page, 'mixers-list-1280');
    await b.page.goto('/mixers?tab=discover');
    await b.page.getByTestId('mixer-card').first().waitFor();
    await e2e.screenshot(b.page, 'mixers-list-375');

    // Filters narrow the list (search is applied after a short pause).
    await a.page.getByLabel('Search mixers').fill('techno');
    await a.page.waitForURL(/q=techno/);
    await a.page.waitForFunction(() => document.querySelectorAll('[data-testid="mixer-card"]').length < 4);
    await a.page.getByRole('link', { name: MIXER }).waitFor();

    // Detail before joining, then join at both sizes. Before joining, the page asks for nothing it
    // would be refused (the chat is for members): opened from the list, and loaded afresh.
    const refused: string[] = [];
    for (const p of [a.page, b.page]) p.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`));
    await openMixerFromList(a.page, MIXER);
    await a.page.getByRole('heading', { name: "Who's here" }).waitFor();
    await e2e.screenshot(a.page, 'mixer-detail-1280');
    await openMixerFromList(b.page, MIXER);
    await e2e.screenshot(b.page, 'mixer-detail-375');
    await b.page.reload();
    await b.page.getByRole('button', { name: 'Join the conversation' }).waitFor();
    await b.page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);

    await joinAndWaitForChat(a.page);
    await joinAndWaitForChat(b.page);

    // Maya writes; Rhys sees it without reloading; and back. While connected, lines go over
    // the socket (issue 15): no chat POST at all.
    const chatPosts: string[] = [];
    for (const p of [a.page, b.page]) {
      p.on('request', (r) => r.method() === 'POST' && /\/api\/mixers\/[^/]+\/messages/.test(r.url()) && chatPosts.push(r.url()));
    }
    const hello = `Hi all, Maya here — first techno night was Berghain ${Date.now() % 1000}`;
    const composerA = a.page.getByLabel('Message', { exact: true });
    await composerA.fill(hello);
    await composerA.press('Enter');
    await b.page.getByRole('log').getByText(hello).waitFor();
    expect(await composerA.inputValue()).toBe('');

    const reply = 'Rhys here! Shift+Enter works\nfor a second line too';
    const composerB = b.page.getByLabel('Message', { exact: true });
    await composerB.fill('Rhys here! Shift+Enter works');
    await composerB.press('Shift+Enter');
    await composerB.pressSequentially('for a second line too');
    expect(await composerB.inputValue()).toBe(reply);
    await composerB.press('Enter');
    await a.page.getByRole('log').getByText('for a second line too').waitFor();
    expect(chatPosts).toEqual([]);

    // Own messages sit on the right, others' on the left.
    const mine = a.page.getByRole('log').locator('li', { hasText: hello });
    expect(await mine.getAttribute('class')).toContain('justify-end');
    const theirs = a.page.getByRole('log').locator('li', { hasText: 'for a second line too' });
    expect(await theirs.getAttribute('class')).toContain('justify-start');

    // The live chat, its participants and composer pass axe at both sizes.
    await checkA11y(a.page);
    await checkA11y(b.page);

    // The participant cards offer Fancy, but not on your own card.
    await a.page.getByRole('button', { name: 'Fancy Rhys' }).waitFor();
    expect(await a.page.getByRole('button', { name: 'Fancy Maya' }).count()).toBe(0);

    await viewportShot(a.page, 'mixer-chat-1280');

    // Fancy is a toggle on the card (the other half's API does the rest).
    const fancyRhys = a.page.getByRole('button', { name: 'Fancy Rhys' });
    await fancyRhys.click();
    await a.page.waitForFunction(() => document.querySelector('button[aria-label="Fancy Rhys"]')?.getAttribute('aria-pressed') === 'true');
    // Maya and Rhys are matched in the demo already: no second celebration, just a reminder.
    await a.page.getByText('You and Rhys are already matched', { exact: true }).waitFor();
    expect(await a.page.locator('[data-variant="celebration"]').count()).toBe(0);
    await viewportShot(a.page, 'mixer-already-matched-1280');
    await viewportShot(b.page, 'mixer-chat-375');
    await b.page.getByRole('tab', { name: /People/ }).click();
    await b.page.getByRole('button', { name: 'Fancy Maya' }).waitFor();
    await viewportShot(b.page, 'mixer-people-375');

    await a.context.close();
    await b.context.close();
  });
});
