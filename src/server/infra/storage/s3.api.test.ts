import { readdirSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithGps, multipartBody, png } from '../../../../tests/fixtures/images';
import { startTestBucket, type TestBucket } from '../../../../tests/helpers/s3';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { ConfigError, loadConfig } from '../../config';

/**
 * Photos in an S3-compatible bucket (decision 019), end to end against a real S3 API
 * (s3rver on loopback): upload → view → replace → remove, export and account deletion.
 */
let bucket: TestBucket;
let t: TestApp;
beforeAll(async () => {
  bucket = await startTestBucket();
  t = await createTestApp(bucket.env);
});
afterAll(async () => {
  await t?.close();
  await bucket?.close();
});

const upload = (cookie: string, url: string, files: Parameters<typeof multipartBody>[0]) => {
  const { payload, headers } = multipartBody(files);
  return t.request({ method: 'POST', url, cookie, payload, headers });
};
const get = (cookie: string | undefined, url: string) => t.request({ method: 'GET', url, cookie });
const thumb = (key: string) => key.replace(/\.webp$/, '.thumb.webp');
const localUploads = () => {
  try {
    return readdirSync(path.join(t.deps.config.dataDir, 'uploads'));
  } catch {
    return [];
  }
};

describe('photos in S3-compatible storage', () => {
  it('stores a re-encoded picture without EXIF in the bucket, serves it only through signed URLs, and replacing it deletes the old objects', async () => {
    expect(t.deps.storage.kind).toBe('s3');
    const m = await t.member('Bucket Owner');
    const viewer = await t.member('Bucket Viewer');

    const first = await upload(m.cookie, '/api/profile/avatar', [
      { name: 'holiday.jpg', type: 'image/jpeg', data: await jpegWithGps(1200, 800) },
    ]);
    expect(first.statusCode).toBe(200);
    const a = first.json().avatar as { key: string; url: string; thumbUrl: string };
    expect(a.key).toMatch(new RegExp(`^${m.id}/photos/[A-Za-z0-9_-]+\\.webp$`));
    // In the bucket, not on the app's disk.
    expect(await bucket.keys(`${m.id}/`)).toEqual([a.key, thumb(a.key)].sort());
    expect(localUploads()).toEqual([]);
    const stored = await bucket.object(a.key);
    const meta = await sharp(stored!).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(stored!.includes(Buffer.from('FancyTestCam'))).toBe(false);

    // View: the signed route streams the object's bytes, to signed-in members only.
    const served = await get(viewer.cookie, a.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.rawPayload.equals(stored!)).toBe(true);
    expect((await get(viewer.cookie, a.thumbUrl)).rawPayload.equals((await bucket.object(thumb(a.key)))!)).toBe(true);
    expect((await get(undefined, a.url)).statusCode).toBe(401);
    expect((await get(viewer.cookie, `/api/files/${a.key}`)).statusCode).toBe(403);
    // Visibility still holds per request: a block hides the owner's photos at once.
    expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: m.cookie, payload: { userId: viewer.id } })).statusCode).toBe(
      201,
    );
    expect((await get(viewer.cookie, a.url)).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/blocks/${viewer.id}`, cookie: m.cookie })).statusCode).toBe(200);
    expect((await get(viewer.cookie, a.url)).statusCode).toBe(200);

    // Replace: a new key; the old objects leave the bucket and their URLs answer 404.
    const second = (await upload(m.cookie, '/api/profile/avatar', [{ name: 'b.png', type: 'image/png', data: await png(300, 400) }])).json()
      .avatar as { key: string; url: string };
    expect(second.key).not.toBe(a.key);
    expect(await bucket.keys(`${m.id}/`)).toEqual([second.key, thumb(second.key)].sort());
    expect((await get(viewer.cookie, a.url)).statusCode).toBe(404);
    expect((await get(viewer.cookie, second.url)).statusCode).toBe(200);

    // Remove: nothing of the picture is left.
    expect((await t.request({ method: 'DELETE', url: '/api/profile/avatar', cookie: m.cookie })).statusCode).toBe(200);
    expect(await bucket.keys(`${m.id}/`)).toEqual([]);
    expect((await get(viewer.cookie, second.url)).statusCode).toBe(404);
  });

  it('removes one extra photo from the bucket, exports every photo, and account deletion empties the member folder', async () => {
    const m = await t.member('Gallery Owner');
    const neighbour = await t.member('Neighbour');
    const mine = await upload(m.cookie, '/api/profile/photos', [
      { name: 'one.png', type: 'image/png', data: await png(500, 500, '#123456') },
      { name: 'two.png', type: 'image/png', data: await png(500, 500, '#654321') },
    ]);
    expect(mine.statusCode).toBe(200);
    const photos = mine.json().photos as { key: string; url: string }[];
    await upload(m.cookie, '/api/profile/avatar', [{ name: 'me.jpg', type: 'image/jpeg', data: await jpegWithGps(400, 400) }]);
    const theirs = (
      await upload(neighbour.cookie, '/api/profile/photos', [{ name: 'n.png', type: 'image/png', data: await png(200, 200) }])
    ).json().photos as { key: string }[];
    expect(await bucket.keys(`${m.id}/`)).toHaveLength(6);

    const id = photos[0].key.split('/').pop()!.replace('.webp', '');
    const removed = await t.request({ method: 'DELETE', url: `/api/profile/photos/${id}`, cookie: m.cookie });
    expect(removed.statusCode).toBe(200);
    expect(await bucket.object(photos[0].key)).toBeNull();
    expect(await bucket.object(thumb(photos[0].key))).toBeNull();
    expect(await bucket.keys(`${m.id}/`)).toHaveLength(4);

    // "Make main photo" swaps keys in the profile: both pictures stay in the bucket, under the same keys.
    const keysBefore = await bucket.keys(`${m.id}/`);
    const main = await t.request({ method: 'POST', url: '/api/me/profile/photos/main', cookie: m.cookie, payload: { key: photos[1].key } });
    expect(main.statusCode, main.body).toBe(200);
    expect(main.json().profile.avatar.key).toBe(photos[1].key);
    expect(await bucket.keys(`${m.id}/`)).toEqual(keysBefore);
    expect((await get(neighbour.cookie, main.json().profile.avatar.url)).statusCode).toBe(200);

    // The export lists every picture with a link that opens it from the bucket.
    const exported = await get(m.cookie, '/api/me/export');
    expect(exported.statusCode).toBe(200);
    const listed = exported.json().photos as { kind: string; url: string }[];
    expect(listed.map((p) => p.kind).sort()).toEqual(['photo', 'profile picture']);
    for (const p of listed) {
      const u = new URL(p.url);
      const res = await get(m.cookie, `${u.pathname}${u.search}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals((await bucket.object(u.pathname.slice('/api/files/'.length)))!)).toBe(true);
    }

    // Deleting the account deletes its objects, and nobody else's.
    expect((await t.request({ method: 'DELETE', url: '/api/me', cookie: m.cookie })).statusCode).toBe(200);
    expect(await bucket.keys(`${m.id}/`)).toEqual([]);
    expect(await bucket.keys(`${neighbour.id}/`)).toEqual([theirs[0].key, thumb(theirs[0].key)].sort());
  });

  it('answers 404 for a key the bucket does not have and reports the bucket reachable', async () => {
    const m = await t.member('Nobody Here');
    const url = t.deps.signer.url(`${m.id}/photos/missing.webp`);
    expect((await get(m.cookie, url)).statusCode).toBe(404);
    await expect(t.deps.storage.ping()).resolves.toBeUndefined();
  });
});

