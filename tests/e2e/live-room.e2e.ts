/**
 * The live room (issue 29) in real Chromium: two members in one live mixer. Presence (a count in
 * the chat header, a dot in the people list), typing that appears and goes, a mention picked from
 * the `@` list with the keyboard that reaches the other member as a badge, a highlight and a push,
 * and the "New messages" divider where they stopped reading. Screenshots of the mention list and
 * the typing indicator at 1280 and 375 px, light and dark.
 */
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushIdle } from '../../src/server/modules/push/service';
import { type PushServiceStandIn, startPushService } from '../helpers/push-service';
import { axeViolations } from './a11y';
import { type E2E, linesDelivered, startE2E, viewportShot } from './harness';

let e2e: E2E;
let push: PushServiceStandIn;
beforeAll(async () => {
  e2e = await startE2E();
  push = await startPushService();
  mkdirSync('test-results/screenshots', { recursive: true });
});
afterAll(async () => {
  await e2e?.close();
  await push?.close();
});

async function member(name: string) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  return { ...m, id };
}

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const setTheme = (page: Page, theme: 'light' | 'dark') =>
  page.evaluate((t) => {
    localStorage.setItem('fancy-theme', t);
    document.documentElement.classList.toggle('dark', t === 'dark');
    document.documentElement.style.colorScheme = t;
  }, theme);

