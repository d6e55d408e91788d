import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixerMemberships, mixerMessages, mixers, user } from '../../src/server/db/schema';
import { type E2E, startE2E } from './harness';

/**
 * Issue 30: a member reports a line; a moderator sees the queue with an overdue report, removes
 * the line and mutes the sender; the sender sees the notice and appeals; a second admin reverses.
 * Screenshots at 1280 and 375 px, light and dark: the report dialog, the queue, the notice, the appeal form.
 */
let e2e: E2E;
const HOUR = 3_600_000;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const toast = (page: Page, title: string) => page.locator('[data-variant]', { hasText: title }).first();

/** The same screen at 1280 and 375 px, light and dark. */
async function shots(page: Page, name: string) {
  for (const [label, width] of [
    ['1280', 1280],
    ['375', 375],
  ] as const) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
      await page.waitForTimeout(150);
      await e2e.screenshot(page, `moderation-${name}-${label}-${theme}`);
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function member(name: string, role?: 'admin') {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  if (role) await e2e.db.update(user).set({ role }).where(eq(user.id, id));
  return { ...m, id };
}

describe('moderation journey', () => {
  it('report a line → overdue in the queue → removed and muted → the sender appeals → a second admin reverses', async () => {
    const polly = await member('Polly Reporter');
    const vic = await member('Vic Rude');
    const ada = await member('Ada Admin', 'admin');
    const ben = await member('Ben Admin', 'admin');
    const now = Date.now();
    const [mx] = await e2e.db
      .insert(mixers)
      .values({
        title: 'Pub quiz night',
        topic: 'Quizzes',
        status: 'live',
        startsAt: new Date(now - HOUR / 2),
        endsAt: new Date(now + HOUR),
      })
      .returning({ id: mixers.id });
    await e2e.db.insert(mixerMemberships).values([
      { mixerId: mx.id, userId: polly.id },
      { mixerId: mx.id, userId: vic.id },
    ]);
    await e2e.db.insert(mixerMessages).values([
      { mixerId: mx.id, senderId: polly.id, body: 'Round two: name the capital of Peru?', createdAt: new Date(now - 120_000) },
      { mixerId: mx.id, senderId: vic.id, body: 'Answer me or I will find where you live', createdAt: new Date(now - 60_000) },
    ]);

    // Vic has the app open.
    const { context: vc, page: vp } = await e2e.newPage();
    await e2e.login(vp, vic.email);
    await vp.goto(`/mixers/${mx.id}`);

    // Polly reports the line from the chat.
    const { context: pc, page: pp } = await e2e.newPage();
    await e2e.login(pp, polly.email);
    await pp.goto(`/mixers/${mx.id}`);
    // From the line's menu (hover, its "…" button), like any line action.
    const reported = pp.getByRole('log').locator('[data-line-id]', { hasText: 'Answer me or I will find where you live' }).first();
    await reported.hover();
    await reported.getByRole('button', { name: 'Message actions' }).click();
    await pp.getByRole('menuitem', { name: 'Report' }).click();
    const dialog = pp.getByRole('dialog', { name: 'Report this message' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Answer me or I will find where you live');
    await pp.getByLabel('Threats of violence').check();
    await pp.getByLabel('Anything else we should know? (optional)').fill('He has been threatening people all evening.');
    await shots(pp, 'report-dialog');
    await pp.getByRole('button', { name: 'Send report' }).click();
    await toast(pp, 'Thanks for telling us').waitFor();
    // Twice is refused with a clear message.
    await reported.hover();
    await reported.getByRole('button', { name: 'Message actions' }).click();
    await pp.getByRole('menuitem', { name: 'Report' }).click();
    await pp.getByLabel('Threats of violence').check();
    await pp.getByRole('button', { name: 'Send report' }).click();
    await toast(pp, 'Report not sent').waitFor();
    expect(await toast(pp, 'Report not sent').textContent()).toContain('already reported this message');
    await pp.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The report has waited past its 1-hour target.
    await e2e.db.execute(sql`update reports set created_at = now() - interval '3 hours' where reporter_id = ${polly.id}`);

    // Ada sees it first, overdue, with the evidence; she removes the line and mutes Vic for 7 days.
    const { context: ac, page: ap } = await e2e.newPage();
    await e2e.login(ap, ada.email);
    await ap.goto('/admin/reports');
    const group = ap.getByTestId('queue-group').filter({ hasText: 'Vic Rude' });
    await group.waitFor();
    const text = await group.textContent();
    expect(text).toContain('Overdue');
    expect(text).toContain('Answer me or I will find where you live');
    expect(text).toContain('Round two: name the capital of Peru?');
    expect(text).toContain('He has been threatening people all evening.');
    await shots(ap, 'queue-overdue');
    await group.getByRole('button', { name: 'Mute' }).click();
    await ap.getByLabel('No threats or violence').check();
    await ap.getByLabel('7 days').check();
    expect(await ap.getByLabel('Also remove the reported line').isChecked()).toBe(true);
    await ap.getByRole('button', { name: 'Mute in mixers' }).click();
    await toast(ap, 'Muted in mixers for 7 days: done').waitFor();
    await ap.getByText('No open reports — nice.').waitFor();

    // The line is gone from the room; Vic is told which rule, which line and what now.
    await pp.getByRole('log').getByText('Answer me or I will find where you live').waitFor({ state: 'detached' });
    await toast(vp, 'Muted in mixers for 7 days').waitFor();
    await vp.goto('/settings/safety');
    const notice = vp.getByTestId('action-notice').first();
    await notice.waitFor();
    expect(await notice.textContent()).toContain('No threats or violence');
    expect(await notice.textContent()).toContain('Answer me or I will find where you live');
    await shots(vp, 'action-notice');
    await notice.getByRole('button', { name: 'Appeal this decision' }).click();
    await vp.getByLabel('Why should we look again?').fill('It was a line from the quiz film we were discussing, not a threat.');
    await shots(vp, 'appeal-form');
    await vp.getByRole('button', { name: 'Send appeal' }).click();
    await toast(vp, 'Appeal sent').waitFor();
    await vp.getByText('Appeal sent: we’ll tell you the outcome.').waitFor();
    // Polly learns action was taken, not which.
    await pp.goto('/settings/safety');
    await pp.getByText('We took action').waitFor();

    // Ada cannot decide her own decision's appeal; Ben reverses it.
    await ap.getByRole('button', { name: 'Appeals' }).click();
    await ap.getByText('You took this action, so another admin decides the appeal.').waitFor();
    const { context: bc, page: bp } = await e2e.newPage();
    await e2e.login(bp, ben.email);
    await bp.goto('/admin/reports');
    await bp.getByRole('button', { name: 'Appeals' }).click();
    await bp.getByTestId('appeal-card').filter({ hasText: 'Vic Rude' }).getByRole('button', { name: 'Reverse' }).click();
    await bp.getByLabel('Note for the member').fill('Context shows it was a film quote.');
    await bp.getByRole('button', { name: 'Reverse', exact: true }).last().click();
    await toast(bp, 'Decision reversed').waitFor();

    // Vic is told, may write again, and the line is back.
    await toast(vp, 'Your appeal: decision reversed').waitFor();
    await vp.reload();
    await vp.getByText('Reversed on appeal: it no longer applies.').waitFor();
    await pp.goto(`/mixers/${mx.id}`);
    await pp.getByRole('log').getByText('Answer me or I will find where you live').waitFor();
    for (const c of [vc, pc, ac, bc]) await c.close();
  });
});
