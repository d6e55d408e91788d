import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed/demo-data';
import { GUARD_MESSAGES } from '../../src/shared/schemas/guard';
import { type E2E, startE2E, viewportShot } from './harness';

/**
 * Before harm (issue 30) in a live mixer: a phone number is held with the reason and the text
 * kept; a hurtful line asks "Are you sure?", and sent anyway it reaches the other member folded
 * away with "Does this bother you?"; hidden words from Settings fold lines away too.
 * Screenshots at 1280 and 375 px, light and dark.
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
const MIXER = 'Warehouse Techno Talk';

/** Both themes of what is on screen now. */
async function bothThemes(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
    await viewportShot(page, `${name}-${theme}`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
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

describe('before harm', () => {
  it('held contact details, Are you sure?, Does this bother you? and hidden words', async () => {
    const a = await e2e.newPage({ width: 1280, height: 800 });
    const b = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(a.page, MAYA, DEMO_PASSWORD);
    await e2e.login(b.page, RHYS, DEMO_PASSWORD);
    // Both sit in one live mixer (and in no other live one: issue 32).
    const [{ id: mixerId }] = (
      (await e2e.db.execute(sql`select id from mixers where title = ${MIXER}`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await e2e.db.execute(sql`
      update mixer_memberships set state = 'left', left_at = now()
       where user_id in (select id from "user" where email in (${MAYA}, ${RHYS}))
         and mixer_id in (select id from mixers where status = 'live')`);
    await e2e.db.execute(sql`
      insert into mixer_memberships (mixer_id, user_id, state)
      select ${mixerId}::uuid, id, 'joined' from "user" where email in (${MAYA}, ${RHYS})
      on conflict (mixer_id, user_id) do update set state = 'joined', left_at = null`);
    await openChat(a.page, mixerId);
    await openChat(b.page, mixerId);

    // A phone number is not sent: the composer says why and keeps the text.
    const phone = 'text me on 07700 900123 after this';
    await type(a.page, phone);
    await a.page.getByTestId('held-notice').getByText(GUARD_MESSAGES.heldContact).waitFor();
    expect(await a.page.getByLabel('Message', { exact: true }).inputValue()).toBe(phone);
    await bothThemes(a.page, 'guard-held-line-1280');
    await type(b.page, 'add me on insta, rhys_ll');
    await b.page.getByTestId('held-notice').waitFor();
    await bothThemes(b.page, 'guard-held-line-375');
    expect(await b.page.getByRole('log').getByText(phone).count()).toBe(0);

    // A hurtful line: Are you sure? Edit keeps it; Send anyway sends it, folded away for others.
    const rude = 'you are a stupid idiot';
    await type(a.page, rude);
    const dialog = a.page.getByRole('alertdialog', { name: 'Are you sure?' });
    await dialog.waitFor();
    await bothThemes(a.page, 'guard-are-you-sure-1280');
    await dialog.getByRole('button', { name: 'Edit' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await a.page.getByLabel('Message', { exact: true }).inputValue()).toBe(rude);
    await a.page.getByLabel('Message', { exact: true }).press('Enter');
    await dialog.getByRole('button', { name: 'Send anyway' }).click();
    await a.page.getByRole('log').getByText(rude).waitFor();
    const folded = b.page.getByTestId('line-collapsed');
    await folded.getByText(GUARD_MESSAGES.collapsedAbuse).waitFor();
    expect(await b.page.getByRole('log').getByText(rude).count()).toBe(0);
    await bothThemes(b.page, 'guard-receiver-warning-375');
    // One tap to report from the folded line.
    await folded.getByRole('button', { name: 'Report' }).click();
    await b.page.getByRole('dialog').waitFor();
    await b.page.keyboard.press('Escape');
    await folded.getByRole('button', { name: 'Show' }).click();
    await b.page.getByRole('log').getByText(rude).waitFor();

    // The other way round, for the desktop shot of the receiver's side.
    await type(b.page, 'shut up you loser');
    await b.page.getByRole('alertdialog', { name: 'Are you sure?' }).waitFor();
    await bothThemes(b.page, 'guard-are-you-sure-375');
    await b.page.getByRole('alertdialog').getByRole('button', { name: 'Send anyway' }).click();
    await a.page.getByTestId('line-collapsed').waitFor();
    await bothThemes(a.page, 'guard-receiver-warning-1280');

    // Hidden words: Rhys hides "pineapple"; Maya's line with it arrives folded away for him.
    await b.page.goto('/settings#hidden-words');
    const field = b.page.getByLabel('Add a word, phrase or emoji');
    await field.fill('Pineapple');
    await field.press('Enter');
    await b.page.getByRole('list', { name: 'Your hidden words' }).getByText('Pineapple').waitFor();
    await b.page.getByRole('heading', { name: 'Hidden words' }).scrollIntoViewIfNeeded();
    await bothThemes(b.page, 'guard-hidden-words-375');
    await a.page.goto('/settings#hidden-words');
    await a.page.getByText('No hidden words yet.').waitFor();
    await bothThemes(a.page, 'guard-hidden-words-1280');

    await openChat(b.page, mixerId);
    await openChat(a.page, mixerId);
    await type(a.page, 'PINEAPPLE on pizza is underrated');
    await a.page.getByRole('log').getByText('PINEAPPLE on pizza is underrated').waitFor();
    await b.page.getByTestId('line-hidden-words').getByText(GUARD_MESSAGES.hiddenByWords).waitFor();
    expect(await b.page.getByRole('log').getByText('PINEAPPLE on pizza is underrated').count()).toBe(0);
    await b.page.getByTestId('line-hidden-words').getByRole('button', { name: 'Show' }).click();
    await b.page.getByRole('log').getByText('PINEAPPLE on pizza is underrated').waitFor();
  }, 300_000);
});
