import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, user } from '../../src/server/db/schema';
import { portrait } from '../fixtures/images';
import { checkA11y } from './a11y';
import { type E2E, startE2E } from './harness';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const SUPPORT = 'support@fancy.example';
const PROMPTS = {
  'A small joy that matters to me': 'The first coffee on a slow Sunday morning, with the radio on and nowhere to be.',
  'A topic I love to talk about': 'Why every British seaside town has the best chippy in the country, according to locals.',
  'Something I value in relationships': 'Honesty, silliness and the kind of kindness that shows up when nobody is watching.',
  'An experience I would like to share with someone': 'Wild swimming in the Lake District, followed by a very long pub lunch by the fire.',
};

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const button = (page: Page, name: string | RegExp, exact = true) => page.getByRole('button', { name, exact });

/** Closes open toasts so screenshots show the page itself. */
async function closeToasts(page: Page) {
  for (const close of await page.locator('[data-variant] button[aria-label="Close"]').all()) {
    await close.click({ timeout: 1000 }).catch(() => {});
  }
  await page.waitForTimeout(250);
}

async function shot(page: Page, name: string) {
  await closeToasts(page);
  // Full-page shots of a scrolled page would paint the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  // Nothing may stick out sideways (375 px phones included).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} is wider than the viewport`).toBeLessThanOrEqual(0);
  await e2e.screenshot(page, name);
}

async function next(page: Page, expectHeading: string | RegExp) {
  await button(page, /^Continue/, false).click();
  await heading(page, expectHeading).waitFor();
}

async function image(buffer: Promise<Buffer>, name: string) {
  return { name, mimeType: 'image/jpeg', buffer: await buffer };
}

/** Steps 1-6 with the given viewport's screenshots. */
async function throughLookingFor(page: Page, tag: string, opts: { tryUnderAge?: boolean } = {}) {
  await heading(page, 'Hey there – ready to create your profile?').waitFor();
  expect(await page.getByText('Step 1 of 11').isVisible()).toBe(true);
  expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('9');
  expect(await button(page, 'Save and complete later').count()).toBe(0);
  await shot(page, `onboarding-01-welcome-${tag}`);
  await button(page, "let's go →").click();

  await heading(page, 'Who are we talking to?').waitFor();
  expect(await page.getByText('Step 2 of 11').isVisible()).toBe(true);
  expect(await button(page, 'Save and complete later').isVisible()).toBe(true);
  const name = page.getByLabel('Full Name');
  // The name given at registration is already there (saved profile merged into the draft).
  expect(await name.inputValue()).not.toBe('');
  await name.fill('');
  await name.blur();
  await page.getByText('Please enter your name').waitFor();
  expect(await button(page, /^Continue/, false).isDisabled()).toBe(true);
  await name.fill('Robin Fairweather');
  await page.getByLabel('Pronouns (optional)').fill('they/them');
  await shot(page, `onboarding-02-about-${tag}`);
  await next(page, "When's your birthday?");

  const year = new Date().getFullYear();
  if (opts.tryUnderAge) {
    // 31 December, 18 years ago: still 17 on every other day of the year.
    await page.getByLabel('Year', { exact: true }).selectOption(String(year - 18));
    await page.getByLabel('Month', { exact: true }).selectOption({ label: 'December' });
    await page.getByLabel('Day', { exact: true }).selectOption('31');
    await page.getByText('You need to be at least 18.').waitFor();
    expect(await button(page, /^Continue/, false).isDisabled()).toBe(true);
    await shot(page, `onboarding-03-dob-underage-${tag}`);
  }
  // Leap day, then a month and year change clamp the day.
  await page.getByLabel('Year', { exact: true }).selectOption('1996');
  await page.getByLabel('Month', { exact: true }).selectOption({ label: 'February' });
  await page.getByLabel('Day', { exact: true }).selectOption('29');
  await page.getByLabel('Year', { exact: true }).selectOption('1995');
  expect(await page.getByLabel('Day', { exact: true }).inputValue()).toBe('28');
  expect(await page.getByLabel('Day', { exact: true }).locator('option').count()).toBe(29); // placeholder + 28 days
  await page.getByLabel('Month', { exact: true }).selectOption({ label: 'April' });
  await page.getByLabel('Day', { exact: true }).selectOption('21');
  const age = year - 1995 - (new Date() < new Date(year, 3, 21) ? 1 : 0);
  await page.getByText(`Great! You're ${age} years old.`).waitFor();
  await shot(page, `onboarding-03-dob-${tag}`);
  await next(page, 'How do you identify?');

  await button(page, 'Non-binary').click();
  expect(await button(page, 'Non-binary').getAttribute('aria-pressed')).toBe('true');
  await button(page, 'Non-binary').click();
  expect(await button(page, /^Continue/, false).isDisabled()).toBe(true);
  await button(page, 'Non-binary').click();
  await shot(page, `onboarding-04-gender-${tag}`);
  await next(page, "What's your sexual orientation?");

  for (const o of ['Queer', 'Pansexual', 'Bisexual', 'Demisexual', 'Questioning']) await button(page, o).click();
  await page.getByText('You can select up to 5 options. Remove one to add another.').waitFor();
  expect(await button(page, 'Asexual').isDisabled()).toBe(true);
  await shot(page, `onboarding-05-orientation-full-${tag}`);
  await button(page, 'Remove Questioning').click();
  await button(page, 'Remove Demisexual').click();
  expect(await button(page, 'Asexual').isDisabled()).toBe(false);
  await shot(page, `onboarding-05-orientation-${tag}`);
  await next(page, 'What are you looking for?');

  await button(page, /^Dating/, false).click();
  await button(page, /^Dating/, false).click();
  await page.getByText('Please pick at least one option.').waitFor();
  await button(page, /^Dating/, false).click();
  await button(page, /^Friends/, false).click();
  await shot(page, `onboarding-06-looking-for-${tag}`);
  await next(page, 'What are you into?');
}

