import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { directMessages, matches, mixerMemberships, mixerMessages, mixers } from '../../src/server/db/schema';
import { type E2E, startE2E } from './harness';

/**
 * Issue 30 in the browser: a block takes the conversation away from the blocked member (no row,
 * the not-found state) while the blocker keeps it read-only with a calm line saying why; muting
 * a member in a mixer collapses their lines to "Muted — show" for the one who muted them only.
 * Screenshots at 1280 and 375 px in both themes.
 */
let e2e: E2E;
const people = {} as Record<'ava' | 'ben' | 'cleo', { email: string; id: string }>;
let matchId = '';
let mixerId = '';

beforeAll(async () => {
  e2e = await startE2E();
  for (const [key, name] of [
    ['ava', 'Ava Blocker'],
    ['ben', 'Ben Blocked'],
    ['cleo', 'Cleo Muter'],
  ] as const) {
    const { email } = await e2e.createMember(name);
    people[key] = { email, id: await e2e.completeProfile(email) };
  }
  const { ava, ben, cleo } = people;
  const now = Date.now();
  const [mixer] = await e2e.db
    .insert(mixers)
    .values({
      title: 'Sunday Roast Debate',
      topic: 'Food',
      status: 'live',
      startsAt: new Date(now - 10 * 60_000),
      endsAt: new Date(now + 80 * 60_000),
    })
    .returning({ id: mixers.id });
  mixerId = mixer.id;
  await e2e.db.insert(mixerMemberships).values([ava, ben, cleo].map((p) => ({ mixerId, userId: p.id, state: 'joined' })));
  const lines: [string, string][] = [
    [cleo.id, 'Yorkshire puddings belong with every roast, fight me.'],
    [ben.id, 'Only with beef. Anything else is chaos.'],
    [ben.id, 'And gravy goes on first, obviously.'],
    [cleo.id, 'Ben, that is a bold take.'],
  ];
  for (const [i, [senderId, body]] of lines.entries())
    await e2e.db.insert(mixerMessages).values({ mixerId, senderId, body, createdAt: new Date(now - (9 - i) * 60_000) });

  const [p1, p2] = ava.id < ben.id ? [ava.id, ben.id] : [ben.id, ava.id];
  const [match] = await e2e.db.insert(matches).values({ profile1Id: p1, profile2Id: p2, mixerId }).returning({ id: matches.id });
  matchId = match.id;
  const dms: [string, string, string][] = [
    [ben.id, ava.id, 'Loved your roast potato theory earlier!'],
    [ava.id, ben.id, 'Thank you! Goose fat is the secret.'],
    [ben.id, ava.id, 'Send me your number, let us take this off the app.'],
  ];
  for (const [i, [senderId, recipientId, body]] of dms.entries())
    await e2e.db.insert(directMessages).values({ matchId, senderId, recipientId, body, createdAt: new Date(now - (5 - i) * 60_000) });
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(who: keyof typeof people, width = 1280, theme: 'light' | 'dark' = 'light') {
  const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: { width, height: width === 375 ? 812 : 800 } });
  await context.addInitScript((t) => localStorage.setItem('fancy-theme', t), theme);
  const page = await context.newPage();
  await e2e.login(page, people[who].email);
  return { context, page };
}

const sizes = [
  [1280, 'light'],
  [1280, 'dark'],
  [375, 'light'],
  [375, 'dark'],
] as const;

describe('a block takes the conversation away from the other side', () => {
  it('Ava blocks Ben from the conversation; she keeps it read-only with a line saying why', async () => {
    const { context, page } = await signedIn('ava');
    await page.goto(`/messages/${matchId}`);
    await page.getByRole('log').getByText('Send me your number').waitFor();
    await page.getByRole('button', { name: 'Options for your conversation with Ben' }).click();
    await page.getByRole('menuitem', { name: 'Block Ben' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Block Ben?' });
    await dialog.getByText('your conversation disappears for Ben').waitFor();
    await dialog.getByRole('button', { name: 'Block Ben' }).click();
    await dialog.waitFor({ state: 'detached' });

    const readOnly = page.getByRole('status').filter({ hasText: 'You blocked Ben' });
    await readOnly.waitFor();
    expect(await readOnly.innerText()).toContain('you can still read it and report from it');
    // Still readable, no composer.
    await page.getByRole('log').getByText('Send me your number').waitFor();
    expect(await page.getByRole('textbox', { name: /message/i }).count()).toBe(0);
    await context.close();
  });

  it('Ben finds no conversation: not in his list, and the link answers not found', async () => {
    const { context, page } = await signedIn('ben');
    await page.goto('/messages');
    await page
      .getByRole('heading', { name: /Messages/ })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: /Ava/ }).count()).toBe(0);
    await page.goto(`/messages/${matchId}`);
    await page.getByRole('alert').filter({ hasText: 'We couldn’t open this conversation' }).waitFor();
    await page.getByText("We couldn't find that conversation.").waitFor();
    expect(await page.getByText('Goose fat').count()).toBe(0);
    await e2e.screenshot(page, 'blocks-not-found-1280-light');
    await context.close();
  });

  it.each(sizes)('screenshots of the read-only conversation at %i px, %s', async (width, theme) => {
    const { context, page } = await signedIn('ava', width, theme);
    await page.goto(`/messages/${matchId}`);
    await page.getByRole('status').filter({ hasText: 'You blocked Ben' }).waitFor();
    await page.getByRole('log').getByText('Send me your number').waitFor();
    await e2e.screenshot(page, `blocks-read-only-${width}-${theme}`);
    await context.close();
  });
});

