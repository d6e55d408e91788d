import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { EXTRA_PHOTOS_MAX, UPLOAD_MAX_BYTES } from '../../../shared/constants';
import {
  completeProfileSchema,
  fileTooLargeMessage,
  interestSuggestionSchema,
  profileDraftSchema,
  setLocationSchema,
} from '../../../shared/schemas/profile';
import { requireVerified } from '../../auth/session';
import { verifiedFirst } from '../../auth/guards';
import { AppError } from '../../http/errors';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { processImage, type ProcessedImage } from './images';
import {
  appendPhotos,
  completeProfile,
  freePhotoSlots,
  newPhotoKey,
  getOwnProfile,
  markUserOnboarded,
  removeAvatar,
  removePhoto,
  setAvatar,
  setLocation,
  submitInterestSuggestions,
  thumbKey,
  updateDraft,
} from './service';

const NOT_MULTIPART = 'Please choose a photo to upload.';

/** A file name safe to repeat in a message: no path, no control characters, not too long. */
function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const safe = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (safe || 'photo').slice(0, 80);
}

/**
 * Reads the uploaded files of a multipart request into memory, at most `max` of them (extras
 * are dropped, spec §5); any file over 5 MB fails the request with the message naming it.
 */
async function readFiles(req: FastifyRequest, max: number): Promise<{ name: string; data: Buffer }[]> {
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', NOT_MULTIPART);
  const files: { name: string; data: Buffer }[] = [];
  const tooLarge: string[] = [];
  try {
    for await (const part of req.files({ limits: { fileSize: UPLOAD_MAX_BYTES, files: max }, throwFileSizeLimit: false })) {
      const name = cleanName(part.filename);
      const data = await part.toBuffer();
      if (part.file.truncated) tooLarge.push(name);
      else if (data.length > 0) files.push({ name, data });
    }
  } catch (err) {
    // More files than allowed: the extras were skipped, the rest is fine.
    if ((err as { code?: string }).code !== 'FST_FILES_LIMIT') throw err;
  }
  if (tooLarge.length) {
    const message = fileTooLargeMessage(tooLarge[0]);
    throw new AppError('payload_too_large', message, Object.fromEntries(tooLarge.map((n) => [n, fileTooLargeMessage(n)])));
  }
  if (files.length === 0) throw new AppError('validation', NOT_MULTIPART, { file: NOT_MULTIPART });
  return files;
}