describe('when the bucket is down', () => {
  it('answers 503 with a message on upload and view, and saves nothing in the profile', async () => {
    const dead = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = await createTestApp({ ...bucket.env, S3_ENDPOINT: `http://127.0.0.1:${dead}` });
    try {
      const m = await down.member('Outage Owner');
      const { payload, headers } = multipartBody([{ name: 'a.png', type: 'image/png', data: await png(100, 100) }]);
      const res = await down.request({ method: 'POST', url: '/api/profile/photos', cookie: m.cookie, payload, headers });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe('Your photo could not be saved just now. Please try again in a moment.');
      const profile = (await down.request({ method: 'GET', url: '/api/profile', cookie: m.cookie })).json().profile;
      expect(profile.photos).toEqual([]);
      const view = await down.request({ method: 'GET', url: down.deps.signer.url(`${m.id}/photos/any.webp`), cookie: m.cookie });
      expect(view.statusCode).toBe(503);
      expect(view.json().error.message).toBe('Photos cannot be shown right now. Please try again in a moment.');
      await expect(down.deps.storage.ping()).rejects.toThrow();
    } finally {
      await down.close();
    }
  });
});

describe('S3 configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/s3-config-test', AUTH_SECRET: 'x'.repeat(32) };
  it('names every missing variable when only some are set', () => {
    expect(() => loadConfig({ ...base, S3_BUCKET: 'photos' })).toThrow(ConfigError);
    const message = (() => {
      try {
        loadConfig({ ...base, S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000' });
        return 'no error';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    for (const name of ['S3_REGION:', 'S3_ACCESS_KEY_ID:', 'S3_SECRET_ACCESS_KEY:']) expect(message).toContain(name);
    expect(message).not.toContain('S3_BUCKET:');
    expect(() =>
      loadConfig({ ...base, S3_BUCKET: 'Not A Bucket', S3_REGION: 'r', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }),
    ).toThrow(/S3_BUCKET/);
  });

  it('keeps local disk without S3_* and uses the bucket with all of them', () => {
    expect(loadConfig(base).s3).toBeUndefined();
    expect(loadConfig({ ...base, ...bucket.env }).s3).toEqual({
      endpoint: bucket.env.S3_ENDPOINT,
      region: 'eu-west-2',
      bucket: 'fancy-photos',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });
});
