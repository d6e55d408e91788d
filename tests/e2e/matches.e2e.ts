import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dayLabel } from '../../src/client/features/messages/time';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { axeViolations } from './a11y';
import { demoEmail, type E2E, startE2E, viewportShot } from './harness';

/**
 * Fancies → matches → messages with the embedded demo data. Arjun and Nathan share the live
 * Board Game Night and have no matches yet: they fancy each other, both see the match, and
 * chat live while the unread badge rises and clears. Maya's seeded conversations give the
 * screenshots of /matches, /messages and a thread at 1280 and 375 px, and the safety flows.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await e2e?.close();
});

const demo = demoEmail;

/** The day separators ("Today", "Yesterday", a weekday…) of the conversation holding `line`, as of now. */
async function threadDays(line: string): Promise<string[]> {
  const { rows } = (await e2e.db.execute(
    sql`select created_at from direct_messages where match_id = (select match_id from direct_messages where body = ${line})`,
  )) as unknown as { rows: { created_at: string | Date }[] };
  return [...new Set(rows.map((r) => dayLabel(new Date(r.created_at).toISOString())))];
}
const MIXER = 'Board Game Night: Catan & Co.';

async function expectNoSeriousA11yIssues(page: Page, where: string) {
  const violations = await axeViolations(page);
  expect(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    where,
  ).toEqual([]);
}

/** The Messages entry of the desktop sidebar (its accessible name carries the badge). */
const messagesNav = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Messages/ });

async function fancyFromMixer(page: Page, firstName: string) {
  await page.goto('/mixers?tab=discover');
  await page.getByRole('link', { name: MIXER }).first().click();
  await page.getByRole('heading', { level: 1, name: MIXER }).waitFor();
  const button = page.getByRole('button', { name: `Fancy ${firstName}` });
  await button.click();
  await page.waitForFunction(
    (label) => document.querySelector(`button[aria-label="${label}"]`)?.getAttribute('aria-pressed') === 'true',
    `Fancy ${firstName}`,
  );
}