async function pickInterests(page: Page, names: string[]) {
  for (const n of names) await page.getByRole('button', { name: n, exact: true }).click();
}

async function photosStep(page: Page, tag: string) {
  await heading(page, 'Add a little sparkle').waitFor();
  await page.getByLabel('Profile picture file').setInputFiles(await image(portrait('#ad1457', '', { gps: true }), 'me-with-gps.jpg'));
  await page.getByRole('img', { name: 'You, as others will see you' }).waitFor();
  await page
    .getByLabel('Other photo files')
    .setInputFiles([
      await image(portrait('#7e57c2', 'Hike'), 'hike.jpg'),
      await image(portrait('#00897b', 'Beach'), 'beach.jpg'),
      await image(portrait('#f57c00', 'Gig'), 'gig.jpg'),
      await image(portrait('#3949ab', 'Cake'), 'cake.jpg'),
    ]);
  await page.getByRole('img', { name: 'Upload 4 of 4' }).waitFor();
  await button(page, 'Remove photo 4').click();
  await page.getByRole('img', { name: 'Upload 3 of 3' }).waitFor();
  await page.getByLabel('Other photo files').setInputFiles([await image(portrait('#c62828', 'Dog'), 'dog.jpg')]);
  await page.getByRole('img', { name: 'Upload 4 of 4' }).waitFor();

  const entries = Object.entries(PROMPTS);
  for (const [label, text] of entries.slice(0, 3)) await page.getByLabel(label).fill(text);
  const last = page.getByLabel(entries[3][0]);
  await last.fill('Too short.');
  await page.getByText('(min 60)').waitFor();
  expect(await button(page, /^Continue/, false).isDisabled()).toBe(true);
  await last.fill('x'.repeat(250));
  expect((await last.inputValue()).length).toBe(200);
  await last.fill(entries[3][1]);
  expect(await button(page, /^Continue/, false).isDisabled()).toBe(false);
  await shot(page, `onboarding-09-photos-${tag}`);
  await next(page, "Anything else you'd like to say?");
}

