import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWithGps, multipartBody, noiseJpeg, png, SVG_IMAGE } from '../../../../tests/fixtures/images';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { PROFILE_MESSAGES } from '../../../shared/schemas/profile';
import { interestSuggestions, profiles, user } from '../../db/schema';

const t = setupTestApp();

const PROMPT = 'I love slow Sunday mornings with fresh coffee, a crossword and nowhere to be at all.';
const adultDob = () => `${new Date().getFullYear() - 30}-06-15`;

const completeBody = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Lovelace',
  pronouns: 'she/her',
  bio: 'Numbers, poetry and long walks.',
  dob: adultDob(),
  genderIdentities: ['Woman'],
  sexualOrientations: ['Bisexual'],
  lookingFor: ['Dating', 'Friends'],
  interests: ['Pottery', 'Board games'],
  cityRegion: 'Bristol',
  smallJoy: PROMPT,
  loveToTalkAbout: PROMPT,
  valueInRelationships: PROMPT,
  sharedExperience: PROMPT,
  ...overrides,
});

const draft = (cookie: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: '/api/profile/draft', cookie, payload });
const complete = (cookie: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/profile/complete', cookie, payload });
const upload = (cookie: string | undefined, url: string, files: Parameters<typeof multipartBody>[0]) => {
  const { payload, headers } = multipartBody(files);
  return t.request({ method: 'POST', url, cookie, payload, headers });
};
const rowOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0];
/** Reads a stored file through its signed URL, as a signed-in member would. */
const fetchSigned = (cookie: string | undefined, url: string) => t.request({ method: 'GET', url, cookie });

