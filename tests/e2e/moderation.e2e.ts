import { eq, sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixerMemberships, mixerMessages, mixers, user } from '../../src/server/db/schema';
import { GUARD_MESSAGES } from '../../src/shared/schemas/guard';
import { type E2E, startE2E, toast } from './harness';

/**
 * Issue 30, one journey through the UI: a member's phone number is held in a mixer with the
 * reason; another member sends a threat "anyway" after "Are you sure?", and the receiver reports
 * it from "Does this bother you?"; a moderator sees the queue with an overdue report, removes the
 * line and mutes the sender; the sender sees the notice and appeals; a second admin reverses.
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

/** Vic's line: the abuse detector flags it, so it asks "Are you sure?" and arrives folded. */
const THREAT = 'Answer me or I will find where you live';

/** Starts waiting for a locator now, to await later (no unhandled rejection if the test fails first). */
function soon(locator: Locator): Promise<void> {
  const seen = locator.waitFor();
  seen.catch(() => {});
  return seen;
}

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

async function openChat(page: Page, mixerId: string) {
  await page.goto(`/mixers/${mixerId}`);
  await page.getByRole('log').waitFor();
  await page.getByText('Live', { exact: true }).waitFor();
}

async function type(page: Page, text: string) {
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

async function member(name: string, role?: 'admin') {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  if (role) await e2e.db.update(user).set({ role }).where(eq(user.id, id));
  return { ...m, id };
}

describe('moderation journey', () => {
  it('held phone number → threat sent anyway → reported from Does this bother you? → overdue in the queue → removed and muted → the sender appeals → a second admin reverses', async () => {
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
    await e2e.db
      .insert(mixerMessages)
      .values({ mixerId: mx.id, senderId: polly.id, body: 'Round two: name the capital of Peru?', createdAt: new Date(now - 120_000) });

    // Both have the chat open and live (their sockets joined the room).
    const { context: vc, page: vp } = await e2e.newPage();
    await e2e.login(vp, vic.email);
    await openChat(vp, mx.id);
    const { context: pc, page: pp } = await e2e.newPage();
    await e2e.login(pp, polly.email);
    await openChat(pp, mx.id);

    // Polly's phone number is not sent: the composer says why and keeps the text.
    const phone = 'text me on 07700 900123 after the quiz';
    await type(pp, phone);
    await pp.getByTestId('held-notice').getByText(GUARD_MESSAGES.heldContact).waitFor();
    expect(await pp.getByLabel('Message', { exact: true }).inputValue()).toBe(phone);
    await pp.getByLabel('Message', { exact: true }).fill('');

    // Vic's threat asks "Are you sure?"; he sends it anyway.
    await type(vp, THREAT);
    const sure = vp.getByRole('alertdialog', { name: 'Are you sure?' });
    await sure.waitFor();
    await sure.getByRole('button', { name: 'Send anyway' }).click();
    await sure.waitFor({ state: 'detached' });
    await vp.getByRole('log').getByText(THREAT).waitFor();

    // It reaches Polly folded away, and she reports it from "Does this bother you?".
    const folded = pp.getByRole('log').getByTestId('line-collapsed');
    await folded.getByText(GUARD_MESSAGES.collapsedAbuse).waitFor();
    const line = pp.getByRole('log').locator('[data-line-id]', { has: pp.getByTestId('line-collapsed') });
    const lineId = await line.getAttribute('data-line-id');
    expect(lineId).toBeTruthy();
    expect(await pp.getByRole('log').getByText(THREAT).count()).toBe(0);
    await folded.getByRole('button', { name: 'Report' }).click();
    const dialog = pp.getByRole('dialog', { name: 'Report this message' });
    await dialog.waitFor();
    // Every reason's radio is drawn the same size, beside a label on one line or on two.
    const radioWidths = await dialog.getByRole('radio').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
    expect(radioWidths.length).toBeGreaterThan(3);
    expect(new Set(radioWidths)).toEqual(new Set([radioWidths[0]]));
    // Pre-filled, and quoting the line it is about.
    expect(await dialog.textContent()).toContain(THREAT);
    expect(await dialog.getByLabel('Harassment or bullying').isChecked()).toBe(true);
    await dialog.getByLabel('Threats of violence').check();
    await dialog.getByLabel('Anything else we should know? (optional)').fill('He has been threatening people all evening.');
    await shots(pp, 'report-dialog');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(pp, 'Thanks for telling us').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Twice is refused with a clear message.
    await folded.getByRole('button', { name: 'Report' }).click();
    await dialog.waitFor();
    await dialog.getByLabel('Threats of violence').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(pp, 'Report not sent').waitFor();
    expect(await toast(pp, 'Report not sent').textContent()).toContain('already reported this message');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
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
    expect(text).toContain(THREAT);
    expect(text).toContain('Round two: name the capital of Peru?');
    expect(text).toContain('He has been threatening people all evening.');
    await shots(ap, 'queue-overdue');
    await group.getByRole('button', { name: 'Mute' }).click();
    await ap.getByLabel('No threats or violence').check();
    await ap.getByLabel('7 days').check();
    expect(await ap.getByLabel('Also remove the reported line').isChecked()).toBe(true);
    // Vic's toast lasts 5 s: watch for it from before the action, not after the other checks.
    const vicMuted = soon(toast(vp, 'Muted in mixers for 7 days'));
    await ap.getByRole('button', { name: 'Mute in mixers' }).click();
    await toast(ap, 'Muted in mixers for 7 days: done').waitFor();
    await ap.getByText('No open reports — nice.').waitFor();

    // The line is gone from the room (removed lines leave the chat); Vic is told which rule, which line and what now.
    await pp.getByRole('log').locator(`[data-line-id="${lineId}"]`).waitFor({ state: 'detached' });
    expect(await folded.count()).toBe(0);
    await vp.getByRole('log').getByText(THREAT).waitFor({ state: 'detached' });
    await vicMuted;
    await vp.goto('/settings/safety');
    const notice = vp.getByTestId('action-notice').first();
    await notice.waitFor();
    expect(await notice.textContent()).toContain('No threats or violence');
    expect(await notice.textContent()).toContain(THREAT);
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
    const vicReversed = soon(toast(vp, 'Your appeal: decision reversed'));
    await bp.getByRole('button', { name: 'Reverse', exact: true }).last().click();
    await toast(bp, 'Decision reversed').waitFor();

    // Vic is told, may write again, and the line is back.
    await vicReversed;
    await vp.reload();
    await vp.getByText('Reversed on appeal: it no longer applies.').waitFor();
    await openChat(pp, mx.id);
    await folded.getByText(GUARD_MESSAGES.collapsedAbuse).waitFor();
    expect(await pp.getByRole('log').locator(`[data-line-id="${lineId}"]`).count()).toBe(1);
    await folded.getByRole('button', { name: 'Show' }).click();
    await pp.getByRole('log').getByText(THREAT).waitFor();
    for (const c of [vc, pc, ac, bc]) await c.close();
  }, 180_000);
});
