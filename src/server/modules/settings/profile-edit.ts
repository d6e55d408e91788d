import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { type ProfileEdit, PROFILE_EDIT_MESSAGES } from '../../../shared/schemas/profile-edit';
import type { OwnProfile } from '../../../shared/schemas/profile';
import type { AppDeps } from '../../app';
import { profiles } from '../../db/schema';
import { AppError } from '../../http/errors';
import { avatarKey, getOwnProfile, photoKey, setLocation, thumbKey, updateDraft } from '../profiles/service';

type Deps = Pick<AppDeps, 'database' | 'signer' | 'storage'>;

/**
 * /profile edits: the fields go through the profile module's own update (catalogue checks,
 * the member's own row only); a changed city goes through `set_location` (GB, Europe/London,
 * source manual), like the wizard's location step.
 */
export async function editProfile(deps: Deps, userId: string, input: ProfileEdit): Promise<OwnProfile> {
  const { cityRegion, ...fields } = input;
  if (Object.keys(fields).length > 0) await updateDraft(deps, userId, fields);
  if (cityRegion !== undefined) await setLocation(deps.database.db, userId, cityRegion);
  return getOwnProfile(deps, userId);
}

const textArray = (keys: string[]) =>
  keys.length
    ? sql`ARRAY[${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[]`
    : sql`'{}'::text[]`;

/** The same photos in a new order; refused (nothing changes) when the list is not exactly the current photos. */
export async function reorderPhotos(deps: Deps, userId: string, order: string[]): Promise<OwnProfile> {
  if (new Set(order).size !== order.length)
    throw new AppError('validation', PROFILE_EDIT_MESSAGES.orderMismatch, { order: PROFILE_EDIT_MESSAGES.orderMismatch });
  const list = textArray(order);
  // One statement: applied only when the stored photos are the same set, so a concurrent upload or removal wins.
  const [row] = await deps.database.db
    .update(profiles)
    .set({ photos: list, updatedAt: new Date() })
    .where(
      and(
        eq(profiles.id, userId),
        sql`${profiles.photos} @> ${list} and ${list} @> ${profiles.photos} and cardinality(${profiles.photos}) = ${order.length}`,
      ),
    )
    .returning({ id: profiles.id });
  if (!row) throw new AppError('conflict', PROFILE_EDIT_MESSAGES.orderMismatch);
  return getOwnProfile(deps, userId);
}

/**
 * "Make main photo": one of the other photos becomes the profile picture, and the current
 * profile picture (if any) takes that photo's place in the list. The picture always lives at
 * `{userId}/avatar.webp`, so the files are copied: first the old picture to a new photo key,
 * then the chosen photo over the picture, then the profile row, then the chosen photo's old
 * files are removed.
 */
export async function makeMainPhoto(deps: Deps, userId: string, key: string): Promise<OwnProfile> {
  const { db } = deps.database;
  const { storage } = deps;
  const [row] = await db.select({ avatar: profiles.avatarUrl, photos: profiles.photos }).from(profiles).where(eq(profiles.id, userId));
  const unknown = () => new AppError('not_found', PROFILE_EDIT_MESSAGES.photoUnknown);
  if (!row || !key.startsWith(`${userId}/photos/`) || !row.photos.includes(key)) throw unknown();
  const [photo, photoThumb] = await Promise.all([storage.get(key), storage.get(thumbKey(key))]);
  if (!photo) throw unknown();

  const picture = avatarKey(userId);
  let replacement: string | null = null;
  if (row.avatar) {
    const [old, oldThumb] = await Promise.all([storage.get(picture), storage.get(thumbKey(picture))]);
    if (old) {
      replacement = photoKey(userId, randomBytes(12).toString('base64url'));
      await storage.put(replacement, old.data, old.contentType);
      if (oldThumb) await storage.put(thumbKey(replacement), oldThumb.data, oldThumb.contentType);
    }
  }
  await storage.put(picture, photo.data, photo.contentType);
  await storage.put(thumbKey(picture), (photoThumb ?? photo).data, (photoThumb ?? photo).contentType);

  const photos = replacement ? row.photos.map((k) => (k === key ? (replacement as string) : k)) : row.photos.filter((k) => k !== key);
  const [updated] = await db
    .update(profiles)
    .set({ avatarUrl: picture, photos: textArray(photos), updatedAt: new Date() })
    .where(and(eq(profiles.id, userId), sql`${key} = any(${profiles.photos})`))
    .returning({ id: profiles.id });
  if (!updated) {
    if (replacement) await storage.remove(replacement).then(() => storage.remove(thumbKey(replacement as string)));
    throw unknown();
  }
  await storage.remove(key);
  await storage.remove(thumbKey(key));
  return getOwnProfile(deps, userId);
}
