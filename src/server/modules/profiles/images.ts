import { fileTypeFromBuffer } from 'file-type';
import type { Metadata, default as Sharp } from 'sharp';
import { AppError } from '../../http/errors';

/** What we accept, judged by the bytes (magic numbers), never by the name or the declared type. */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif']);
/** Larger images are refused before decoding (decompression bombs). */
export const MAX_PIXELS = 40_000_000;
export const MAX_EDGE_PX = 2048;
export const THUMB_EDGE_PX = 400;

let sharpModule: Promise<typeof Sharp> | undefined;

/**
 * libvips loads on the first image, not at start (decision 017: ~25 MB resident a server that
 * never sees an upload does not need). Its operation cache is off: every upload is a new image,
 * so cached decodes are never reused and would only hold memory.
 */
export function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

export const notAnImageMessage = (name: string) =>
  `${name}: This file isn't a photo we can use. Please choose a JPEG, PNG, WebP, GIF, HEIC or AVIF image.`;
export const tooManyPixelsMessage = (name: string) => `${name}: This photo is too big (over 40 megapixels). Please choose a smaller one.`;

export interface ProcessedImage {
  image: Buffer;
  thumb: Buffer;
}

/**
 * Re-encodes an upload (DESIGN §7): rotated by its EXIF orientation, then every piece of
 * metadata (EXIF, GPS, XMP, ICC comments) dropped; WebP at most 2048 px, plus a 400 px
 * thumbnail. Anything sharp cannot read as one of the accepted formats is refused.
 */
export async function processImage(data: Buffer, name: string): Promise<ProcessedImage> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) throw new AppError('unsupported_media_type', notAnImageMessage(name));
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('unsupported_media_type', notAnImageMessage(name));
  }
  if (!meta.width || !meta.height) throw new AppError('unsupported_media_type', notAnImageMessage(name));
  if (meta.width * meta.height > MAX_PIXELS)
    throw new AppError('validation', tooManyPixelsMessage(name), { file: tooManyPixelsMessage(name) });
  try {
    // Output carries no metadata unless asked for (sharp's default): GPS and EXIF are gone.
    const base = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
    const [image, thumb] = await Promise.all([
      base
        .clone()
        .resize({ width: MAX_EDGE_PX, height: MAX_EDGE_PX, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer(),
      base
        .clone()
        .resize({ width: THUMB_EDGE_PX, height: THUMB_EDGE_PX, fit: 'cover', position: 'attention' })
        .webp({ quality: 78 })
        .toBuffer(),
    ]);
    return { image, thumb };
  } catch {
    throw new AppError('unsupported_media_type', notAnImageMessage(name));
  }
}