describe('profile row and read', () => {
  it('creates the profile row at sign-up, so the onboarding gate applies', async () => {
    const m = await t.member('Grace Hopper');
    const row = await rowOf(m.id);
    expect(row).toMatchObject({ fullName: 'Grace Hopper', onboardingCompleted: false, onboardingStep: 0 });
    const res = await t.request({ method: 'GET', url: '/api/profile', cookie: m.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({ id: m.id, fullName: 'Grace Hopper', avatar: null, photos: [], onboardingCompleted: false });
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: m.cookie });
    expect(session.json().profile).toEqual({ fullName: 'Grace Hopper', onboardingCompleted: false, avatarUrl: null });
  });

  it('refuses anonymous (401) and unverified (403) members on every profile route', async () => {
    const unverified = await t.member('Unverified', { verified: false });
    const routes = [
      { method: 'GET' as const, url: '/api/profile' },
      { method: 'PATCH' as const, url: '/api/profile/draft', payload: { pronouns: 'they/them' } },
      { method: 'POST' as const, url: '/api/profile/complete', payload: completeBody() },
      { method: 'POST' as const, url: '/api/profile/location', payload: { cityRegion: 'Leeds' } },
      { method: 'POST' as const, url: '/api/profile/location/skip' },
      { method: 'POST' as const, url: '/api/interest-suggestions', payload: { interests: ['Kite surfing'] } },
      { method: 'DELETE' as const, url: '/api/profile/photos/abc' },
    ];
    for (const r of routes) {
      const anon = await t.request(r);
      expect(anon.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(anon.json().error.message).toBe('Please log in to continue.');
      const unv = await t.request({ ...r, cookie: unverified.cookie });
      expect(unv.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
    // Admins are members too: their own profile only.
    const admin = await t.member('Admin Person', { admin: true });
    const own = await t.request({ method: 'GET', url: '/api/profile', cookie: admin.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.json().profile.id).toBe(admin.id);
    const jpeg = await jpegWithGps(32, 32);
    expect((await upload(undefined, '/api/profile/avatar', [{ name: 'me.jpg', type: 'image/jpeg', data: jpeg }])).statusCode).toBe(401);
    expect((await upload(unverified.cookie, '/api/profile/photos', [{ name: 'me.jpg', type: 'image/jpeg', data: jpeg }])).statusCode).toBe(
      403,
    );
  });
});

describe('draft update', () => {
  it('saves any valid subset, turns an empty city into null and records the furthest step', async () => {
    const m = await t.member('Drafty');
    let res = await draft(m.cookie, {
      fullName: '  Dee  ',
      pronouns: 'they/them',
      cityRegion: 'Leeds',
      step: 3,
      smallJoy: 'short for now',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({
      fullName: 'Dee',
      pronouns: 'they/them',
      cityRegion: 'Leeds',
      onboardingStep: 3,
      smallJoy: 'short for now',
    });
    res = await draft(m.cookie, { cityRegion: '', step: 1, interests: ['Pottery'], dob: adultDob() });
    expect(res.statusCode).toBe(200);
    const row = await rowOf(m.id);
    expect(row.cityRegion).toBeNull();
    expect(row.onboardingStep).toBe(3);
    expect(row.interests).toEqual(['Pottery']);
    expect(row.dob).toBe(adultDob());
    expect(row.onboardingCompleted).toBe(false);
  });

  it('rejects each invalid field with the spec message and changes nothing', async () => {
    const m = await t.member('Strict Draft');
    await draft(m.cookie, { fullName: 'Kept', bio: 'kept bio' });
    const before = await rowOf(m.id);
    const year = new Date().getFullYear();
    const cases: [Record<string, unknown>, string][] = [
      [{ fullName: '   ' }, 'Please enter your name'],
      [{ fullName: 'x'.repeat(31) }, 'Name is too long'],
      [{ pronouns: 'p'.repeat(41) }, PROFILE_MESSAGES.pronounsTooLong],
      [{ bio: 'b'.repeat(801) }, "That's a bit long — keep it under 800 characters."],
      [{ smallJoy: 's'.repeat(201) }, 'Keep it under 200 characters'],
      [{ dob: `${year - 17}-01-01` }, 'You need to be at least 18.'],
      [{ dob: '2001-02-29' }, 'Please select your date of birth.'],
      [{ dob: 'yesterday' }, 'Please select your date of birth.'],
      [
        { sexualOrientations: ['Straight', 'Gay', 'Lesbian', 'Bisexual', 'Pansexual', 'Queer'] },
        'You can select up to 5 options. Remove one to add another.',
      ],
      [{ lookingFor: ['Dating', 'Friends', 'Casual', 'Dating'] }, PROFILE_MESSAGES.lookingForTooMany],
      [{ lookingFor: ['Marriage'] }, 'Please pick at least one option'],
      [{ interests: Array.from({ length: 16 }, (_, i) => `Interest ${i}`) }, 'Maximum reached: You can select up to 15 interests.'],
      [{ interests: ['Competitive napping'] }, PROFILE_MESSAGES.interestUnknown],
      [{ genderIdentities: ['Wizard'] }, PROFILE_MESSAGES.optionUnknown],
      [{ fullName: 'Fine', pronouns: 'p'.repeat(41) }, PROFILE_MESSAGES.pronounsTooLong],
      [{ onboardingCompleted: true }, ''],
    ];
    for (const [payload, message] of cases) {
      const res = await draft(m.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(res.json().error.message, JSON.stringify(payload)).toBe(message);
    }
    const after = await rowOf(m.id);
    expect(after).toEqual(before);
  });

  it('accepts a leap day in a leap year only', async () => {
    const m = await t.member('Leap');
    expect((await draft(m.cookie, { dob: '2000-02-29' })).statusCode).toBe(200);
    const bad = await draft(m.cookie, { dob: '1900-02-29' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Please select your date of birth.');
  });
});

describe('completion (onboarding_upsert_profile)', () => {
  it('rejects each missing or invalid field with its message and changes nothing', async () => {
    const m = await t.member('Almost There');
    const cases: [Record<string, unknown>, string][] = [
      [{ fullName: '' }, 'Please enter your name'],
      [{ dob: `${new Date().getFullYear() - 10}-01-01` }, 'You need to be at least 18.'],
      [{ dob: undefined }, 'Please select your date of birth.'],
      [{ genderIdentities: [] }, PROFILE_MESSAGES.genderRequired],
      [{ lookingFor: [] }, 'Please pick at least one option'],
      [{ interests: [] }, PROFILE_MESSAGES.interestsRequired],
      [{ interests: Array.from({ length: 16 }, (_, i) => `I${i}`) }, 'Maximum reached: You can select up to 15 interests.'],
      [{ smallJoy: 'too short' }, 'Please write at least 60 characters'],
      [{ sharedExperience: 'x'.repeat(201) }, 'Keep it under 200 characters'],
      [{ loveToTalkAbout: undefined }, 'Please write at least 60 characters'],
      [{ bio: 'b'.repeat(801) }, "That's a bit long — keep it under 800 characters."],
      [{ photos: Array.from({ length: 10 }, (_, i) => `${m.id}/photos/p${i}.webp`) }, PROFILE_MESSAGES.photosTooMany],
      [{ interests: ['Pottery', 'Unheard-of hobby'] }, PROFILE_MESSAGES.interestUnknown],
    ];
    for (const [override, message] of cases) {
      const res = await complete(m.cookie, completeBody(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().error.message, JSON.stringify(override)).toBe(message);
    }
    const row = await rowOf(m.id);
    expect(row.onboardingCompleted).toBe(false);
    expect(row.interests).toEqual([]);
  });

  it('saves the whole profile and marks onboarding complete on the profile and the account', async () => {
    const m = await t.member('Ada');
    const res = await complete(m.cookie, completeBody());
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({
      fullName: 'Ada Lovelace',
      onboardingCompleted: true,
      interests: ['Pottery', 'Board games'],
      lookingFor: ['Dating', 'Friends'],
      cityRegion: 'Bristol',
      smallJoy: PROMPT,
    });
    const [account] = await t.database.db.select({ done: user.onboardingComplete }).from(user).where(eq(user.id, m.id));
    expect(account.done).toBe(true);
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: m.cookie });
    expect(session.json().profile.onboardingCompleted).toBe(true);
  });
});

describe('location (set_location)', () => {
  it('stores the city with GB, Europe/London and source manual; a skip records unknown', async () => {
    const m = await t.member('Placed');
    expect(
      (await t.request({ method: 'POST', url: '/api/profile/location', cookie: m.cookie, payload: { cityRegion: ' Cardiff ' } }))
        .statusCode,
    ).toBe(200);
    let row = await rowOf(m.id);
    expect(row).toMatchObject({ cityRegion: 'Cardiff', countryCode: 'GB', tz: 'Europe/London', locationSource: 'manual' });
    expect(row.locationLastConfirmedAt).toBeInstanceOf(Date);
    expect(Object.keys(row)).not.toContain('lat');
    const empty = await t.request({ method: 'POST', url: '/api/profile/location', cookie: m.cookie, payload: { cityRegion: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect((await t.request({ method: 'POST', url: '/api/profile/location/skip', cookie: m.cookie })).statusCode).toBe(200);
    row = await rowOf(m.id);
    expect(row).toMatchObject({ cityRegion: null, locationSource: 'unknown', countryCode: 'GB', tz: 'Europe/London' });
  });
});

describe('uploads', () => {
  it('re-encodes a JPEG with GPS EXIF to WebP without any metadata, plus a 400 px thumbnail, readable only through signed URLs', async () => {
    const m = await t.member('Photographer');
    const original = await jpegWithGps(3000, 2000);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(m.cookie, '/api/profile/avatar', [{ name: 'holiday.jpg', type: 'image/jpeg', data: original }]);
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json();
    expect(avatar.key).toMatch(new RegExp(`^${m.id}/photos/[A-Za-z0-9_-]+\\.webp$`));
    expect((await rowOf(m.id)).avatarUrl).toBe(avatar.key);

    const stored = await t.deps.storage.get(avatar.key);
    expect(stored).not.toBeNull();
    const meta = await sharp(stored!.data).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(2048);
    expect(stored!.data.includes(Buffer.from('FancyTestCam'))).toBe(false);
    expect(stored!.data.includes(Buffer.from('secret-owner'))).toBe(false);
    const thumb = await t.deps.storage.get(avatar.key.replace(/\.webp$/, '.thumb.webp'));
    const thumbMeta = await sharp(thumb!.data).metadata();
    expect([thumbMeta.width, thumbMeta.height]).toEqual([400, 400]);
    expect(thumbMeta.exif).toBeUndefined();

    const served = await fetchSigned(m.cookie, avatar.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await fetchSigned(undefined, avatar.url)).statusCode).toBe(401);
    const other = await t.member('Other Viewer');
    expect((await fetchSigned(other.cookie, avatar.url)).statusCode).toBe(200);
    expect((await fetchSigned(m.cookie, `/api/files/${avatar.key}`)).statusCode).toBe(403);

    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: m.cookie });
    expect(session.json().profile.avatarUrl).toMatch(
      new RegExp(`^/api/files/${m.id}/photos/[A-Za-z0-9_-]+\\.thumb\\.webp\\?exp=\\d+&sig=`),
    );
  });

  it('a replaced profile picture gets a new key: its old URLs stop working instead of showing the new picture', async () => {
    const m = await t.member('Reno Replace');
    const viewer = await t.member('Vic Viewer');
    const first = (
      await upload(m.cookie, '/api/profile/avatar', [{ name: 'a.jpg', type: 'image/jpeg', data: await jpegWithGps(300, 200) }])
    ).json().avatar;
    expect((await fetchSigned(viewer.cookie, first.url)).statusCode).toBe(200);
    const second = (
      await upload(m.cookie, '/api/profile/avatar', [{ name: 'b.jpg', type: 'image/jpeg', data: await jpegWithGps(200, 300) }])
    ).json().avatar;
    expect(second.key).not.toBe(first.key);
    for (const url of [first.url, first.thumbUrl]) expect((await fetchSigned(viewer.cookie, url)).statusCode, url).toBe(404);
    expect((await fetchSigned(viewer.cookie, second.url)).statusCode).toBe(200);
    // Removing the picture: its URLs stop working too.
    expect((await t.request({ method: 'DELETE', url: '/api/profile/avatar', cookie: m.cookie })).statusCode).toBe(200);
    expect((await fetchSigned(viewer.cookie, second.url)).statusCode).toBe(404);
  });

  it('refuses a file over 5 MB with 413 and the message naming the file', async () => {
    const m = await t.member('Big Files');
    const res = await upload(m.cookie, '/api/profile/photos', [
      { name: 'huge-photo.jpg', type: 'image/jpeg', data: noiseJpeg(5 * 1024 * 1024 + 10) },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('huge-photo.jpg: File is too large. Please use files under 5MB.');
    expect((await rowOf(m.id)).photos).toEqual([]);
    expect(await t.deps.storage.list(`${m.id}/`)).toEqual([]);
  });

  it('refuses a text file renamed .jpg, an SVG and an image over 40 megapixels', async () => {
    const m = await t.member('Sneaky');
    const text = await upload(m.cookie, '/api/profile/photos', [
      { name: 'notes.jpg', type: 'image/jpeg', data: Buffer.from('just some text pretending to be a photo\n'.repeat(20)) },
    ]);
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toMatch(/^notes\.jpg: /);
    const svg = await upload(m.cookie, '/api/profile/avatar', [{ name: 'logo.svg', type: 'image/svg+xml', data: SVG_IMAGE }]);
    expect(svg.statusCode).toBe(415);
    const svgAsPng = await upload(m.cookie, '/api/profile/avatar', [{ name: 'logo.png', type: 'image/png', data: SVG_IMAGE }]);
    expect(svgAsPng.statusCode).toBe(415);
    const giant = await upload(m.cookie, '/api/profile/photos', [{ name: 'panorama.png', type: 'image/png', data: await png(8000, 5001) }]);
    expect(giant.statusCode).toBe(400);
    expect(giant.json().error.message).toMatch(/^panorama\.png: .*40 megapixels/);
    const notMultipart = await t.request({ method: 'POST', url: '/api/profile/photos', cookie: m.cookie, payload: { file: 'x' } });
    expect(notMultipart.statusCode).toBe(415);
    expect(await t.deps.storage.list(`${m.id}/`)).toEqual([]);
    expect((await rowOf(m.id)).avatarUrl).toBeNull();
  });

  it('adds up to 6 photos (extras dropped), removes one, and keeps each member inside their own folder', async () => {
    const a = await t.member('Alice');
    const b = await t.member('Bob');
    const files = await Promise.all(['#e91e63', '#3f51b5', '#009688', '#ff9800'].map((c) => png(300, 300, c)));
    let res = await upload(
      a.cookie,
      '/api/profile/photos',
      files.map((data, i) => ({ name: `p${i}.png`, type: 'image/png', data })),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().photos).toHaveLength(4);
    res = await upload(
      a.cookie,
      '/api/profile/photos',
      files.map((data, i) => ({ name: `q${i}.png`, type: 'image/png', data })),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ added: 2, dropped: 2 });
    const photos: { key: string; url: string }[] = res.json().photos;
    expect(photos).toHaveLength(6);
    for (const p of photos) expect(p.key.startsWith(`${a.id}/photos/`)).toBe(true);
    const full = await upload(a.cookie, '/api/profile/photos', [{ name: 'one-more.png', type: 'image/png', data: files[0] }]);
    expect(full.statusCode).toBe(400);

    // Bob cannot delete Alice's photo: the id resolves inside his own folder only.
    const photoId = photos[0].key.split('/').pop()!.replace('.webp', '');
    const bobDelete = await t.request({ method: 'DELETE', url: `/api/profile/photos/${photoId}`, cookie: b.cookie });
    expect(bobDelete.statusCode).toBe(404);
    expect(await t.deps.storage.get(photos[0].key)).not.toBeNull();
    const traversal = await t.request({ method: 'DELETE', url: `/api/profile/photos/..%2F..%2F${a.id}%2Favatar`, cookie: b.cookie });
    expect(traversal.statusCode).toBe(400);
    // …nor claim her files in his profile.
    const claim = await draft(b.cookie, { photos: [photos[1].key] });
    expect(claim.statusCode).toBe(403);
    const claimAvatar = await complete(b.cookie, completeBody({ avatarUrl: `${a.id}/photos/abc.webp` }));
    expect(claimAvatar.statusCode).toBe(403);
    expect((await rowOf(b.id)).photos).toEqual([]);
    // Bob's uploads land in Bob's folder whatever the file is called.
    const bobUp = await upload(b.cookie, '/api/profile/photos', [
      { name: `../${a.id}/photos/evil.png`, type: 'image/png', data: files[1] },
    ]);
    expect(bobUp.statusCode).toBe(200);
    expect(bobUp.json().photos[0].key.startsWith(`${b.id}/photos/`)).toBe(true);
    expect((await t.deps.storage.list(`${a.id}/`)).filter((k) => !k.includes('.thumb.'))).toHaveLength(6);

    const removed = await t.request({ method: 'DELETE', url: `/api/profile/photos/${photoId}`, cookie: a.cookie });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().photos).toHaveLength(5);
    expect(await t.deps.storage.get(photos[0].key)).toBeNull();
    expect((await rowOf(a.id)).photos).not.toContain(photos[0].key);

    // Another member reads only their own profile.
    const bobView = await t.request({ method: 'GET', url: '/api/profile', cookie: b.cookie });
    expect(bobView.json().profile.id).toBe(b.id);
    expect(bobView.json().profile.photos).toHaveLength(1);
  });
});

describe('interest suggestions', () => {
  it('stores one row per line and mails support the list comma-joined', async () => {
    const m = await t.member('Curious Cat');
    const res = await t.request({
      method: 'POST',
      url: '/api/interest-suggestions',
      cookie: m.cookie,
      payload: { interests: ['Kite surfing', 'Urban beekeeping'] },
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.db.select().from(interestSuggestions).where(eq(interestSuggestions.userId, m.id));
    expect(rows.map((r) => r.submittedInterest).sort()).toEqual(['Kite surfing', 'Urban beekeeping']);
    expect(rows.every((r) => r.fullName === 'Curious Cat' && r.status === 'pending')).toBe(true);
    const [mail] = await t.mailsTo(t.deps.config.supportEmail);
    expect(mail.text).toContain('Kite surfing, Urban beekeeping');
    expect(mail.text).toContain(m.email);
  });

  it('an interest already listed is picked, not suggested: alone it is refused, among others left out', async () => {
    const m = await t.member('Listed Lou');
    const post = (interests: string[]) =>
      t.request({ method: 'POST', url: '/api/interest-suggestions', cookie: m.cookie, payload: { interests } });
    const refused = await post(['hiking', ' Photography ']);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(PROFILE_MESSAGES.suggestionListed);
    expect(await t.database.db.select().from(interestSuggestions).where(eq(interestSuggestions.userId, m.id))).toEqual([]);
    const res = await post(['Hiking', 'Kite surfing', 'kite  surfing']);
    expect(res.json()).toMatchObject({ ok: true, count: 1 });
    const rows = await t.database.db.select().from(interestSuggestions).where(eq(interestSuggestions.userId, m.id));
    expect(rows.map((r) => r.submittedInterest)).toEqual(['Kite surfing']);
  });

  it('validates 1-10 lines of 1-50 characters and rate-limits', async () => {
    const m = await t.member('Prolific');
    const post = (interests: unknown) =>
      t.request({ method: 'POST', url: '/api/interest-suggestions', cookie: m.cookie, payload: { interests } });
    expect((await post([])).json().error.message).toBe(PROFILE_MESSAGES.suggestionRequired);
    expect((await post(['x'.repeat(51)])).json().error.message).toBe(PROFILE_MESSAGES.suggestionTooLong);
    expect((await post(Array.from({ length: 11 }, (_, i) => `s${i}`))).json().error.message).toBe(PROFILE_MESSAGES.suggestionTooMany);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post([`Idea ${i}`])).statusCode);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});

describe('catalogue', () => {
  it('lists active options by sort order and interests by category then name', async () => {
    const genders = (await t.request({ method: 'GET', url: '/api/catalog/gender-options' })).json().options as {
      label: string;
      sortOrder: number;
    }[];
    expect(genders[0].label).toBe('Woman');
    expect(genders.map((g) => g.sortOrder)).toEqual([...genders.map((g) => g.sortOrder)].sort((x, y) => x - y));
    const interests = (await t.request({ method: 'GET', url: '/api/catalog/interests' })).json().interests as {
      name: string;
      category: string;
    }[];
    const keys = interests.map((i) => `${i.category}\u0000${i.name}`);
    expect(keys).toEqual([...keys].sort());
  });
});
