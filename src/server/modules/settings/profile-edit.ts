import { and, eq, sql } from 'drizzle-orm';
import { type ProfileEdit, PROFILE_EDIT_MESSAGES } from '../../../shared/schemas/profile-edit';
import type { OwnProfile } from '../../../shared/schemas/profile';
import type { AppDeps } from '../../deps';
import { profiles } from '../../db/schema';
import { AppError } from '../../http/errors';
import { getOwnProfile, legacyAvatarKey, newPhotoKey, setLocation, thumbKey, updateDraft } from '../profiles/service';
import { textArray } from '../../db/text-array';

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
 * profile picture (if any) takes that photo's place in the list. Pictures keep their keys
 * (never overwritten, docs/decisions/007), so this only swaps keys in the profile row; a
 * picture still at the legacy `{userId}/avatar.webp` is first copied to a photo key.
 */
export async function makeMainPhoto(deps: Deps, userId: string, key: string): Promise<OwnProfile> {
  const { db } = deps.database;
  const { storage } = deps;
  const [row] = await db.select({ avatar: profiles.avatarUrl, photos: profiles.photos }).from(profiles).where(eq(profiles.id, userId));
  const unknown = () => new AppError('not_found', PROFILE_EDIT_MESSAGES.photoUnknown);
  if (!row || !key.startsWith(`${userId}/photos/`) || !row.photos.includes(key)) throw unknown();
  if (!(await storage.get(key))) throw unknown();

  let replacement = row.avatar;
  if (row.avatar === legacyAvatarKey(userId)) {
    const [old, oldThumb] = await Promise.all([storage.get(row.avatar), storage.get(thumbKey(row.avatar))]);
    replacement = null;
    if (old) {
      replacement = newPhotoKey(userId);
      await storage.put(replacement, old.data, old.contentType);
      if (oldThumb) await storage.put(thumbKey(replacement), oldThumb.data, oldThumb.contentType);
    }
  }

  const photos = replacement ? row.photos.map((k) => (k === key ? (replacement as string) : k)) : row.photos.filter((k) => k !== key);
  const [updated] = await db
    .update(profiles)
    .set({ avatarUrl: key, photos: textArray(photos), updatedAt: new Date() })
    .where(and(eq(profiles.id, userId), sql`${key} = any(${profiles.photos})`))
    .returning({ id: profiles.id });
  if (!updated) {
    if (replacement && replacement !== row.avatar)
      await storage.remove(replacement).then(() => storage.remove(thumbKey(replacement as string)));
    throw unknown();
  }
  if (row.avatar && replacement !== row.avatar) await storage.remove(row.avatar).then(() => storage.remove(thumbKey(row.avatar as string)));
  return getOwnProfile(deps, userId);
}
