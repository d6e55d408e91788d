import { sql } from 'drizzle-orm';
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { LINE_MESSAGES } from '../../src/shared/schemas/chat';
import { appReady, type E2E, linesDelivered, startE2E, viewportShot } from './harness';

/**
 * The room (issue 29, conversation): two demo members in a live demo mixer reply, react, edit
 * and unsend from each line's one menu (mouse, keyboard), and a send whose socket is cut
 * mid-flight is retried without doubling; then the same in their private conversation, where
 * a POST whose answer is lost is retried with its key. Screenshots at 1280 and 375 px, both themes.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ SEED_DEMO: 'true' });
}, 300_000);
afterAll(async () => {
  await e2e?.close();
});

const MAYA = 'maya-okafor@demo.fancy.test';
const RHYS = 'rhys-llewellyn@demo.fancy.test';
const MIXER = 'Warehouse Techno Talk';

async function joinChat(page: Page, mixerId: string) {
  await page.goto(`/mixers/${mixerId}`);
  await page.getByRole('button', { name: 'Join the conversation' }).click();
  await page.getByRole('log').waitFor();
  await page.getByText('Live', { exact: true }).waitFor();
}

/** Scrolls the chat up, as a member keeps doing, until the one line containing `text` has come into the page. */
async function scrollUpTo(page: Page, text: string) {
  const log = page.getByRole('log');
  await expect
    .poll(async () => {
      await log.evaluate((el) => el.scrollTo({ top: 0 }));
      return log.getByText(text).count();
    })
    .toBe(1);
}

/** The line (its focusable group) whose text contains `text`. */
/** Whether the foot of the log's newest line is in the log's view (a reader at the bottom sees it whole). */
async function newestLineInView(page: Page): Promise<boolean> {
  return page.getByRole('log').evaluate((log) => {
    const lines = log.querySelectorAll('[data-line-id]');
    const last = lines[lines.length - 1];
    return Boolean(last) && last.getBoundingClientRect().bottom <= log.getBoundingClientRect().bottom + 1;
  });
}

const line = (page: Page, text: string) => page.getByRole('log').locator('[data-line-id]', { hasText: text }).first();

async function openMenuByKeyboard(page: Page, text: string) {
  await line(page, text).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menu', { name: 'Message actions' }).waitFor();
}

/** From the log, one step back is "Skip to the message box", and it lands in the box `id`. */
async function skipToComposer(page: Page, id: string) {
  await page.getByRole('log').focus();
  await page.keyboard.press('Shift+Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the message box');
  await viewportShot(page, `skip-to-${id}`);
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe(id);
}

