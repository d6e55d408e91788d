import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyActivity, fancies, mixerInvitations, mixerMemberships, mixerMessages, mixers, profiles } from '../../src/server/db/schema';
import { runFormation } from '../../src/server/modules/formation/job';
import { advanceAppMixers } from '../../src/server/modules/mixers/lifecycle';
import { checkA11y } from './a11y';
import { type E2E, linesDelivered, realtimeLive, startE2E } from './harness';

/**
 * Issue 14 end to end: Maya says when she's free and what she'd join; the formation job forms
 * a mixer from her and five others who asked for the same topic and invites them; she sees the
 * invitation (a notice, a mail, the Home card), accepts, chats in the live mixer, and after it
 * ends she fancies Rhys — who fancied her — from "Who did you click with?": a match.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const ALL_EVENINGS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => `${d}-evening`);

async function member(name: string) {
  const m = await e2e.createMember(name);
  const id = await e2e.completeProfile(m.email);
  await e2e.db
    .insert(dailyActivity)
    .values({ userId: id, day: new Date().toISOString().slice(0, 10) })
    .onConflictDoNothing();
  return { ...m, id };
}

describe('mixers that form themselves', () => {
  it('availability and an ask → a formed mixer → invitation → chat → the prompt → a match', async () => {
    const maya = await member('Maya Okafor');
    const rhys = await member('Rhys Llewellyn');
    const others = [rhys, ...(await Promise.all(['Sam Patel', 'Ola Bakare', 'Jo Reid', 'Kit Lowe'].map(member)))];
    for (const o of others) {
      await e2e.db
        .update(profiles)
        .set({ availability: ALL_EVENINGS, topicAsks: ['Bouldering'] })
        .where(eq(profiles.id, o.id));
    }

    // Maya: every evening, and "I'd join one about Bouldering", in Profile.
    const { page } = await e2e.newPage();
    await e2e.login(page, maya.email);
    await page.goto('/profile#availability');
    const section = page.getByRole('region', { name: "When you're free" });
    await section.getByRole('button', { name: "Edit when you're free" }).click();
    await section.getByRole('button', { name: 'Weekday evenings' }).click();
    await section.getByRole('button', { name: 'Weekend evenings' }).click();
    await section.getByLabel('Search all topics').fill('boulder');
    await section.getByRole('button', { name: 'Bouldering' }).click();
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByTestId('availability-summary').getByText('Weekday evenings · Weekend evenings').waitFor();

    // The job runs while she is on Home: one mixer about Bouldering, a held seat for each of the six.
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    // The notice is shown live only once her socket is ready (under load that can be after the page is idle).
    await realtimeLive(page);
    const run = await runFormation(e2e.app, new Date());
    expect(run.mixers).toHaveLength(1);
    expect(run.invitations).toHaveLength(6);
    const [formed] = await e2e.db.select().from(mixers).where(eq(mixers.id, run.mixers[0]));
    expect(formed).toMatchObject({ origin: 'auto', topic: 'Bouldering', status: 'scheduled' });

    // The notice arrives live and leads to the mixer, where her seat is held; a mail links there too.
    await page.getByText(`A seat is held for you in "${formed.title}"`).first().waitFor();
    await page.getByRole('button', { name: 'See the mixer' }).click();
    await page.waitForURL(`**/mixers/${formed.id}`);
    await page.getByTestId('held-seat').waitFor();
    await page.goto('/home');
    const card = page.getByTestId('invitation-card');
    await card.getByText(formed.title).waitFor();
    expect(await card.textContent()).toContain('people who love Bouldering are free');
    await checkA11y(page);
    await e2e.screenshot(page, 'journey-invitation-1280');
    expect(await e2e.lastLinkTo(maya.email)).toContain(`/mixers/${formed.id}`);

    await card.getByRole('button', { name: 'Accept' }).click();
    await page.getByText("You're in!", { exact: false }).first().waitFor();
    const [mine] = await e2e.db
      .select({ state: mixerMemberships.state })
      .from(mixerMemberships)
      .where(and(eq(mixerMemberships.mixerId, formed.id), eq(mixerMemberships.userId, maya.id)));
    expect(mine.state).toBe('joined');

    // The others accept too (their own journeys are the invitation tests').
    for (const o of others) {
      await e2e.db.insert(mixerMemberships).values({ mixerId: formed.id, userId: o.id, state: 'joined', side: 'all' });
      await e2e.db
        .update(mixerInvitations)
        .set({ status: 'accepted' })
        .where(and(eq(mixerInvitations.mixerId, formed.id), eq(mixerInvitations.userId, o.id)));
    }

    // Start time: it goes live and Maya chats.
    const now = Date.now();
    await e2e.db
      .update(mixers)
      .set({ startsAt: new Date(now - 60_000), endsAt: new Date(now + 59 * 60_000) })
      .where(eq(mixers.id, formed.id));
    // Everyone in it from the start, as when the hour comes (attendance counts presence: decision 014).
    await e2e.db
      .update(mixerMemberships)
      .set({ joinedAt: new Date(now - 60_000) })
      .where(eq(mixerMemberships.mixerId, formed.id));
    await advanceAppMixers(e2e.app, new Date());
    await page.goto(`/mixers/${formed.id}`);
    const composer = page.getByLabel('Message', { exact: true });
    await composer.fill('Anyone tried the new wall at Redpoint?');
    await composer.press('Enter');
    await page.getByRole('log').getByText('Anyone tried the new wall at Redpoint?').waitFor();
    // Shown at once as it leaves; her attendance counts it only once the server has it.
    await linesDelivered(page);
    await e2e.db
      .insert(mixerMessages)
      .values({ mixerId: formed.id, senderId: rhys.id, kind: 'member', body: 'Yes! The overhang is brutal.' });
    await e2e.db.insert(fancies).values({ fromUserId: rhys.id, toUserId: maya.id, mixerId: formed.id });

    // It ends while she is in it: a notice leads to "Who did you click with?", a mail too.
    await e2e.db
      .update(mixers)
      .set({ endsAt: new Date(Date.now() - 1000) })
      .where(eq(mixers.id, formed.id));
    await advanceAppMixers(e2e.app, new Date());
    expect(await e2e.lastLinkTo(maya.email, `/mixers/${formed.id}/after`)).toContain(`/mixers/${formed.id}/after`);
    await page.getByText(`"${formed.title}" has ended.`).first().waitFor();
    await page.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(`**/mixers/${formed.id}/after`);
    await page.getByRole('heading', { level: 1, name: 'Who did you click with?' }).waitFor();
    expect(await page.getByTestId('prompt-person').count()).toBe(5);
    await page.getByRole('button', { name: 'Fancy Rhys' }).click();
    const toast = page.locator('[data-variant="celebration"]');
    await toast.getByText("It's a match!").waitFor();
    await e2e.screenshot(page, 'journey-match-1280');
    await toast.getByRole('link', { name: 'Say hello to Rhys' }).click();
    await page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);

    // Her private record: she came and wrote a line.
    await page.goto('/profile#availability');
    await page.getByTestId('reliability-note').getByText('You came to your first mixer — lovely to have you.').waitFor();
  });
});
