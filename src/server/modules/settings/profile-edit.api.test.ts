import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { png } from '../../../../tests/fixtures/images';
import { PROFILE_EDIT_MESSAGES } from '../../../shared/schemas/profile-edit';
import { PROFILE_MESSAGES } from '../../../shared/schemas/profile';
import { profiles, user } from '../../db/schema';
import { completeProfile } from '../../../../tests/helpers/profile-fixtures';

const t = setupTestApp();

const edit = (cookie: string, payload: Record<string, unknown>) => t.request({ method: 'PATCH', url: '/api/me/profile', cookie, payload });
const row = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0];

async function upload(cookie: string, url: string, colors: string[]) {
  const boundary = '----fancy-profile';
  const parts: Buffer[] = [];
  for (const [i, color] of colors.entries()) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p${i}.png"\r\nContent-Type: image/png\r\n\r\n`),
      await png(40, 40, color),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.request({
    method: 'POST',
    url,
    cookie,
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function onboarded(name: string) {
  const m = await t.member(name);
  await completeProfile(t.database.db, m.id);
  return m;
}

describe('PATCH /api/me/profile', () => {
  it('needs a signed-in, verified member', async () => {
    expect((await t.request({ method: 'PATCH', url: '/api/me/profile', payload: { bio: 'x' } })).statusCode).toBe(401);
    const unverified = await t.member('Una Verified', { verified: false });
    expect((await edit(unverified.cookie, { bio: 'x' })).statusCode).toBe(403);
  });

  it('saves any section by the wizard rules and returns the profile', async () => {
    const m = await onboarded('Ed Itor');
    const prompt = 'Cold sea swims at dawn, then a bacon roll and a flask of builder’s tea on the harbour wall.';
    const res = await edit(m.cookie, {
      fullName: '  Eddie Itor ',
      pronouns: 'he/him',
      bio: '  Tea, trains and terrible puns.  ',
      genderIdentities: ['Man'],
      sexualOrientations: ['Bisexual'],
      lookingFor: ['Friends', 'Casual'],
      interests: ['Hiking', 'Board games'],
      cityRegion: 'Cardiff',
      smallJoy: prompt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profile).toMatchObject({
      fullName: 'Eddie Itor',
      pronouns: 'he/him',
      bio: 'Tea, trains and terrible puns.',
      genderIdentities: ['Man'],
      sexualOrientations: ['Bisexual'],
      lookingFor: ['Friends', 'Casual'],
      interests: ['Hiking', 'Board games'],
      cityRegion: 'Cardiff',
      smallJoy: prompt,
      onboardingCompleted: true,
    });
    expect(await row(m.id)).toMatchObject({ countryCode: 'GB', tz: 'Europe/London', locationSource: 'manual' });
    // Empty optional text becomes null; the city can be removed.
    const cleared = await edit(m.cookie, { pronouns: '', bio: '   ', cityRegion: '' });
    expect(cleared.json().profile).toMatchObject({ pronouns: null, bio: null, cityRegion: null });
  });

  it('rejects a rule-breaking field with its spec message and saves nothing of that request', async () => {
    const m = await onboarded('Rae Rules');
    const before = await row(m.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ fullName: '' }, 'fullName', 'Please enter your name'],
      [{ fullName: 'x'.repeat(31) }, 'fullName', 'Name is too long'],
      [{ smallJoy: 'Too short.' }, 'smallJoy', PROFILE_MESSAGES.promptTooShort],
      [{ sharedExperience: 'y'.repeat(201) }, 'sharedExperience', PROFILE_MESSAGES.promptTooLong],
      [{ bio: 'z'.repeat(801) }, 'bio', PROFILE_MESSAGES.bioTooLong],
      [{ lookingFor: [] }, 'lookingFor', PROFILE_MESSAGES.lookingForRequired],
      [
        { interests: Array.from({ length: 16 }, (_, i) => `Interest ${i}`) },
        'interests',
        'Maximum reached: You can select up to 15 interests.',
      ],
      [{ interests: [] }, 'interests', PROFILE_MESSAGES.interestsRequired],
      [{ genderIdentities: [] }, 'genderIdentities', PROFILE_MESSAGES.genderRequired],
    ];
    for (const [payload, field, message] of cases) {
      const res = await edit(m.cookie, { bio: 'A new bio that must not be saved.', ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.fields[field]).toBe(message);
    }
    const unknown = await edit(m.cookie, { interests: ['Hiking', 'Competitive yodelling'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.interests).toBe(PROFILE_MESSAGES.interestUnknown);
    const after = await row(m.id);
    expect(after.bio).toBe(before.bio);
    expect(after.interests).toEqual(before.interests);
  });

  it('field-level authorization: no role, flags, id, date of birth, photos or another member', async () => {
    const m = await onboarded('Mo Mischief');
    const other = await onboarded('Ola Other');
    const attempts: [Record<string, unknown>, string][] = [
      [{ role: 'admin' }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ onboardingCompleted: false }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ onboarding_completed: false }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ id: other.id, bio: 'hijack' }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ userId: other.id, bio: 'hijack' }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ shareCityRegion: false }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ preferences: { notifyMatch: false } }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ avatarUrl: `${other.id}/avatar.webp` }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ photos: [`${other.id}/photos/abc.webp`] }, PROFILE_EDIT_MESSAGES.notEditable],
      [{ dob: '2000-01-01' }, PROFILE_EDIT_MESSAGES.dobBySupport],
      [{ step: 0 }, PROFILE_EDIT_MESSAGES.notEditable],
    ];
    for (const [payload, message] of attempts) {
      const res = await edit(m.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    // The onboarding draft endpoint refuses the same account fields.
    for (const payload of [{ role: 'admin' }, { onboardingCompleted: false }, { id: other.id }, { userId: other.id }]) {
      const res = await t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload });
      expect(res.statusCode, `draft ${JSON.stringify(payload)}`).toBe(400);
    }
    const [account] = await t.database.db.select().from(user).where(eq(user.id, m.id));
    expect(account.role).toBe('user');
    expect(await row(m.id)).toMatchObject({ onboardingCompleted: true, dob: '1994-05-17', shareCityRegion: true });
    expect((await row(other.id)).bio).toBeNull();
  });
});