describe('the live room', () => {
  it('presence, typing, a mention with its notification, and the unread divider', async () => {
    const maya = await member('Maya Okoro');
    const rhys = await member('Rhys Lloyd');
    const [{ id: mixerId }] = rows<{ id: string }>(
      await e2e.db.execute(sql`insert into mixers (title, topic, status, starts_at, ends_at, max_participants)
        values ('Sunday Board Games', 'Board games', 'live', now() - interval '20 minutes', now() + interval '70 minutes', 8) returning id`),
    );
    await e2e.db.execute(sql`insert into mixer_memberships (mixer_id, user_id, state) values
      (${mixerId}, ${maya.id}, 'joined'), (${mixerId}, ${rhys.id}, 'joined')`);
    // Earlier lines: Rhys read up to the second one, so the third is where he stopped.
    const lines = ['Who has played Wingspan?', 'Me! The birds are gorgeous.', 'Anyone up for Catan later?'];
    const ids: string[] = [];
    for (const [i, body] of lines.entries()) {
      const [row] = rows<{ id: string }>(
        await e2e.db.execute(sql`insert into mixer_messages (mixer_id, sender_id, kind, body, created_at)
          values (${mixerId}, ${i === 1 ? rhys.id : maya.id}, 'member', ${body}, now() - ${`${10 - i} minutes`}::interval) returning id`),
      );
      ids.push(row.id);
    }
    await e2e.db.execute(sql`insert into mixer_reads (mixer_id, user_id, read_at)
      select ${mixerId}, ${rhys.id}, created_at from mixer_messages where id = ${ids[1]}`);

    const a = await e2e.newPage({ width: 1280, height: 800 });
    const b = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(a.page, maya.email);
    await e2e.login(b.page, rhys.email);

    // Rhys turns on notifications for this browser (the push service is the loopback stand-in).
    const sub = push.subscription();
    const subscribed = await b.page.request.post('/api/push/devices', { data: sub, headers: { origin: e2e.baseUrl } });
    expect(subscribed.status(), await subscribed.text()).toBe(200);

    // Maya opens the room: only she is here.
    await a.page.goto(`/mixers/${mixerId}`);
    await a.page.getByTestId('presence-count').filter({ hasText: '1 here' }).waitFor();

    // Rhys opens it on his phone: at the first line he had not read, under "New messages".
    await b.page.goto(`/mixers/${mixerId}`);
    const divider = b.page.getByTestId('new-messages-divider');
    await divider.waitFor();
    const after = await divider.evaluate((el) => el.nextElementSibling?.textContent ?? '');
    expect(after).toContain('Anyone up for Catan later?');
    await a.page.getByTestId('presence-count').filter({ hasText: '2 here' }).waitFor();
    await b.page.getByTestId('presence-count').filter({ hasText: '2 here' }).waitFor();
    // The people list shows who is here now.
    await b.page.getByRole('tab', { name: /People/ }).click();
    expect(await b.page.getByTestId('presence-dot').count()).toBe(2);
    await b.page.getByRole('tab', { name: 'Chat' }).click();

    // Rhys types: Maya sees it; it goes when he sends.
    await b.page.locator('#chat-input').pressSequentially('I could do Catan', { delay: 30 });
    const typingA = a.page.getByTestId('typing-indicator');
    await typingA.filter({ hasText: 'Rhys is typing…' }).waitFor();
    await viewportShot(a.page, 'live-room-typing-1280-light');
    await setTheme(a.page, 'dark');
    await viewportShot(a.page, 'live-room-typing-1280-dark');
    await setTheme(a.page, 'light');
    await b.page.locator('#chat-input').press('Enter');
    await a.page.getByRole('log').getByText('I could do Catan').waitFor();
    await until(async () => !(await typingA.textContent())?.includes('typing'), 'the indicator to go after the send');

    // Maya types and stops: Rhys sees it, then it goes a few seconds after her last key.
    await a.page.locator('#chat-input').pressSequentially('Great', { delay: 30 });
    const typingB = b.page.getByTestId('typing-indicator');
    await typingB.filter({ hasText: 'Maya is typing…' }).waitFor();
    await viewportShot(b.page, 'live-room-typing-375-light');
    await setTheme(b.page, 'dark');
    await viewportShot(b.page, 'live-room-typing-375-dark');
    await setTheme(b.page, 'light');
    await until(async () => !(await typingB.textContent())?.includes('typing'), 'the indicator to go after the last key');
    await a.page.locator('#chat-input').fill('');

    // Rhys steps away to Home; Maya mentions him, picked from the @ list with the keyboard.
    await b.page.goto('/home');
    await a.page.getByTestId('presence-count').filter({ hasText: '1 here' }).waitFor();
    const input = a.page.locator('#chat-input');
    await input.pressSequentially('@R');
    const list = a.page.getByTestId('mention-list');
    await list.getByRole('option', { name: 'Rhys' }).waitFor();
    // The box names the list and its active option, with no role or state a textarea may not carry.
    const listId = await input.getAttribute('aria-controls');
    expect(await a.page.locator(`[id="${listId}"][role="listbox"]`).getByRole('option').count()).toBeGreaterThan(0);
    expect(await input.getAttribute('aria-activedescendant')).toBe(`${listId}-0`);
    const misused = (await axeViolations(a.page, { impacts: ['minor', 'moderate', 'serious', 'critical'] })).filter((v) =>
      ['aria-allowed-role', 'aria-allowed-attr'].includes(v.id),
    );
    expect(misused).toEqual([]);
    await viewportShot(a.page, 'live-room-mentions-1280-light');
    await setTheme(a.page, 'dark');
    await viewportShot(a.page, 'live-room-mentions-1280-dark');
    await setTheme(a.page, 'light');
    // Escape closes it for that @ (typing on keeps it closed); a new @ offers again; Enter picks.
    await input.press('Escape');
    await list.waitFor({ state: 'detached' });
    await input.pressSequentially('h');
    expect(await list.count()).toBe(0);
    await input.fill('');
    await input.pressSequentially('@Rh');
    await list.waitFor();
    await input.press('Enter');
    expect(await input.inputValue()).toBe('@Rhys ');
    await input.pressSequentially('shall we start at 8?');
    await input.press('Enter');
    await a.page.getByRole('log').getByText('shall we start at 8?').waitFor();

    // The notification: a push (discreet) and the Mixers badge. The line shows at once as it
    // leaves; the push goes once the server has it.
    await linesDelivered(a.page);
    const path = new URL(sub.endpoint).pathname;
    await until(async () => push.received.some((p) => p.path === path), 'the mention push');
    await pushIdle(e2e.app);
    const pushes = push.received.filter((p) => p.path === path).map((p) => p.payload);
    expect(pushes).toEqual([
      { title: 'Fancy', body: 'You were mentioned in a mixer', url: `/mixers/${mixerId}`, tag: `mention:${mixerId}` },
    ]);
    await b.page
      .getByRole('link', { name: /Mixers\s*1\s*unread mentions/ })
      .first()
      .waitFor();

    // Back in the room: the mention is highlighted for him, and reading it clears the badge.
    await b.page.goto(`/mixers/${mixerId}`);
    const mention = b.page.locator('[data-mentions-me]', { hasText: 'shall we start at 8?' });
    await mention.waitFor();
    await b.page.getByTestId('new-messages-divider').waitFor();
    await until(async () => (await b.page.getByRole('link', { name: /Mixers\s*1\s*unread mentions/ }).count()) === 0, 'the badge to clear');

    // The @ list on the phone, above the composer.
    const inputB = b.page.locator('#chat-input');
    await inputB.pressSequentially('@');
    await b.page.getByTestId('mention-list').getByRole('option', { name: 'Maya' }).waitFor();
    const listBox = await b.page.getByTestId('mention-list').boundingBox();
    const inputBox = await inputB.boundingBox();
    expect(listBox && inputBox && listBox.y + listBox.height <= inputBox.y + 1).toBe(true);
    await viewportShot(b.page, 'live-room-mentions-375-light');
    await setTheme(b.page, 'dark');
    await viewportShot(b.page, 'live-room-mentions-375-dark');
    // A tap picks.
    await b.page.getByTestId('mention-list').getByRole('option', { name: 'Maya' }).click();
    expect(await inputB.inputValue()).toBe('@Maya ');

    // Rhys closes his tab: Maya sees him go.
    await b.context.close();
    await a.page.getByTestId('presence-count').filter({ hasText: '1 here' }).waitFor();
    await a.context.close();
    // A long journey with two browsers on a shared machine.
  }, 300_000);
});