async function send(page: Page, label: string, text: string) {
  const box = page.getByLabel(label, { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

async function themed(page: Page, dark: boolean) {
  await page.evaluate((d) => document.documentElement.classList.toggle('dark', d), dark);
}

describe('the room', () => {
  it('reply, react, edit, unsend and a retried send in a live mixer and in a private conversation', async () => {
    await e2e.db.execute(sql`
      update mixer_memberships set state = 'left', left_at = now()
       where user_id in (select id from "user" where email in (${MAYA}, ${RHYS})) and state = 'joined'
         and mixer_id in (select id from mixers where status in ('live', 'scheduled'))`);
    const mixerRows = (await e2e.db.execute(sql`select id from mixers where title = ${MIXER}`)) as unknown as { rows: { id: string }[] };
    const mixerId = mixerRows.rows[0].id;
    const a = await e2e.newPage({ width: 1280, height: 800 });
    const b = await e2e.newPage({ width: 375, height: 812 });

    // Maya's socket goes through a relay this test can cut.
    const relay = { cutNextSend: false, muted: false, sockets: [] as WebSocketRoute[], subscribed: new Set<string>() };
    await a.page.routeWebSocket(/\/api\/realtime/, (ws) => {
      const server = ws.connectToServer();
      relay.sockets.push(ws);
      // The rooms the newest socket has joined: muting before the app has joined a room would
      // also drop the answers it needs to join it, and it would never be live there.
      relay.subscribed = new Set();
      const rooms = relay.subscribed;
      // Muted: nothing reaches Maya live (so only the answer to her POST could tell her a line arrived).
      server.onMessage((message) => {
        const event = JSON.parse(String(message)) as { type: string; room?: string };
        if (event.type === 'subscribed' && event.room) rooms.add(event.room);
        if (!relay.muted) ws.send(message);
      });
      ws.onMessage((message) => {
        server.send(message);
        // The line reaches the server, then the connection dies before the answer comes back.
        if (relay.cutNextSend && String(message).includes('"type":"send"')) {
          relay.cutNextSend = false;
          void ws.close();
        }
      });
    });

    await e2e.login(a.page, MAYA, DEMO_PASSWORD);
    await e2e.login(b.page, RHYS, DEMO_PASSWORD);
    await joinChat(a.page, mixerId);
    await joinChat(b.page, mixerId);

    // Maya opens; Rhys replies to that line from its menu (keyboard on the phone-sized page).
    const opener = 'Who has been to Fabric? Room One at 4am is another planet';
    await send(a.page, 'Message', opener);
    await line(b.page, opener).waitFor();
    await openMenuByKeyboard(b.page, opener);
    await b.page.getByRole('menuitem', { name: 'Reply' }).click();
    await b.page.getByText('Replying to Maya').waitFor();
    const answer = 'Me! Last Friday, the bass in there rearranges your organs';
    await send(b.page, 'Reply to Maya', answer);
    const replyOnA = line(a.page, answer);
    await replyOnA.waitFor();
    await replyOnA.getByRole('button', { name: /^Maya: Who has been to Fabric/ }).waitFor();

    // Maya reacts with the mouse: hover, the "…" button, a reaction. Rhys sees it live; one
    // reaction per member: another replaces it.
    await replyOnA.hover();
    await replyOnA.getByRole('button', { name: 'Message actions' }).click();
    await a.page.getByRole('menuitem', { name: 'React with 😂' }).click();
    await b.page.getByRole('button', { name: '😂 1: Maya' }).waitFor();
    // By keyboard: Left from the first reaction wraps round to the last, 🔥, and Enter picks it.
    await openMenuByKeyboard(a.page, answer);
    await a.page.getByRole('menuitem', { name: /❤️/ }).focus();
    await a.page.keyboard.press('ArrowLeft');
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('React with 🔥');
    await a.page.keyboard.press('ArrowRight');
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/❤️/);
    await a.page.keyboard.press('ArrowLeft');
    await a.page.keyboard.press('Enter');
    await b.page.getByRole('button', { name: '🔥 1: Maya' }).waitFor();
    // Rhys was at the bottom: the reaction that made the newest line taller did not push its foot out of view.
    await expect.poll(() => newestLineInView(b.page)).toBe(true);
    // Nor does a composer grown to four lines, which leaves the log less room.
    const composerB = b.page.getByLabel('Message', { exact: true });
    await composerB.fill('one\ntwo\nthree\nfour');
    await expect.poll(() => newestLineInView(b.page)).toBe(true);
    // Nor a paste past the limit: the box at its tallest and the limit's message under it. The way
    // back to the newest line is not offered, since nothing was scrolled.
    await composerB.fill('A'.repeat(5000));
    await b.page.getByText('5000/1000').waitFor();
    await expect.poll(() => newestLineInView(b.page)).toBe(true);
    expect(await b.page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0);
    // Scrolled up, the way back sits at the log's foot, clear of the tall composer.
    await b.page.getByRole('log').evaluate((log) => log.scrollTo({ top: 0 }));
    const jump = b.page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    const [jumpBox, logBox] = await Promise.all([jump.boundingBox(), b.page.getByRole('log').boundingBox()]);
    expect((jumpBox?.y ?? 0) + (jumpBox?.height ?? 0)).toBeLessThanOrEqual((logBox?.y ?? 0) + (logBox?.height ?? 0));
    await jump.click();
    await expect.poll(() => newestLineInView(b.page)).toBe(true);
    await composerB.fill('');
    expect(await b.page.getByRole('button', { name: /^😂 1/ }).count()).toBe(0);
    await b.page.getByRole('button', { name: '🔥 1: Maya' }).click();
    await b.page.getByRole('button', { name: 'React with 🔥' }).click();
    await a.page.getByRole('button', { name: '🔥 2: You, Rhys' }).waitFor();

    // Keyboard: the message box is one stop away, not one stop per line of the log.
    await skipToComposer(a.page, 'chat-input');
    // Maya fixes her line (marked edited for Rhys) and unsends another.
    await openMenuByKeyboard(a.page, opener);
    await a.page.getByRole('menuitem', { name: 'Edit' }).click();
    await a.page.getByText('Editing message').waitFor();
    // Emptied, the edit says how to take the line back instead of doing nothing.
    await send(a.page, 'Edit message', '');
    await a.page.getByText(LINE_MESSAGES.editEmpty).waitFor();
    const edited = 'Who has been to Fabric? Room One at 4am is another planet entirely';
    await send(a.page, 'Edit message', edited);
    await line(b.page, 'entirely').waitFor();
    await line(b.page, 'entirely')
      .locator('..')
      .getByText(/edited$/)
      .waitFor();
    // The quote in Rhys's reply follows the edit.
    await line(a.page, answer)
      .getByText(/another planet entirely/)
      .waitFor();

    const oops = 'oops, that was meant for my sister';
    await send(a.page, 'Message', oops);
    await line(b.page, oops).waitFor();
    await openMenuByKeyboard(a.page, oops);
    await a.page.getByRole('menuitem', { name: 'Unsend' }).focus();
    await a.page.keyboard.press('Enter');
    // It asks first (it cannot be undone); nothing is taken back until confirmed.
    const asks = a.page.getByRole('alertdialog', { name: 'Unsend this message?' });
    await asks.waitFor();
    expect(await b.page.getByRole('log').getByText(oops).count()).toBe(1);
    await viewportShot(a.page, 'room-unsend-confirm-1280');
    await a.page.keyboard.press('Tab');
    await a.page.keyboard.press('Enter');
    await b.page.getByText('Maya unsent a message').waitFor();
    // By keyboard, focus stays on the line whose menu went with the unsend, not lost to the page.
    await expect
      .poll(() =>
        a.page.evaluate(() => `${document.activeElement?.getAttribute('aria-roledescription')}: ${document.activeElement?.textContent}`),
      )
      .toMatch(/^message: .*You unsent a message/);
    expect(await b.page.getByRole('log').getByText(oops).count()).toBe(0);

    // Tapping a quote scrolls to the original and highlights it.
    await replyOnA.getByRole('button', { name: /^Maya: .*Show the original message$/ }).click();
    await a.page.waitForSelector('[data-line-id][data-highlight="true"]');

    // Busy-room screenshots (before the cut, so the room looks normal).
    for (const text of ['Anyone going to Printworks closing?', 'Detroit or Berlin techno, go', 'Both. Obviously.']) {
      await send(b.page, 'Message', text);
      await a.page.getByRole('log').getByText(text).waitFor();
    }
    for (const dark of [false, true]) {
      const theme = dark ? 'dark' : 'light';
      await themed(a.page, dark);
      await themed(b.page, dark);
      await viewportShot(a.page, `room-busy-1280-${theme}`);
      await viewportShot(b.page, `room-busy-375-${theme}`);
    }
    // The line menu at both widths, in both themes.
    for (const dark of [true, false]) {
      const theme = dark ? 'dark' : 'light';
      await themed(a.page, dark);
      await themed(b.page, dark);
      await openMenuByKeyboard(a.page, 'Both. Obviously.');
      await viewportShot(a.page, `room-line-menu-1280-${theme}`);
      await a.page.keyboard.press('Escape');
      // Escape gives focus back to the line, not to its hidden "…" button.
      await expect.poll(() => a.page.evaluate(() => document.activeElement?.getAttribute('aria-roledescription'))).toBe('message');
      await openMenuByKeyboard(b.page, 'Both. Obviously.');
      await viewportShot(b.page, `room-line-menu-375-${theme}`);
      await b.page.keyboard.press('Escape');
    }

    // The socket is cut right after a line leaves: the line shows as not sent (text kept) or,
    // once the reconnect has fetched it, as sent; Retry never makes a second one.
    expect(relay.sockets.length).toBeGreaterThan(0);
    relay.cutNextSend = true;
    const retried = 'Sent while the train went into a tunnel';
    await send(a.page, 'Message', retried);
    const retry = a.page.getByRole('button', { name: 'Retry' });
    await Promise.race([retry.waitFor(), b.page.getByRole('log').getByText(retried).waitFor()]);
    if (await retry.isVisible()) {
      await a.page.getByText('Live', { exact: true }).waitFor();
      // The reconnect may fetch the line first, which takes the Retry away: either way, one line.
      await Promise.race([retry.click().catch(() => undefined), a.page.locator('[data-pending-line]').waitFor({ state: 'detached' })]);
    }
    await a.page.getByRole('log').getByText(retried).waitFor();
    await b.page.getByRole('log').getByText(retried).waitFor();
    await linesDelivered(a.page);
    const count = (await e2e.db.execute(sql`select count(*)::int as n from mixer_messages where body = ${retried}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(count.rows[0].n).toBe(1);
    expect(await b.page.getByRole('log').getByText(retried).count()).toBe(1);
    expect(await a.page.getByRole('log').getByText(retried).count()).toBe(1);

    // The draft survives a reload.
    // The log is in the server's HTML; the kept draft fills the box once the app has taken over.
    await a.page.getByLabel('Message', { exact: true }).fill('half a thought about');
    await a.page.waitForFunction(() => Object.keys(localStorage).some((k) => localStorage.getItem(k) === 'half a thought about'));
    await a.page.reload();
    await a.page.getByRole('log').waitFor();
    await expect.poll(() => a.page.getByLabel('Message', { exact: true }).inputValue()).toBe('half a thought about');

    // The private conversation: reply, react, edit, unsend; a POST whose answer is lost is retried once.
    const [{ id: matchId }] = (
      (await e2e.db.execute(sql`
        select m.id from matches m join "user" a on a.id in (m.profile1_id, m.profile2_id) join "user" b on b.id in (m.profile1_id, m.profile2_id)
         where a.email = ${MAYA} and b.email = ${RHYS}`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await a.page.goto(`/messages/${matchId}`);
    await b.page.goto(`/messages/${matchId}`);
    const dmBox = 'Message Rhys';
    await a.page.getByLabel(dmBox, { exact: true }).waitFor();
    const plan = 'Fancy the Barbican cinema on Sunday?';
    let lost = true;
    await a.page.route(/\/api\/conversations\/[^/]+\/messages$/, async (route) => {
      if (route.request().method() !== 'POST' || !lost) return route.fallback();
      lost = false;
      await route.fetch(); // the server commits it…
      await route.abort('connectionreset'); // …and the answer never arrives
    });
    await expect.poll(() => relay.subscribed.has(`conversation:${matchId}`)).toBe(true);
    relay.muted = true;
    await send(a.page, dmBox, plan);
    await b.page.getByRole('log').getByText(plan).waitFor();
    // Maya's line shows as not sent (text kept, Retry) — or as sent, when a fetch of the
    // conversation still under way from opening it (the socket's catch-up) lands after the line
    // was stored and finds it by its key. Either is true; a line that stays "sending" is not.
    await Promise.race([a.page.getByText('Not sent.').waitFor(), a.page.locator('[data-pending-line]').waitFor({ state: 'detached' })]);
    relay.muted = false;
    // Live again, an event can make the app fetch the conversation first: the line it finds by
    // its key takes the Retry away. Either way, one line.
    await Promise.race([
      a.page
        .getByRole('button', { name: 'Retry' })
        .click()
        .catch(() => undefined),
      a.page.locator('[data-pending-line]').waitFor({ state: 'detached' }),
    ]);
    await linesDelivered(a.page);
    expect(await a.page.getByRole('log').getByText(plan).count()).toBe(1);
    const dmCount = (await e2e.db.execute(sql`select count(*)::int as n from direct_messages where body = ${plan}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(dmCount.rows[0].n).toBe(1);

    await openMenuByKeyboard(b.page, plan);
    await b.page.getByRole('menuitem', { name: 'React with ❤️' }).click();
    await a.page.getByRole('button', { name: '❤️ 1: Rhys' }).waitFor();
    await openMenuByKeyboard(b.page, plan);
    await b.page.getByRole('menuitem', { name: 'Reply' }).click();
    await send(b.page, 'Message Maya', 'Yes! The 8pm one?');
    await line(a.page, 'The 8pm one')
      .getByRole('button', { name: /^Maya: Fancy the Barbican/ })
      .waitFor();
    await openMenuByKeyboard(a.page, plan);
    await a.page.getByRole('menuitem', { name: 'Edit' }).click();
    await a.page.getByLabel('Edit message', { exact: true }).fill('');
    await a.page.getByText(LINE_MESSAGES.editEmpty).waitFor();
    await send(a.page, 'Edit message', 'Fancy the Barbican cinema on Sunday evening?');
    await b.page.getByRole('log').getByText('Sunday evening?').first().waitFor();
    await skipToComposer(a.page, 'dm-composer');
    const slip = 'ignore that, wrong window';
    await send(a.page, dmBox, slip);
    await b.page.getByRole('log').getByText(slip).waitFor();
    await openMenuByKeyboard(a.page, slip);
    await a.page.getByRole('menuitem', { name: 'Unsend' }).click();
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Unsend' }).click();
    await b.page.getByText('Maya unsent a message').waitFor();

    for (const dark of [false, true]) {
      const theme = dark ? 'dark' : 'light';
      await themed(a.page, dark);
      await themed(b.page, dark);
      await viewportShot(a.page, `room-dm-1280-${theme}`);
      await viewportShot(b.page, `room-dm-375-${theme}`);
    }
    await openMenuByKeyboard(b.page, 'The 8pm one');
    await viewportShot(b.page, 'room-dm-menu-375-dark');
  }, 600_000);

  it('a busy room and a long private conversation open with their newest lines only; older ones show on the way up, and a quote far back finds its line', async () => {
    // Seventy lines from Rhys ten minutes ago, and a reply now to the first of them: more than a page.
    const [{ id: mixerId }] = (
      (await e2e.db.execute(sql`select id from mixers where title = ${MIXER}`)) as unknown as { rows: { id: string }[] }
    ).rows;
    // Both in the room whichever test ran before (this one also runs alone).
    await e2e.db.execute(sql`
      insert into mixer_memberships (mixer_id, user_id, state)
      select ${mixerId}, u.id, 'joined' from "user" u where u.email in (${MAYA}, ${RHYS})
      on conflict (mixer_id, user_id) do update set state = 'joined', left_at = null`);
    await e2e.db.execute(sql`
      insert into mixer_messages (mixer_id, sender_id, kind, body, created_at)
      select ${mixerId}, u.id, 'member', 'Backlog line ' || g, now() - interval '10 minutes' + g * interval '1 second'
        from generate_series(1, 70) g cross join "user" u where u.email = ${RHYS}`);
    await e2e.db.execute(sql`
      insert into mixer_messages (mixer_id, sender_id, kind, body, reply_to_id, created_at)
      select ${mixerId}, u.id, 'member', 'Still thinking about the first one',
             (select id from mixer_messages where mixer_id = ${mixerId} and body = 'Backlog line 1'), now()
        from "user" u where u.email = ${RHYS}`);
    const { page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, MAYA, DEMO_PASSWORD);
    await page.goto(`/mixers/${mixerId}`);
    const reply = line(page, 'Still thinking about the first one');
    await reply.waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    // The newest lines only: a phone's screen and a scroll's worth, not every loaded one.
    const rendered = () => page.getByRole('log').locator('[data-line-id]').count();
    expect(await rendered()).toBeLessThanOrEqual(30);
    expect(await page.getByRole('log').getByText('Backlog line 40').count()).toBe(0);
    // On the way up, the lines above show, and the place in the chat is kept.
    await scrollUpTo(page, 'Backlog line 40');
    // The quote's original is two pages back: found, scrolled to and highlighted.
    await reply.getByRole('button', { name: /^Rhys: Backlog line 1(?!\d)/ }).click();
    await page.waitForSelector('[data-line-id][data-highlight="true"]');
    await expect.poll(() => page.locator('[data-highlight="true"]').innerText()).toMatch(/Backlog line 1(?!\d)/);

    // A long-press opens the menu under the finger; lifting the finger chooses nothing and leaves
    // the menu open. The finger goes where an item of the menu will be: found by opening it by keyboard first.
    const touch = await e2e.browser.newContext({
      baseURL: e2e.baseUrl,
      viewport: { width: 375, height: 812 },
      hasTouch: true,
      isMobile: true,
    });
    const phone = await touch.newPage();
    await e2e.login(phone, MAYA, DEMO_PASSWORD);
    await phone.goto(`/mixers/${mixerId}`);
    await phone.getByText('Live', { exact: true }).waitFor();
    const pressed = line(phone, 'Still thinking about the first one');
    await pressed.scrollIntoViewIfNeeded();
    await openMenuByKeyboard(phone, 'Still thinking about the first one');
    const lineBox = await pressed.boundingBox();
    const under: { x: number; y: number; name: string }[] = [];
    for (const item of await phone.getByRole('menuitem').all()) {
      const b = await item.boundingBox();
      if (!lineBox || !b) continue;
      const top = Math.max(b.y, lineBox.y);
      const bottom = Math.min(b.y + b.height, lineBox.y + lineBox.height);
      if (bottom - top > 4)
        under.push({
          x: b.x + b.width / 2,
          y: (top + bottom) / 2,
          name: (await item.getAttribute('aria-label')) ?? (await item.innerText()),
        });
    }
    expect(under.length, 'no item of the menu lies over the line: move the finger').toBeGreaterThan(0);
    await phone.keyboard.press('Escape');
    const cdp = await touch.newCDPSession(phone);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: under[0].x, y: under[0].y }] });
    await phone.getByRole('menu', { name: 'Message actions' }).waitFor();
    await phone.waitForTimeout(300);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await phone.waitForTimeout(700);
    expect(await phone.getByRole('menu', { name: 'Message actions' }).isVisible(), `the lift over "${under[0].name}" closed the menu`).toBe(
      true,
    );
    expect(await pressed.getByRole('button', { name: /\d+: / }).count(), `the lift over "${under[0].name}" reacted`).toBe(0);
    expect(await phone.getByText(/^Replying to /).count(), `the lift over "${under[0].name}" chose Reply`).toBe(0);
    await touch.close();

    // The private conversation the same way: seventy read lines from Rhys and a reply to the first.
    const [{ id: matchId, maya, rhys }] = (
      (await e2e.db.execute(sql`
        select m.id, a.id as maya, b.id as rhys from matches m
          join "user" a on a.id in (m.profile1_id, m.profile2_id) join "user" b on b.id in (m.profile1_id, m.profile2_id)
         where a.email = ${MAYA} and b.email = ${RHYS}`)) as unknown as { rows: { id: string; maya: string; rhys: string }[] }
    ).rows;
    await e2e.db.execute(sql`
      insert into direct_messages (match_id, sender_id, recipient_id, body, is_read, created_at)
      select ${matchId}, ${rhys}, ${maya}, 'Earlier note ' || g, true, now() - interval '10 minutes' + g * interval '1 second'
        from generate_series(1, 70) g`);
    await e2e.db.execute(sql`
      insert into direct_messages (match_id, sender_id, recipient_id, body, is_read, reply_to_id, created_at)
      select ${matchId}, ${rhys}, ${maya}, 'Back to my first note', true,
             (select id from direct_messages where match_id = ${matchId} and body = 'Earlier note 1'), now()`);
    await page.goto(`/messages/${matchId}`);
    const dmReply = line(page, 'Back to my first note');
    await dmReply.waitFor();
    expect(await rendered()).toBeLessThanOrEqual(30);
    expect(await page.getByRole('log').getByText('Earlier note 40').count()).toBe(0);
    // The thread arrives rendered by the server: it scrolls once the app has taken it over.
    await appReady(page);
    await scrollUpTo(page, 'Earlier note 40');
    await dmReply.getByRole('button', { name: /^Rhys: Earlier note 1(?!\d)/ }).click();
    await expect.poll(() => page.locator('[data-highlight="true"]').innerText()).toMatch(/Earlier note 1(?!\d)/);
    await page.context().close();
  }, 300_000);
});