async function bioAndPreview(page: Page, tag: string) {
  const bio = page.getByLabel(/^Bio/);
  await bio.fill('Weekday: maps and spreadsheets. Weekend: sea swims and sourdough.');
  await page.getByText('Weekday: maps and spreadsheets. Weekend: sea swims and sourdough.', { exact: true }).last().waitFor();
  expect(await page.getByText('65/800').isVisible()).toBe(true);
  await shot(page, `onboarding-10-bio-${tag}`);
  await button(page, /^Preview your profile/, false).click();
  await heading(page, 'Looking good!').waitFor();
  expect(await page.getByText('Step 11 of 11').isVisible()).toBe(true);
  expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  await page.getByText('+2 more', { exact: true }).waitFor();
  await page.getByText('+1', { exact: true }).waitFor();
  expect(await page.getByRole('heading', { level: 2, name: /Robin Fairweather, \d+/ }).isVisible()).toBe(true);
  for (const text of Object.values(PROMPTS)) expect(await page.getByText(text).isVisible()).toBe(true);
  await shot(page, `onboarding-11-preview-${tag}`);
}

async function finish(page: Page) {
  await button(page, /I Fancy it/, false).click();
  await page.getByText('Welcome to Fancy! ✨', { exact: true }).waitFor();
  await page.getByText("Your profile is ready. Let's find your perfect mixers!", { exact: true }).waitFor();
  await page.waitForURL('**/home');
  await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Robin/ }).waitFor({ timeout: 15_000 });
  // Home opens at its top, not as far down as the preview step was scrolled.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
}

/** Every /api call that is not a read, and every /api answer 4xx/5xx, while the page is open. */
function recordApiWrites(page: Page) {
  const calls: string[] = [];
  const refused: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/') && !['GET', 'HEAD'].includes(req.method())) calls.push(`${req.method()} ${url.pathname}`);
  });
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/api/') && res.status() >= 400) refused.push(`${res.status()} ${url.pathname}`);
  });
  return { calls, refused };
}

async function profileRow(id: string) {
  const [row] = await e2e.db.select().from(profiles).where(eq(profiles.id, id));
  return row;
}

/** All eleven steps of the /test-onboarding preview, ending with "I Fancy it". */
async function walkPreview(page: Page, tag: string) {
  await heading(page, 'Hey there – ready to create your profile?').waitFor();
  await button(page, "let's go →").click();
  await heading(page, 'Who are we talking to?').waitFor();
  // Nothing of a signed-in member's saved profile is read into the preview.
  expect(await page.getByLabel('Full Name').inputValue()).toBe('');
  await page.getByLabel('Full Name').fill('Sam Sampler');
  await next(page, "When's your birthday?");
  await page.getByLabel('Year', { exact: true }).selectOption('1994');
  await page.getByLabel('Month', { exact: true }).selectOption({ label: 'June' });
  await page.getByLabel('Day', { exact: true }).selectOption('3');
  await next(page, 'How do you identify?');
  await button(page, 'Woman').click();
  await next(page, "What's your sexual orientation?");
  await button(page, 'Bisexual').click();
  await next(page, 'What are you looking for?');
  await button(page, /^Friends/, false).click();
  await next(page, 'What are you into?');
  await pickInterests(page, ['Pottery', 'Coffee']);
  await button(page, 'Other').click();
  await page.getByLabel('Your suggestions').fill('Kite surfing');
  await page.getByRole('button', { name: 'Send suggestions' }).click();
  await page.getByText('Suggestions are not sent from the preview.', { exact: true }).waitFor();
  await next(page, 'Where are you mostly based?');
  const combo = page.getByRole('combobox', { name: 'Search for your city' });
  await combo.fill('brist');
  await combo.press('Enter');
  await page.getByText('Selected: Bristol').waitFor();
  await next(page, 'Add a little sparkle');
  await page.getByLabel('Profile picture file').setInputFiles(await image(portrait('#ad1457', ''), 'me.jpg'));
  await page.getByRole('img', { name: 'You, as others will see you' }).waitFor();
  await page.getByLabel('Other photo files').setInputFiles([await image(portrait('#7e57c2', 'Hike'), 'hike.jpg')]);
  await page.getByRole('img', { name: 'Upload 1 of 1' }).waitFor();
  // The picker says which formats work, iPhone photos included, and its file dialogs offer .heic files.
  await page.getByText('JPEG, PNG, WebP, GIF, HEIC (iPhone) or AVIF, up to 5 MB each.').waitFor();
  expect(await page.getByLabel('Profile picture file').getAttribute('accept')).toBe('image/*,.heic,.heif');
  for (const [label, text] of Object.entries(PROMPTS)) await page.getByLabel(label).fill(text);
  await shot(page, `onboarding-test-photos-${tag}`);
  await next(page, "Anything else you'd like to say?");
  await page.getByLabel(/^Bio/).fill('Trying Fancy out before signing up.');
  await button(page, /^Preview your profile/, false).click();
  await heading(page, 'Looking good!').waitFor();
  expect(await page.getByRole('heading', { level: 2, name: /Sam Sampler, \d+/ }).isVisible()).toBe(true);
  await shot(page, `onboarding-test-preview-${tag}`);
  await button(page, /I Fancy it/, false).click();
  await page.getByText('That was a preview', { exact: true }).waitFor();
}

