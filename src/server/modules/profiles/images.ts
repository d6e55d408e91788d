import { fileTypeFromBuffer } from 'file-type';
import type { Metadata, default as Sharp } from 'sharp';
import { PHOTO_FORMATS } from '../../../shared/schemas/profile';
import { AppError } from '../../http/errors';
import { decodeHeic } from './heic';

/** What we accept, judged by the bytes (magic numbers), never by the name or the declared type. */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif']);
/** iPhone photos: HEVC inside HEIF, which sharp's own libvips does not decode (heic.ts does). */
const HEIF = new Set(['image/heic', 'image/heif']);
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

export const notAnImageMessage = (name: string) => `${name}: This file isn't a photo we can use. Please choose a ${PHOTO_FORMATS} image.`;
export const tooManyPixelsMessage = (name: string) => `${name}: This photo is too big (over 40 megapixels). Please choose a smaller one.`;

export interface ProcessedImage {
  image: Buffer;
  thumb: Buffer;
}

/**
 * Re-encodes an upload (DESIGN §7): rotated by its EXIF orientation, then every piece of
 * metadata (EXIF, GPS, XMP, ICC comments) dropped; WebP at most 2048 px, plus a 400 px
 * thumbnail. iPhone photos (HEIC/HEIF with HEVC) are decoded first (heic.ts, in a worker) and
 * then go the same way. Anything that cannot be read as one of the accepted formats is refused.
 */
export async function processImage(data: Buffer, name: string): Promise<ProcessedImage> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) throw new AppError('unsupported_media_type', notAnImageMessage(name));
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    // sharp cannot even read the container: for HEIC/HEIF the decoder below still may.
    if (!HEIF.has(type.mime)) throw new AppError('unsupported_media_type', notAnImageMessage(name));
    meta = {} as Metadata;
  }
  const tooBig = () => new AppError('validation', tooManyPixelsMessage(name), { file: tooManyPixelsMessage(name) });
  let input: ReturnType<typeof Sharp>;
  if (HEIF.has(type.mime) && meta.compression !== 'av1') {
    // An iPhone photo: decoded to pixels in a worker, then the same re-encoding as any other.
    // Built from bare pixels, it carries no EXIF, GPS or XMP at all (libheif has applied its rotation).
    let decoded: Awaited<ReturnType<typeof decodeHeic>>;
    try {
      decoded = await decodeHeic(data, MAX_PIXELS);
    } catch {
      throw new AppError('unsupported_media_type', notAnImageMessage(name));
    }
    if ('tooBig' in decoded) throw tooBig();
    input = sharp(decoded.pixels, { raw: { width: decoded.width, height: decoded.height, channels: 4 }, limitInputPixels: MAX_PIXELS });
  } else {
    if (!meta.width || !meta.height) throw new AppError('unsupported_media_type', notAnImageMessage(name));
    if (meta.width * meta.height > MAX_PIXELS) throw tooBig();
    input = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
  }
  try {
    // Output carries no metadata unless asked for (sharp's default): GPS and EXIF are gone.
    const base = input;
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
