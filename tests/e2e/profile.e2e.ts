import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portrait } from '../fixtures/images';
import { axeViolations, describeViolations } from './a11y';
import { appReady, type E2E, startE2E, toast } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const card = (page: Page) => page.getByRole('region', { name: 'Your profile as others see it' });

async function member(name: string) {
  const m = await e2e.createMember(name);
  await e2e.completeProfile(m.email);
  return m;
}

async function openProfile(page: Page) {
  await page.goto('/profile');
  await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Your profile as others see it' }).waitFor();
  // The page comes rendered by the server; a file chosen before the app has taken it over would go nowhere.
  await appReady(page);
}

const NEW_JOY = 'Finding a secondhand bookshop I have never been in, on a rainy Tuesday, with nowhere else to be.';

describe('profile', () => {
  it('edit a prompt in place: live preview, save, toast, still there after reload', async () => {
    const m = await member('Priya Prompt');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await openProfile(page);
    expect(await page.getByText('only our support team can change it').count()).toBeGreaterThan(0);
    await e2e.screenshot(page, 'profile-desktop');
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);

    await page.getByRole('button', { name: 'Edit prompts' }).click();
    const joy = page.getByLabel('A small joy that matters to me');
    await joy.fill('Too short');
    await page.getByText('(min 60)').waitFor();
    expect(await page.getByRole('region', { name: 'Prompts' }).getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await joy.fill(NEW_JOY);
    await card(page).getByText(NEW_JOY).waitFor();
    await page.getByText('Unsaved preview').waitFor();
    await e2e.screenshot(page, 'profile-editing-desktop');
    await page.getByRole('region', { name: 'Prompts' }).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Profile updated').waitFor();
    await page.getByRole('button', { name: 'Edit prompts' }).waitFor();

    await page.reload();
    await card(page).getByText(NEW_JOY).waitFor();
    await context.close();
  });

  it('a field the server rejects keeps what was typed and shows the message', async () => {
    const m = await member('Rex Rejected');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await openProfile(page);
    await page.route('**/api/me/profile', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'validation', message: 'Name is too long', fields: { fullName: 'Name is too long' } } }),
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Edit about you' }).click();
    await page.getByLabel('Full Name').fill('Rex the Magnificent');
    await page.getByRole('region', { name: 'About you' }).getByRole('button', { name: 'Save' }).click();
    await toast(page, "Couldn't save your changes").waitFor();
    await page.getByRole('region', { name: 'About you' }).getByText('Name is too long').waitFor();
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Rex the Magnificent');
    await e2e.screenshot(page, 'profile-rejected-375');
    await context.close();
  });

  it('photos: add a picture and photos, make one the main photo, reorder and remove', async () => {
    const m = await member('Fran Photos');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, m.email);
    await openProfile(page);
    const photos = page.getByRole('region', { name: 'Photos' });

    await page
      .getByLabel('Profile picture file')
      .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portrait('#c2185b', 'me') });
    await toast(page, 'Profile picture updated').waitFor();
    await photos.getByRole('img', { name: 'You, as other members see you' }).waitFor();

    await page.getByLabel('Other photo files').setInputFiles([
      { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: await portrait('#1e88e5', 'beach') },
      { name: 'hike.jpg', mimeType: 'image/jpeg', buffer: await portrait('#43a047', 'hike') },
    ]);
    await toast(page, '2 photos added').waitFor();
    await photos.getByRole('img', { name: 'Your upload 2 of 2' }).waitFor();
    expect(await card(page).getByRole('img').count()).toBeGreaterThanOrEqual(2);
    const srcOf = async (n: number) => photos.getByRole('img', { name: `Your upload ${n} of 2` }).getAttribute('src');
    const first = await srcOf(1);
    const second = await srcOf(2);

    await photos.getByRole('button', { name: 'Move photo 2 earlier' }).click();
    await toast(page, 'Photos reordered').waitFor();
    await page.waitForFunction((src) => document.querySelector('img[alt="Your upload 1 of 2"]')?.getAttribute('src') === src, second);
    expect(await srcOf(2)).toBe(first);

    const avatarBefore = await photos.getByRole('img', { name: 'You, as other members see you' }).getAttribute('src');
    await photos.getByRole('button', { name: 'Make photo 1 your main photo' }).click();
    await toast(page, 'Main photo changed').waitFor();
    await page.waitForFunction(
      (src) => document.querySelector('img[alt="You, as other members see you"]')?.getAttribute('src') !== src,
      avatarBefore,
    );
    await e2e.screenshot(page, 'profile-photos-375');

    await photos.getByRole('button', { name: 'Remove photo 2' }).click();
    await toast(page, 'Photo removed').waitFor();
    await photos.getByRole('img', { name: 'Your upload 1 of 1' }).waitFor();
    await context.close();
  });

  it('interests keep to 15 and the city can be changed with the city picker', async () => {
    const m = await member('Ian Interests');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, m.email);
    await openProfile(page);
    await page.getByRole('button', { name: 'Edit city' }).click();
    const region = page.getByRole('region', { name: 'City' });
    await region.getByRole('combobox').fill('Edinb');
    await page.getByRole('option', { name: /Edinburgh/ }).click();
    await region.getByRole('button', { name: 'Save', exact: true }).last().click();
    await toast(page, 'Your city is saved.').waitFor();
    await card(page).getByText('Edinburgh').waitFor();

    await page.getByRole('button', { name: 'Edit interests' }).click();
    const interests = page.getByRole('region', { name: 'Interests' });
    const chips = interests.locator('button[aria-pressed="false"]:not([class*="h-8"])');
    while ((await interests.getByRole('button', { name: /^Remove / }).count()) < 15) await chips.first().click();
    await interests.getByText("You've reached the maximum of 15 interests! Remove some to select others.").waitFor();
    // The 16th stays focusable (aria-disabled) so it can explain itself: as a keyboard user would.
    await chips.first().focus();
    await page.keyboard.press('Enter');
    await toast(page, 'Maximum reached').waitFor();
    await interests.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Your interests are saved.').waitFor();
    await card(page).getByText('+9 more').waitFor();
    await e2e.screenshot(page, 'profile-after-edits-desktop');
    await context.close();
  });
});