describe('onboarding wizard', () => {
  it('takes a fresh verified member through all eleven steps with real uploads to /home (desktop)', async () => {
    const { email } = await e2e.createMember('Robin F');
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    expect(new URL(page.url()).pathname).toBe('/home');
    await throughLookingFor(page, 'desktop');

    expect(await page.getByText('Step 7 of 11').isVisible()).toBe(true);
    await page.getByLabel('Search interests').fill('pot');
    await pickInterests(page, ['Pottery']);
    await page.getByLabel('Search interests').fill('');
    await button(page, 'Food & Cooking').click();
    await pickInterests(page, ['Sourdough', 'Coffee']);
    expect(await page.getByRole('heading', { name: 'Entertainment' }).count()).toBe(0);
    await button(page, 'All').click();
    await pickInterests(page, ['Board games', 'Live music', 'Karaoke', 'Painting', 'Poetry']);
    await page.getByText('8/15').waitFor();
    await checkA11y(page);
    await shot(page, 'onboarding-07-interests-desktop');
    await next(page, 'Where are you mostly based?');

    expect(await button(page, /^Skip for now/, false).isVisible()).toBe(true);
    await page.getByText('We only store your city, never your precise location.').waitFor();
    const combo = page.getByRole('combobox', { name: 'Search for your city' });
    await combo.fill('WALES');
    const options = page.getByRole('option');
    expect(await options.count()).toBeGreaterThan(2);
    expect(await combo.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: 'test-results/screenshots/onboarding-08-location-search-desktop.png' });
    await combo.fill('brist');
    await combo.press('Enter');
    await page.getByText('Selected: Bristol').waitFor();
    expect(await button(page, /^Continue/, false).isVisible()).toBe(true);
    await checkA11y(page);
    await shot(page, 'onboarding-08-location-desktop');
    await next(page, 'Add a little sparkle');

    await photosStep(page, 'desktop');
    await bioAndPreview(page, 'desktop');
    await checkA11y(page);
    await finish(page);

    const profile = (await (await page.request.get('/api/profile')).json()).profile;
    expect(profile).toMatchObject({
      fullName: 'Robin Fairweather',
      pronouns: 'they/them',
      genderIdentities: ['Non-binary'],
      sexualOrientations: ['Queer', 'Pansexual', 'Bisexual'],
      lookingFor: ['Dating', 'Friends'],
      cityRegion: 'Bristol',
      countryCode: 'GB',
      tz: 'Europe/London',
      locationSource: 'manual',
      onboardingCompleted: true,
      smallJoy: PROMPTS['A small joy that matters to me'],
    });
    expect(profile.interests).toHaveLength(8);
    expect(profile.photos).toHaveLength(4);
    // The stored profile picture is a re-encoded WebP with no EXIF (the upload carried GPS).
    const avatar = await page.request.get(profile.avatar.url);
    expect(avatar.status()).toBe(200);
    const meta = await sharp(await avatar.body()).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    // The account menu has the picture.
    const session = (await (await page.request.get('/api/auth/session')).json()).profile;
    expect(session.avatarUrl).toMatch(/^\/api\/files\//);
    expect(await page.evaluate(() => localStorage.getItem('onboarding_deferred'))).toBeNull();
    await context.close();
  }, 240_000);

  it('at 375 px: under-18 blocked, 16th interest refused, suggestions sent, reload resumes, save and complete later resumes', async () => {
    const { email } = await e2e.createMember('Robin M');
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    await e2e.login(page, email);
    await throughLookingFor(page, '375', { tryUnderAge: true });

    // Interests: 15 at most, the 16th shows the toast and the notice.
    const fifteen = [
      'Painting',
      'Pottery',
      'Photography',
      'Board games',
      'Chess',
      'Karaoke',
      'Theatre',
      'Baking',
      'Coffee',
      'Brunch',
      'Cocktails',
      'Sourdough',
      'Cheese',
      'Jazz',
      'Podcasts',
    ];
    await pickInterests(page, fifteen.slice(0, 3));
    // Reload mid-wizard: same step, everything kept.
    await page.waitForTimeout(1300);
    await page.reload();
    await heading(page, 'What are you into?').waitFor();
    await page.getByText('3/15').waitFor();
    expect(await page.getByRole('button', { name: 'Pottery', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await pickInterests(page, fifteen.slice(3));
    await page.getByText('15/15').waitFor();
    await page.getByText("You've reached the maximum of 15 interests! Remove some to select others.").waitFor();
    // The other chips are aria-disabled but stay focusable, so a keyboard pick can explain itself.
    const anime = page.getByRole('button', { name: 'Anime', exact: true });
    expect(await anime.getAttribute('aria-disabled')).toBe('true');
    await anime.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Maximum reached', { exact: true }).waitFor();
    await page.getByText('You can select up to 15 interests.', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Anime', exact: true }).getAttribute('aria-pressed')).toBe('false');
    // What the member sees right now (sticky header and summary, the notice and the toast).
    await page.screenshot({ path: 'test-results/screenshots/onboarding-07-interests-max-375.png' });
    // Scrolled, the summary sticks right under the header: no strip of chips between them, no overlap.
    const [headerBottom, summaryTop] = await page.evaluate(async () => {
      window.scrollBy(0, 800);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return [
        document.querySelector('header')?.getBoundingClientRect().bottom ?? -1,
        document.querySelector('[data-testid="interests-summary"]')?.getBoundingClientRect().top ?? -2,
      ];
    });
    expect(Math.abs(summaryTop - headerBottom)).toBeLessThanOrEqual(1);

    // "+ Other": each non-empty line is one suggestion, mailed to support.
    await button(page, 'Other').click();
    await page.getByRole('dialog', { name: "Can't find your vibe? Tell us!" }).waitFor();
    await page.getByLabel('Your suggestions').fill('  Urban beekeeping \n\n Kite surfing\n');
    await page.screenshot({ path: 'test-results/screenshots/onboarding-07-suggest-375.png' });
    await button(page, 'Send suggestions').click();
    await page.getByText("Thanks for suggesting – we'll review it soon!", { exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    const mails = await e2e.mailsTo(SUPPORT);
    expect(mails.some((m) => m.text.includes('Urban beekeeping, Kite surfing'))).toBe(true);
    await button(page, 'Remove Podcasts').click();
    await button(page, 'Remove Jazz').click();
    await button(page, 'Remove Cheese').click();
    await button(page, 'Remove Sourdough').click();
    await button(page, 'Remove Cocktails').click();
    await button(page, 'Remove Brunch').click();
    await button(page, 'Remove Coffee').click();
    await page.getByText('8/15').waitFor();
    // A suggestion that is already listed is not sent: it is picked instead.
    await button(page, 'Other').click();
    await page.getByLabel('Your suggestions').fill('hiking\nTea ceremonies');
    await page.getByText('“Hiking” is already in the list.', { exact: true }).waitFor();
    expect(await button(page, 'Send suggestions').isDisabled()).toBe(true);
    await page.screenshot({ path: 'test-results/screenshots/onboarding-07-suggest-listed-375.png' });
    await button(page, 'Pick it instead').click();
    expect(await page.getByLabel('Your suggestions').inputValue()).toBe('Tea ceremonies');
    await page.keyboard.press('Escape');
    await page.getByText('9/15').waitFor();
    await button(page, 'Remove Hiking').click();
    await page.getByText('8/15').waitFor();
    await shot(page, 'onboarding-07-interests-375');
    await next(page, 'Where are you mostly based?');

    // City picker: keyboard, free text, Escape clears.
    const combo = page.getByRole('combobox', { name: 'Search for your city' });
    await combo.fill('cardi');
    await combo.press('End');
    await combo.press('Enter');
    const other = page.getByLabel('Enter your city');
    await other.waitFor();
    // What was typed in the search carries over into the free text.
    expect(await other.inputValue()).toBe('cardi');
    await other.fill('Tobermory');
    await other.press('Escape');
    await combo.waitFor();
    expect(await page.getByText(/^Selected:/).count()).toBe(0);
    // Back in the search, Enter picks the first city again, not "Other".
    await combo.press('Enter');
    await page.getByText('Selected: Cardiff').waitFor();
    await combo.fill('e');
    await page.getByRole('option', { name: 'Other (specify your city)' }).click();
    await page.getByLabel('Enter your city').fill('Tobermory');
    await page.getByLabel('Enter your city').press('Enter');
    await page.getByText('Selected: Tobermory').waitFor();
    await shot(page, 'onboarding-08-location-375');

    // Save and complete later → /home; the gate lets the member through until they finish.
    await button(page, 'Save and complete later').click();
    await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Robin/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('onboarding_deferred'))).toBe('true');
    const saved = (await (await page.request.get('/api/profile')).json()).profile;
    expect(saved).toMatchObject({ fullName: 'Robin Fairweather', cityRegion: 'Tobermory', onboardingCompleted: false });
    expect(saved.onboardingStep).toBe(7);
    await shot(page, 'onboarding-deferred-home-375');
    await button(page, 'Continue setting up').click();
    await heading(page, 'Where are you mostly based?').waitFor();
    // A stored city not in the list opens in free-text mode.
    expect(await page.getByLabel('Enter your city').inputValue()).toBe('Tobermory');
    await next(page, 'Add a little sparkle');

    await photosStep(page, '375');
    await bioAndPreview(page, '375');
    await finish(page);
    const done = (await (await page.request.get('/api/profile')).json()).profile;
    expect(done).toMatchObject({ onboardingCompleted: true, cityRegion: 'Tobermory', locationSource: 'manual' });
    await context.close();
  }, 240_000);

  it('/test-onboarding: a signed-out visitor walks the whole wizard; nothing it calls writes, nothing is saved', async () => {
    const { context, page } = await e2e.newPage({ width: 375, height: 812 });
    const writes = recordApiWrites(page);
    await page.goto('/test-onboarding');
    // No account needed (spec §2: unguarded, in the anonymous pages of §6): the wizard itself, not a log-in prompt.
    await page.getByText('Preview mode — nothing you enter here is saved.').waitFor();
    expect(await page.getByRole('heading', { name: 'Please log in to continue.' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/auth/register');
    expect(await button(page, 'Log out').count()).toBe(0);
    await walkPreview(page, 'signed-out-375');
    expect(new URL(page.url()).pathname).toBe('/test-onboarding');
    expect(writes.calls).toEqual([]);
    expect(writes.refused).toEqual([]);
    await context.close();
  }, 180_000);

  it('/test-onboarding signed in: the same preview, and the member’s profile is neither read into it nor written', async () => {
    const { email } = await e2e.createMember('Preview Person');
    const [{ id }] = await e2e.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    const { context, page } = await e2e.newPage();
    await e2e.login(page, email);
    const before = await profileRow(id);
    const writes = recordApiWrites(page);
    await page.goto('/test-onboarding');
    await page.getByText('Preview mode — nothing you enter here is saved.').waitFor();
    await walkPreview(page, 'signed-in-desktop');
    await page.waitForTimeout(1500); // longer than the autosave delay
    expect(writes.calls).toEqual([]);
    expect(await profileRow(id)).toEqual(before);
    await context.close();
  }, 180_000);
});