async function openMixer(page: Page) {
  await page.goto(`/mixers/${mixerId}`);
  await page.getByRole('heading', { level: 1, name: 'Sunday Roast Debate' }).waitFor();
}

async function peopleTab(page: Page) {
  const tab = page.getByRole('tab', { name: /People/ });
  if (await tab.isVisible()) await tab.click();
}
async function chatTab(page: Page) {
  const tab = page.getByRole('tab', { name: /Chat/ });
  if (await tab.isVisible()) await tab.click();
}

describe('mute a member in a mixer, for yourself', () => {
  it('Cleo mutes Ben: his lines collapse to "Muted — show" for her only; show reveals one; unmute brings them back', async () => {
    const { context, page } = await signedIn('cleo');
    await openMixer(page);
    await page.getByText('Only with beef').waitFor();
    await peopleTab(page);
    await page.getByRole('button', { name: 'More options for Ben' }).click();
    await page.getByRole('menuitem', { name: 'Mute Ben' }).click();
    await chatTab(page);

    const muted = page.getByTestId('muted-line');
    await muted.first().waitFor();
    expect(await muted.count()).toBe(2);
    expect(await muted.first().innerText()).toMatch(/Muted — show/);
    expect(await page.getByText('Only with beef').count()).toBe(0);
    // Her own lines and others' stay as they were.
    await page.getByText('Ben, that is a bold take.').waitFor();

    // Kept on the server: a reload still collapses them.
    await page.reload();
    await chatTab(page);
    await page.getByTestId('muted-line').first().waitFor();
    expect(await page.getByTestId('muted-line').count()).toBe(2);

    await page.getByRole('button', { name: "Show Ben's line" }).first().click();
    await page.getByText('Only with beef').waitFor();
    await page.getByRole('button', { name: 'Collapse', exact: true }).click();
    await page.getByText('Only with beef').waitFor({ state: 'detached' });
    await context.close();

    // Ava (who shares the mixer; she blocked Ben, so his lines never reach her anyway) sees no muted rows.
    const other = await signedIn('ava');
    await openMixer(other.page);
    await other.page.getByText('Ben, that is a bold take.').waitFor();
    expect(await other.page.getByTestId('muted-line').count()).toBe(0);
    await other.context.close();
  });

  it.each(sizes)('screenshots of muted lines at %i px, %s', async (width, theme) => {
    const { context, page } = await signedIn('cleo', width, theme);
    await openMixer(page);
    await chatTab(page);
    await page.getByTestId('muted-line').first().waitFor();
    await e2e.screenshot(page, `blocks-muted-lines-${width}-${theme}`);
    await context.close();
  });

  it('unmute from the participant menu brings the lines back', async () => {
    const { context, page } = await signedIn('cleo', 375, 'light');
    await openMixer(page);
    await peopleTab(page);
    await page.getByRole('button', { name: 'More options for Ben' }).click();
    await page.getByRole('menuitem', { name: 'Unmute Ben' }).click();
    await chatTab(page);
    await page.getByText('Only with beef').waitFor();
    expect(await page.getByTestId('muted-line').count()).toBe(0);
    await context.close();
  });
});

describe('the people you blocked, in Settings', () => {
  it('someone blocked from a mixer, with no conversation, is listed under Safety and blocks and can be unblocked there', async () => {
    const { context, page } = await signedIn('cleo', 375, 'light');
    await openMixer(page);
    await peopleTab(page);
    await page.getByRole('button', { name: 'More options for Ben' }).click();
    await page.getByRole('menuitem', { name: 'Block Ben' }).click();
    const block = page.getByRole('alertdialog', { name: 'Block Ben?' });
    await block.getByRole('button', { name: 'Block Ben' }).click();
    await block.waitFor({ state: 'detached' });

    await page.goto('/settings');
    await page.getByRole('link', { name: 'Open safety and blocks' }).click();
    await page.getByRole('heading', { name: 'People you blocked' }).waitFor();
    await page.getByRole('button', { name: 'Unblock Ben' }).waitFor();
    await e2e.screenshot(page, 'blocked-members-375-light');
    await page.getByRole('button', { name: 'Unblock Ben' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Unblock Ben?' });
    await confirm.getByRole('button', { name: 'Unblock' }).click();
    await page.getByText('You haven’t blocked anyone.').waitFor();

    // Ben is back among the mixer's people.
    await openMixer(page);
    await peopleTab(page);
    await page.getByRole('button', { name: 'More options for Ben' }).waitFor();
    await context.close();
  });
});
