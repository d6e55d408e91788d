import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../../../../tests/fixtures/images';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { closeHeicDecoder, decodeHeic } from './heic';
import { notAnImageMessage } from './images';

/**
 * iPhone photos (issue 17): a HEIC upload is decoded on the server (heic-decode, in a worker)
 * and stored like any photo — WebP, no EXIF or GPS. The fixture is a 96×64 HEIC (left half
 * pink, right half blue) whose EXIF carries a camera make and a GPS position, made once with
 * Debian's `heif-enc` (libheif 1.15, x265) from a sharp-made JPEG: see tests/fixtures/README.md.
 */
const HEIC = readFileSync(path.join(import.meta.dirname, '../../../../tests/fixtures/photo-gps.heic'));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await closeHeicDecoder();
});

const upload = (cookie: string, url: string, name: string, data: Buffer, type = 'image/heic') => {
  const { payload, headers } = multipartBody([{ name, type, data }]);
  return t.request({ method: 'POST', url, cookie, payload, headers });
};

/** The colour of a stored picture at a point, as [r, g, b]. */
async function colourAt(data: Buffer, x: number, y: number) {
  const { data: raw, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [raw[i], raw[i + 1], raw[i + 2]];
}

describe('HEIC / HEIF uploads', () => {
  it('the fixture really is an HEVC HEIC with GPS in its EXIF (what sharp alone cannot decode)', async () => {
    expect(HEIC.subarray(4, 12).toString('latin1')).toBe('ftypheic');
    expect(HEIC.includes(Buffer.from('FancyTestCam'))).toBe(true);
    const meta = await sharp(HEIC).metadata();
    expect(meta.compression).toBe('hevc');
    await expect(sharp(HEIC).webp().toBuffer()).rejects.toThrow();
  });

  it('a profile picture from an iPhone is re-encoded to WebP, upright, with no EXIF or GPS left', async () => {
    const m = await t.member('Ivy Iphone');
    const res = await upload(m.cookie, '/api/profile/avatar', 'IMG_0042.HEIC', HEIC);
    expect(res.statusCode, res.body).toBe(200);
    const { avatar } = res.json();
    expect(avatar.key).toMatch(/\.webp$/);
    const stored = await t.deps.storage.get(avatar.key);
    if (!stored) throw new Error('not stored');
    const meta = await sharp(stored.data).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([96, 64]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    for (const secret of ['FancyTestCam', 'secret-owner', 'GPS Tracker']) expect(stored.data.includes(Buffer.from(secret))).toBe(false);
    // The picture itself survived: pink on the left, blue on the right.
    const [lr, , lb] = await colourAt(stored.data, 10, 32);
    const [rr, , rb] = await colourAt(stored.data, 85, 32);
    expect(lr).toBeGreaterThan(180);
    expect(lb).toBeLessThan(140);
    expect(rb).toBeGreaterThan(180);
    expect(rr).toBeLessThan(80);
    const thumb = await t.deps.storage.get(avatar.key.replace(/\.webp$/, '.thumb.webp'));
    expect((await sharp(thumb?.data).metadata()).format).toBe('webp');
  });

  it('works for the other photos too, whatever type the browser declared', async () => {
    const m = await t.member('Hal Heif');
    const res = await upload(m.cookie, '/api/profile/photos', 'IMG_0043.heic', HEIC, 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().photos).toHaveLength(1);
  });

  it('a broken HEIC is refused with a message naming the file (415), never a 500', async () => {
    const m = await t.member('Bea Broken');
    const res = await upload(m.cookie, '/api/profile/avatar', 'broken.heic', HEIC.subarray(0, 300));
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toBe(notAnImageMessage('broken.heic'));
    // The decoder carries on after a failure.
    expect((await upload(m.cookie, '/api/profile/avatar', 'fine.heic', HEIC)).statusCode).toBe(200);
  });

  it('the decoder refuses an image over the pixel limit from its header, before decoding it', async () => {
    expect(await decodeHeic(HEIC, 96 * 64 - 1)).toEqual({ tooBig: true, width: 96, height: 64 });
    const ok = await decodeHeic(HEIC, 96 * 64);
    expect('pixels' in ok && ok.pixels.length).toBe(96 * 64 * 4);
  });
});
