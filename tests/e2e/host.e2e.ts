import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_TEXTS } from '../../src/shared/schemas/host';
import { mixerMemberships, mixerMessages, mixers, user } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/lib/sql';
import { runAppHost } from '../../src/server/modules/host/service';
import { type E2E, startE2E, viewportShot, toast } from './harness';

/**
 * Issue 29, the host: in a live mixer Maya and Rhys see the icebreaker, then a quiet-room prompt
 * arrives live; the clock moves on to halfway (the room's times move back 25 minutes) and the
 * poll appears; Maya votes with one tap and Rhys sees the result live; Maya, who has not written,
 * gets the private nudge (Rhys does not) and sends its reply with one tap. Screenshots of the host
 * lines and the poll at 1280 and 375 px, light and dark.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const MIN = 60_000;

async function member(name: string) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  return { ...m, id };
}

async function openChat(page: Page, mixerId: string) {
  await page.goto(`/mixers/${mixerId}`);
  await page.getByRole('log').waitFor();
  await page.getByText('Live', { exact: true }).first().waitFor();
}

/** Moves the mixer's clock on by `minutes`: everything in the room happened that much earlier. */
async function moveClock(mixerId: string, minutes: number) {
  const by = sql.raw(`interval '${minutes} minutes'`);
  await e2e.db.execute(sql`update mixers set starts_at = starts_at - ${by}, ends_at = ends_at - ${by} where id = ${mixerId}`);
  await e2e.db.execute(sql`update mixer_memberships set joined_at = joined_at - ${by} where mixer_id = ${mixerId}`);
  await e2e.db.execute(sql`update mixer_messages set created_at = created_at - ${by} where mixer_id = ${mixerId}`);
  await e2e.db.execute(sql`update mixer_hosts set last_host_at = last_host_at - ${by} where mixer_id = ${mixerId}`);
}