describe('photos: reorder and main photo', () => {
  it('reorders only a permutation of the current photos', async () => {
    const m = await onboarded('Pho Tos');
    const { photos } = await upload(m.cookie, '/api/profile/photos', ['#ff0000', '#00ff00', '#0000ff']);
    const keys = (photos as { key: string }[]).map((p) => p.key);
    const reversed = [...keys].reverse();
    const res = await t.request({ method: 'PUT', url: '/api/me/profile/photos', cookie: m.cookie, payload: { order: reversed } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profile.photos.map((p: { key: string }) => p.key)).toEqual(reversed);
    expect((await row(m.id)).photos).toEqual(reversed);

    const other = await onboarded('Oth Er');
    const { photos: theirs } = await upload(other.cookie, '/api/profile/photos', ['#333333']);
    for (const order of [keys.slice(0, 2), [...keys, theirs[0].key], [keys[0], keys[0], keys[1]], [keys[0], keys[1], theirs[0].key]]) {
      const bad = await t.request({ method: 'PUT', url: '/api/me/profile/photos', cookie: m.cookie, payload: { order } });
      expect(bad.statusCode, JSON.stringify(order)).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode).toBeLessThan(500);
    }
    expect((await row(m.id)).photos).toEqual(reversed);
    expect((await row(other.id)).photos).toEqual([theirs[0].key]);
  });

  it('makes a photo the profile picture; the old picture takes its place', async () => {
    const m = await onboarded('Mai N');
    await upload(m.cookie, '/api/profile/avatar', ['#111111']);
    const { photos } = await upload(m.cookie, '/api/profile/photos', ['#ff0000', '#00ff00']);
    const [first, second] = (photos as { key: string }[]).map((p) => p.key);
    const avatarBefore = (await row(m.id)).avatarUrl as string;
    const secondUrl = (photos as { url: string }[])[1].url;

    const res = await t.request({ method: 'POST', url: '/api/me/profile/photos/main', cookie: m.cookie, payload: { key: second } });
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json().profile;
    // Keys are never overwritten: the chosen photo's key becomes the picture, the old picture's key takes its place.
    expect(profile.avatar.key).toBe(second);
    expect(profile.photos.map((p: { key: string }) => p.key)).toEqual([first, avatarBefore]);
    expect((await t.request({ method: 'GET', url: secondUrl, cookie: m.cookie })).statusCode).toBe(200);
    const swapped = avatarBefore;

    // Someone else's photo, or one that is gone: refused, nothing changes.
    const other = await onboarded('Nosy Parker');
    const stranger = await t.request({ method: 'POST', url: '/api/me/profile/photos/main', cookie: other.cookie, payload: { key: first } });
    expect(stranger.statusCode).toBe(404);
    const gone = await t.request({
      method: 'POST',
      url: '/api/me/profile/photos/main',
      cookie: m.cookie,
      payload: { key: `${m.id}/photos/gone.webp` },
    });
    expect(gone.statusCode).toBe(404);
    expect((await row(m.id)).photos).toEqual([first, swapped]);
  });

  it('without a profile picture, the chosen photo simply moves up', async () => {
    const m = await onboarded('Noa Vatar');
    const { photos } = await upload(m.cookie, '/api/profile/photos', ['#abcdef']);
    const res = await t.request({ method: 'POST', url: '/api/me/profile/photos/main', cookie: m.cookie, payload: { key: photos[0].key } });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile.photos).toEqual([]);
    expect(res.json().profile.avatar.key).toBe(photos[0].key);
  });
});