/** Profile, location, uploads and interest suggestions for the signed-in, verified member (spec §7). */
export function registerProfileRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('profiles');
  const deps = () => app.deps;
  const db = () => app.deps.database.db;
  const writeRule = [{ limit: 600, windowMs: HOUR }];
  const uploadRule = [
    { limit: 20, windowMs: MINUTE },
    { limit: 120, windowMs: HOUR },
  ];

  app.get('/api/profile', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return { profile: await getOwnProfile(deps(), user.id, user.name) };
  });

  app.patch('/api/profile/draft', { ...verifiedFirst, schema: { body: profileDraftSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`draft:${user.id}`, writeRule);
    return { profile: await updateDraft(deps(), user.id, req.body as z.output<typeof profileDraftSchema>) };
  });

  app.post('/api/profile/complete', { ...verifiedFirst, schema: { body: completeProfileSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`complete:${user.id}`, writeRule);
    const profile = await completeProfile(deps(), user.id, req.body as z.output<typeof completeProfileSchema>);
    try {
      await markUserOnboarded(db(), user.id);
    } catch (err) {
      // The profile flag is set; the account flag is a convenience (spec §8: silent).
      req.log.warn({ err }, 'could not set the account onboarding flag');
    }
    return { profile };
  });

  app.post('/api/profile/location', { ...verifiedFirst, schema: { body: setLocationSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`location:${user.id}`, writeRule);
    await setLocation(db(), user.id, (req.body as z.output<typeof setLocationSchema>).cityRegion);
    return { ok: true };
  });

  app.post('/api/profile/location/skip', async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`location:${user.id}`, writeRule);
    await setLocation(db(), user.id, null);
    return { ok: true };
  });

  app.delete('/api/profile/avatar', async (req) => {
    const { user } = await requireVerified(req);
    await removeAvatar(deps(), user.id);
    return { ok: true };
  });

  app.delete(
    '/api/profile/photos/:photoId',
    { schema: { params: z.object({ photoId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }) } },
    async (req) => {
      const { user } = await requireVerified(req);
      const { photoId } = req.params as { photoId: string };
      return { photos: await removePhoto(deps(), user.id, photoId) };
    },
  );

  const suggestionRule = [
    { limit: 5, windowMs: 10 * MINUTE },
    { limit: 20, windowMs: 24 * HOUR },
  ];
  app.post('/api/interest-suggestions', { ...verifiedFirst, schema: { body: interestSuggestionSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`suggest:${user.id}`, suggestionRule, 'You have sent a lot of suggestions. Please try again later.');
    const { interests } = req.body as z.output<typeof interestSuggestionSchema>;
    return { ok: true, ...(await submitInterestSuggestions(app.deps, user, interests)) };
  });

  // Uploads (DESIGN §7): multipart, 5 MB per file, re-encoded, stored only under the member's own folder.
  app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: UPLOAD_MAX_BYTES, files: EXTRA_PHOTOS_MAX, fields: 5, fieldSize: 1024, parts: 20 },
    });

    const store = async (key: string, img: ProcessedImage) => {
      try {
        await app.deps.storage.put(key, img.image, 'image/webp');
        await app.deps.storage.put(thumbKey(key), img.thumb, 'image/webp');
      } catch (err) {
        // Photo storage (the bucket) is down: nothing is saved in the profile, the member can retry.
        app.log.error({ err, key }, 'photo storage write failed');
        await app.deps.storage.remove(key).catch(() => {});
        throw new AppError('unavailable', 'Your photo could not be saved just now. Please try again in a moment.');
      }
    };

    scope.post('/api/profile/avatar', async (req) => {
      const { user } = await requireVerified(req);
      await limiter.hit(`upload:${user.id}`, uploadRule, 'You are uploading a lot of photos. Please wait a minute and try again.');
      const [file] = await readFiles(req, 1);
      const processed = await processImage(file.data, file.name);
      const key = newPhotoKey(user.id);
      await store(key, processed);
      // A verified member's new main photo is re-checked once the request succeeds (verification/routes.ts).
      return { avatar: await setAvatar(deps(), user.id, key) };
    });

    scope.post('/api/profile/photos', async (req) => {
      const { user } = await requireVerified(req);
      await limiter.hit(`upload:${user.id}`, uploadRule, 'You are uploading a lot of photos. Please wait a minute and try again.');
      const files = await readFiles(req, EXTRA_PHOTOS_MAX);
      const slots = await freePhotoSlots(db(), user.id);
      if (slots === 0) {
        const message = `You can add up to ${EXTRA_PHOTOS_MAX} photos. Remove one to add another.`;
        throw new AppError('validation', message, { photos: message });
      }
      // Extras are dropped (spec §5); every file is checked before anything is stored.
      const accepted = files.slice(0, slots);
      const processed: ProcessedImage[] = [];
      for (const f of accepted) processed.push(await processImage(f.data, f.name));
      const keys = processed.map(() => newPhotoKey(user.id));
      const removeAll = () =>
        Promise.all(keys.map((key) => Promise.all([app.deps.storage.remove(key), app.deps.storage.remove(thumbKey(key))]))).catch(() => {});
      try {
        for (const [i, key] of keys.entries()) await store(key, processed[i]);
      } catch (err) {
        await removeAll();
        throw err;
      }
      const photos = await appendPhotos(deps(), user.id, keys);
      if (!photos) {
        for (const key of keys) {
          await app.deps.storage.remove(key);
          await app.deps.storage.remove(thumbKey(key));
        }
        const message = `You can add up to ${EXTRA_PHOTOS_MAX} photos. Remove one to add another.`;
        throw new AppError('validation', message, { photos: message });
      }
      return { photos, added: keys.length, dropped: files.length - accepted.length };
    });
  });
}