describe('the host', () => {
  it('opens with the icebreaker, fills a quiet room, runs the halfway poll live and nudges a quiet member', async () => {
    const maya = await member('Maya Okafor');
    const rhys = await member('Rhys Llewellyn');
    const startsAt = new Date(Date.now() - 6 * MIN);
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Board Game Natter',
        topic: 'Board games',
        theme: 'berry',
        status: 'live',
        startsAt,
        endsAt: new Date(startsAt.getTime() + 60 * MIN),
        icebreaker: 'Which board game would you refuse to play with a partner?',
      })
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values([maya, rhys].map((m) => ({ mixerId: mixer.id, userId: m.id, joinedAt: startsAt })));
    await e2e.db.insert(mixerMessages).values([
      { mixerId: mixer.id, kind: 'icebreaker', body: 'Which board game would you refuse to play with a partner?', createdAt: startsAt },
      { mixerId: mixer.id, senderId: rhys.id, body: 'Monopoly. Never again.', createdAt: new Date(startsAt.getTime() + 30_000) },
    ]);

    const a = await e2e.newPage();
    const b = await e2e.newPage({ width: 375, height: 780 });
    await e2e.login(a.page, maya.email);
    await e2e.login(b.page, rhys.email);
    await openChat(a.page, mixer.id);
    await openChat(b.page, mixer.id);
    await a.page.getByText('Which board game would you refuse to play with a partner?').waitFor();

    // Quiet for five minutes: the host asks the topic's first prompt, live, in its own voice.
    const quiet = await runAppHost(e2e.app, new Date());
    expect(quiet.posted.map((p) => p.type)).toEqual(['prompt']);
    const firstPrompt = 'Which game would you bring to a games night with people you have only just met?';
    for (const page of [a.page, b.page]) {
      const line = page.locator('[data-host-line]').filter({ hasText: firstPrompt });
      await line.waitFor();
      expect(await line.getByText('Host', { exact: true }).count()).toBe(1);
    }
    // Run again at once: nothing more (not more often than every 5 minutes).
    expect((await runAppHost(e2e.app, new Date())).posted).toEqual([]);

    // Halfway: the poll arrives live for both.
    await moveClock(mixer.id, 25);
    const half = await runAppHost(e2e.app, new Date());
    expect(half.posted.map((p) => p.type)).toContain('game');
    const pollLine = (page: Page) => page.locator('[data-host-line]').filter({ hasText: 'Host · halfway game' });
    await pollLine(a.page).waitFor();
    await pollLine(b.page).waitFor();
    const options = pollLine(a.page).getByRole('button');
    const count = await options.count();
    expect(count).toBeGreaterThanOrEqual(2);
    const firstLabel = (await options.first().innerText()).trim();

    // Maya votes with one tap; her result shows, and Rhys's counts update live.
    await options.first().click();
    await pollLine(a.page).getByText('1 vote · live').waitFor();
    await pollLine(a.page).getByLabel('Your answer').waitFor();
    // Rhys has not voted: he still has the buttons; after his vote he sees both votes.
    await pollLine(b.page).getByRole('button', { name: firstLabel }).click();
    await pollLine(b.page).getByText('2 votes · live').waitFor();
    await pollLine(a.page).getByText('2 votes · live').waitFor();
    // A second vote is refused by the server.
    const twice = await a.page.evaluate(async (mixerId) => {
      const view = await (await fetch(`/api/mixers/${mixerId}/host`)).json();
      const res = await fetch(`/api/host/polls/${view.polls[0].id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ option: 0 }),
      });
      return res.status;
    }, mixer.id);
    expect(twice).toBe(409);

    // Maya has not written in 31 minutes: a private nudge, for her only.
    expect(half.nudged.map((n) => n.userId)).toEqual([maya.id]);
    const nudge = a.page.locator('[data-host-nudge]');
    await nudge.waitFor();
    await nudge.getByText('Only you can see this.').waitFor();
    expect(await b.page.locator('[data-host-nudge]').count()).toBe(0);

    // Screenshots: the host lines and the poll (and the nudge) at 1280 and 375 px, light and dark.
    await viewportShot(a.page, 'host-poll-nudge-1280-light');
    await viewportShot(b.page, 'host-poll-375-light');
    for (const { page, context } of [a, b]) {
      await context.addInitScript(() => localStorage.setItem('fancy-theme', 'dark'));
      await page.reload();
      await page.getByRole('log').waitFor();
      await pollLine(page).getByText('2 votes · live').waitFor();
    }
    await a.page.locator('[data-host-nudge]').waitFor();
    await viewportShot(a.page, 'host-poll-nudge-1280-dark');
    await viewportShot(b.page, 'host-poll-375-dark');

    // One tap sends the suggested reply as Maya's own line; Rhys sees it and the nudge is gone.
    const reply = (await nudge.locator('p').nth(1).innerText()).replace(/^“|”$/g, '');
    await nudge.getByRole('button', { name: 'Send this' }).click();
    await nudge.waitFor({ state: 'detached' });
    await b.page.getByRole('log').getByText(reply).waitFor();

    // The wrap-up, ten minutes before the end.
    await moveClock(mixer.id, 20);
    const wrap = await runAppHost(e2e.app, new Date());
    expect(wrap.posted.map((p) => p.type)).toEqual(['wrapup']);
    await b.page.locator('[data-host-line]').filter({ hasText: HOST_TEXTS.wrapUp }).waitFor();
    await viewportShot(b.page, 'host-wrapup-375-dark');
  });

  it("an admin switches a mixer's host off and edits a topic's prompts, both audited", async () => {
    const admin = await member('Ada Admin');
    await e2e.db.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
    const startsAt = new Date(Date.now() - 40 * 60_000);
    const [mixer] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Quiet Quiz Night',
        topic: 'Pub quizzes',
        status: 'live',
        startsAt,
        endsAt: new Date(startsAt.getTime() + 60 * MIN),
      })
      .returning({ id: mixers.id });
    const { page } = await e2e.newPage();
    await e2e.login(page, admin.email);

    await page.goto('/admin/mixers');
    const hostSwitch = page.getByRole('switch', { name: 'Host in Quiet Quiz Night' });
    await hostSwitch.waitFor();
    expect(await hostSwitch.isChecked()).toBe(true);
    await hostSwitch.click();
    await toast(page, 'Host off').waitFor();
    expect(await hostSwitch.isChecked()).toBe(false);

    await page.goto('/admin/formation');
    await page.getByRole('heading', { name: 'Host prompts' }).waitFor();
    await page.getByRole('button', { name: 'Edit the host prompts for General' }).click();
    const prompts = page.getByRole('dialog').getByRole('textbox', { name: 'Prompts' });
    await prompts.fill('What made you smile this week?\nWhich café should everyone here try?');
    await viewportShot(page, 'host-admin-prompts-1280');
    await page.getByRole('button', { name: 'Save prompts' }).click();
    await toast(page, 'Host prompts saved').waitFor();

    const audit = rowsOf<{ action: string; target: string }>(
      await e2e.db.execute(sql`select action, target from audit_log where action like 'host.%' order by created_at`),
    );
    expect(audit).toEqual([
      { action: 'host.off', target: mixer.id },
      { action: 'host.prompts', target: 'General' },
    ]);
    // Switched off: the host says nothing in that room.
    const run = await runAppHost(e2e.app, new Date());
    expect(run.posted.filter((p) => p.mixerId === mixer.id)).toEqual([]);
  });
});