describe('matches and messages', () => {
  it('two members who shared a mixer fancy each other, match, and chat live', async () => {
    const arjun = await e2e.newPage({ width: 1280, height: 800 });
    const nathan = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.login(arjun.page, demo('arjun-patel'), DEMO_PASSWORD);
    await e2e.login(nathan.page, demo('nathan-brooks'), DEMO_PASSWORD);

    // No matches yet: a friendly nudge towards mixers.
    await arjun.page.goto('/matches');
    await arjun.page.getByRole('heading', { name: 'No matches yet' }).waitFor();
    await arjun.page.getByRole('link', { name: 'Find a mixer' }).waitFor();
    await e2e.screenshot(arjun.page, 'matches-empty-1280');

    // Arjun fancies Nathan in the mixer (private: nothing happens for Nathan yet), then waits on /matches.
    await fancyFromMixer(arjun.page, 'Nathan');
    await arjun.page.goto('/matches');
    await arjun.page.getByRole('heading', { name: 'No matches yet' }).waitFor();

    // Nathan fancies Arjun back: it's a match for both, live on Arjun's open /matches page.
    await fancyFromMixer(nathan.page, 'Arjun');
    await arjun.page.getByRole('heading', { level: 2, name: 'Nathan' }).waitFor();
    // The celebration where he is, the same as where a match is made, with its way to say hello.
    const celebration = arjun.page.locator('[data-variant="celebration"]');
    await celebration.getByText("It's a match!", { exact: true }).waitFor();
    expect(await celebration.getByRole('link', { name: 'Say hello to Nathan' }).getAttribute('href')).toMatch(
      /^\/messages\/[0-9a-f-]{36}$/,
    );
    expect(await arjun.page.getByText(`Met at ${MIXER}`).count()).toBe(1);
    await nathan.page.setViewportSize({ width: 375, height: 812 });
    await nathan.page.goto('/matches');
    await nathan.page.getByRole('heading', { level: 2, name: 'Arjun' }).waitFor();
    await nathan.page.getByText('New match').waitFor();

    // Nathan opens the conversation from his match card and says hello.
    await nathan.page.getByRole('link', { name: 'Say hello to Arjun' }).click();
    await nathan.page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    const matchId = nathan.page.url().split('/').pop() as string;
    await nathan.page.getByText('You and Arjun fancy each other').waitFor();
    await nathan.page.getByRole('button', { name: 'Hey Arjun! So glad we matched.' }).waitFor();
    await viewportShot(nathan.page, 'thread-empty-375');
    // The thread has the phone's screen to itself: the shell's bars under it are out of the tab
    // order and the accessibility tree (getByRole leaves hidden elements out), not merely covered.
    expect(await nathan.page.getByRole('navigation', { name: 'Quick' }).count()).toBe(0);
    expect(await nathan.page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    await nathan.page.getByRole('link', { name: 'Back to messages' }).waitFor();
    const hello = 'Hey Arjun! Still thinking about that sheep trade 🐑';
    const composerN = nathan.page.getByLabel('Message Arjun');
    await composerN.fill(hello);
    await composerN.press('Enter');
    await nathan.page.getByRole('log').getByText(hello).waitFor();
    expect(await composerN.inputValue()).toBe('');

    // Arjun's Messages badge rises to exactly 1 without a reload (one socket per tab).
    await arjun.page.waitForFunction(() => {
      const link = [...document.querySelectorAll('nav[aria-label="Main"] a')].find((a) => a.getAttribute('href') === '/messages');
      return /\D1 unread/.test(link?.textContent ?? '');
    });
    await arjun.page.goto('/messages');
    const row = arjun.page.getByRole('link', { name: /Nathan/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(hello);
    expect(await row.textContent()).toContain('1 unread');
    await e2e.screenshot(arjun.page, 'messages-list-live-1280');

    // Opening the thread reads it: the badge clears and Nathan sees "Seen".
    await row.click();
    await arjun.page.waitForURL(`**/messages/${matchId}`);
    await arjun.page.getByRole('log').getByText(hello).waitFor();
    await arjun.page.waitForFunction(() => {
      const link = [...document.querySelectorAll('nav[aria-label="Main"] a')].find((a) => a.getAttribute('href') === '/messages');
      return link !== undefined && !link.textContent?.includes('unread');
    });
    expect(await messagesNav(arjun.page).textContent()).not.toContain('unread');
    await nathan.page.getByText('Seen', { exact: true }).waitFor();

    // Arjun replies (Shift+Enter for a new line); Nathan sees it live in his open thread.
    const composerA = arjun.page.getByLabel('Message Nathan');
    await composerA.fill('Ha! You were robbed.');
    await composerA.press('Shift+Enter');
    await composerA.pressSequentially('Rematch on Sunday?');
    await composerA.press('Enter');
    await nathan.page.getByRole('log').getByText('Rematch on Sunday?').waitFor();
    expect(await nathan.page.getByText('Seen', { exact: true }).count()).toBe(1);

    // Own messages on the right, theirs on the left.
    const own = arjun.page.getByRole('log').getByText('Rematch on Sunday?').locator('xpath=ancestor::div[contains(@class,"flex")][1]');
    expect(await own.getAttribute('class')).toContain('justify-end');
    const theirs = arjun.page.getByRole('log').getByText(hello).locator('xpath=ancestor::div[contains(@class,"flex")][1]');
    expect(await theirs.getAttribute('class')).toContain('justify-start');

    // Beside the list on a desktop, the conversation's name is the page's one level-1 heading.
    expect(await arjun.page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([expect.stringContaining('Nathan')]);
    await viewportShot(arjun.page, 'thread-live-1280');
    await viewportShot(nathan.page, 'thread-live-375');
    await expectNoSeriousA11yIssues(arjun.page, 'thread 1280');

    // Offline, a line fails at once with Retry and keeps its text (not "Sending…" for ever);
    // back online, Retry delivers it once.
    const offline = 'Sent from a tunnel';
    await nathan.context.setOffline(true);
    await composerN.fill(offline);
    await composerN.press('Enter');
    const failed = nathan.page.locator('[data-pending-line="failed"]');
    await failed.getByText(offline).waitFor();
    await nathan.context.setOffline(false);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await nathan.page.getByRole('log').getByText(offline).waitFor();
    // Counted in the thread: the conversation list, hidden beside it on a phone, previews the same words.
    await expect.poll(() => nathan.page.getByRole('log').getByText(offline).count()).toBe(1);

    // The back button returns to the list on a phone.
    await nathan.page.getByRole('link', { name: 'Back to messages' }).click();
    await nathan.page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await nathan.page.getByRole('link', { name: /Arjun/ }).waitFor();

    // A third member cannot open their conversation.
    const maya = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(maya.page, demo('maya-okafor'), DEMO_PASSWORD);
    await maya.page.goto(`/messages/${matchId}`);
    await maya.page.getByRole('heading', { name: 'We couldn’t open this conversation' }).waitFor();
    await maya.context.close();

    await arjun.context.close();
    await nathan.context.close();
  });

  it("Maya's matches, conversations and a thread at 1280 and 375 px", async () => {
    for (const [width, height] of [
      [1280, 800],
      [375, 812],
    ] as const) {
      const { context, page } = await e2e.newPage({ width, height });
      await e2e.login(page, demo('maya-okafor'), DEMO_PASSWORD);

      await page.goto('/matches');
      await page.getByRole('heading', { level: 2, name: 'Rhys' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Sam' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Callum' }).waitFor();
      await page.getByText('Met at Indie Film Club: Aftersun Debrief').first().waitFor();
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      await e2e.screenshot(page, `matches-${width}`);
      await expectNoSeriousA11yIssues(page, `/matches ${width}`);

      await page.goto('/messages');
      const rhys = page.getByRole('link', { name: /Rhys/ });
      await rhys.waitFor();
      // Ordered by latest message: Rhys (minutes ago) before Sam (yesterday) and Callum (no messages, matched earlier).
      const names = await page.locator('main ul a').evaluateAll((links) => links.map((a) => a.querySelector('.truncate')?.textContent));
      expect(names.slice(0, 3)).toEqual(['Rhys', 'Sam', 'Callum']);
      // Rhys's latest message is unread until the first pass opens the thread.
      if (width === 1280) expect(await rhys.textContent()).toContain('1 unread');
      else expect(await rhys.textContent()).not.toContain('unread');
      await viewportShot(page, `messages-${width}`);
      await expectNoSeriousA11yIssues(page, `/messages ${width}`);

      await rhys.click();
      await page.getByRole('log').getByText('Gerald and Dai. This is the start of a sitcom.').waitFor();
      if (width === 1280) await page.getByText('New messages').waitFor();
      // The thread's day separators, from the same clock as the page ("Today" is absent just after midnight).
      for (const day of await threadDays('Gerald and Dai. This is the start of a sitcom.')) {
        await page.getByRole('log').getByText(day, { exact: true }).waitFor();
      }
      await viewportShot(page, `thread-${width}`);
      await expectNoSeriousA11yIssues(page, `thread ${width}`);
      await context.close();
    }
  });

  it('block takes the conversation away from the other side and leaves it read-only for the blocker; unmatch from /matches asks first', async () => {
    const maya = await e2e.newPage({ width: 1280, height: 800 });
    const sam = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(maya.page, demo('maya-okafor'), DEMO_PASSWORD);
    await e2e.login(sam.page, demo('sam-okonkwo'), DEMO_PASSWORD);

    await sam.page.goto('/messages');
    await sam.page.getByRole('link', { name: /Maya/ }).click();
    await sam.page.getByLabel('Message Maya').waitFor();

    await maya.page.goto('/messages');
    await maya.page.getByRole('link', { name: /Sam/ }).click();
    await maya.page.getByRole('button', { name: 'Options for your conversation with Sam' }).click();
    await maya.page.getByRole('menuitem', { name: 'Block Sam' }).click();
    const dialog = maya.page.getByRole('alertdialog', { name: 'Block Sam?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Block' }).click();
    // Maya keeps it read-only, so she can still report from it (issue 30).
    const readOnly = maya.page.getByRole('status').filter({ hasText: 'You blocked Sam' });
    await readOnly.waitFor();
    expect(await readOnly.innerText()).toContain('you can still read it and report from it');
    expect(await maya.page.getByLabel('Message Sam').count()).toBe(0);
    await viewportShot(maya.page, 'thread-blocked-1280');

    // For Sam the conversation is gone: not found, and not in his list, without being told about the block.
    await sam.page.reload();
    await sam.page.getByText("We couldn't find that conversation.").waitFor();
    expect(await sam.page.getByLabel('Message Maya').count()).toBe(0);
    expect(await sam.page.getByText('blocked').count()).toBe(0);
    await viewportShot(sam.page, 'thread-ended-375');
    await sam.page.goto('/messages');
    await sam.page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await sam.page.waitForLoadState('networkidle');
    expect(await sam.page.getByRole('link', { name: /Maya/ }).count()).toBe(0);

    // Unmatch Callum from /matches: confirmation first, then the card goes.
    await maya.page.goto('/matches');
    await maya.page.getByRole('button', { name: 'More options for Callum' }).click();
    await maya.page.getByRole('menuitem', { name: 'Unmatch' }).click();
    const confirm = maya.page.getByRole('alertdialog', { name: 'Unmatch Callum?' });
    await confirm.waitFor();
    await e2e.screenshot(maya.page, 'unmatch-dialog-1280');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await maya.page.getByRole('heading', { level: 2, name: 'Callum' }).waitFor();
    await maya.page.getByRole('button', { name: 'More options for Callum' }).click();
    await maya.page.getByRole('menuitem', { name: 'Unmatch' }).click();
    await maya.page.getByRole('alertdialog', { name: 'Unmatch Callum?' }).getByRole('button', { name: 'Unmatch' }).click();
    await maya.page.getByRole('heading', { level: 2, name: 'Callum' }).waitFor({ state: 'detached' });
    await maya.page.getByRole('heading', { level: 2, name: 'Rhys' }).waitFor();

    await maya.context.close();
    await sam.context.close();
  });
});
