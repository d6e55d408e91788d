import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { guardProfile, guardProfileTexts } from '../guard/service';
import { DEFAULT_COUNTRY, DEFAULT_TZ, EXTRA_PHOTOS_MAX } from '../../../shared/constants';
import {
  type CompleteProfile,
  IDENTITY_AUDIT_ACTIONS,
  IDENTITY_CHANGE_LIMIT,
  IDENTITY_MESSAGES,
  type IdentityKind,
  type OwnProfile,
  type PhotoRef,
  PROFILE_MESSAGES,
  type ProfileDraft,
  suggestionKey,
} from '../../../shared/schemas/profile';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { genderOptions, interestSuggestions, orientationOptions, predefinedInterests, profiles, user } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { UrlSigner } from '../../infra/storage/storage';
import { composeMail } from '../../infra/mail/template';
import { recordAudit } from '../../lib/audit';
import { query, rowsOf, suggestionKeySql } from '../../lib/sql';
import { textArray } from '../../db/text-array';

type Deps = Pick<AppDeps, 'database' | 'signer' | 'storage'>;
type ProfileRow = typeof profiles.$inferSelect;

/**
 * Storage layout (DESIGN §7): everything of a member lives under `{userId}/`. Every picture,
 * the profile picture included, gets a fresh random key when stored and is never overwritten,
 * so an old URL can never serve a newer picture (docs/decisions/007).
 */
export const photoKey = (userId: string, photoId: string) => `${userId}/photos/${photoId}.webp`;
export const newPhotoKey = (userId: string) => photoKey(userId, randomBytes(12).toString('base64url'));
/** Where the profile picture lived before keys were versioned; such keys stay valid until replaced. */
export const legacyAvatarKey = (userId: string) => `${userId}/avatar.webp`;
/** A key the member may use as their profile picture: one of their own stored pictures. */
export function isOwnAvatarKey(userId: string, key: string): boolean {
  if (key === legacyAvatarKey(userId)) return true;
  const prefix = `${userId}/photos/`;
  return key.startsWith(prefix) && /^[A-Za-z0-9_-]+\.webp$/.test(key.slice(prefix.length));
}
/** The 400 px thumbnail stored beside every image. */
export const thumbKey = (key: string) => key.replace(/\.webp$/, '.thumb.webp');

/**
 * Signed URLs for a stored image and its thumbnail. `version` busts browser caches for keys
 * that are overwritten in place (the profile picture).
 */
export function photoRef(signer: UrlSigner, key: string, version?: number): PhotoRef {
  const v = version ? `&v=${version}` : '';
  return { key, url: `${signer.url(key)}${v}`, thumbUrl: `${signer.url(thumbKey(key))}${v}` };
}

/** The small signed profile-picture URL for the account menu, or null. */
export function signedAvatarUrl(signer: UrlSigner, key: string | null | undefined, updatedAt?: Date | null): string | null {
  return key ? photoRef(signer, key, updatedAt?.getTime()).thumbUrl : null;
}

/** Every member has a profile row from sign-up on (gate step 4); older accounts get one on first use. */
export async function ensureProfile(db: Db, userId: string, fullName?: string | null) {
  await db
    .insert(profiles)
    .values({ id: userId, fullName: fullName ?? null })
    .onConflictDoNothing({ target: profiles.id });
}

function toOwnProfile(signer: UrlSigner, row: ProfileRow): OwnProfile {
  return {
    id: row.id,
    fullName: row.fullName,
    pronouns: row.pronouns,
    bio: row.bio,
    dob: row.dob,
    genderIdentities: row.genderIdentities,
    sexualOrientations: row.sexualOrientations,
    lookingFor: row.lookingFor,
    interests: row.interests,
    avatar: row.avatarUrl ? photoRef(signer, row.avatarUrl, row.updatedAt.getTime()) : null,
    photos: row.photos.map((key) => photoRef(signer, key)),
    funFact: row.funFact,
    promptAnswer: row.promptAnswer,
    smallJoy: row.smallJoy,
    loveToTalkAbout: row.loveToTalkAbout,
    valueInRelationships: row.valueInRelationships,
    sharedExperience: row.sharedExperience,
    cityRegion: row.cityRegion,
    countryCode: row.countryCode,
    tz: row.tz,
    shareCityRegion: row.shareCityRegion,
    locationSource: row.locationSource,
    onboardingCompleted: row.onboardingCompleted,
    onboardingStep: row.onboardingStep,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getOwnProfile(deps: Deps, userId: string, fallbackName?: string): Promise<OwnProfile> {
  const { db } = deps.database;
  let [row] = await db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) {
    await ensureProfile(db, userId, fallbackName);
    [row] = await db.select().from(profiles).where(eq(profiles.id, userId));
  }
  return toOwnProfile(deps.signer, row);
}

const invalid = (field: string, message: string) => new AppError('validation', message, { [field]: message });

/** Photos named in a request must be the member's own (nobody writes outside their own folder). */
function assertOwnKeys(userId: string, input: { avatarUrl?: string | null; photos?: string[] }) {
  if (input.avatarUrl && !isOwnAvatarKey(userId, input.avatarUrl)) {
    throw new AppError('forbidden', 'You can only use your own photos.');
  }
  if (input.photos?.some((k) => !k.startsWith(`${userId}/photos/`))) {
    throw new AppError('forbidden', 'You can only use your own photos.');
  }
  if (input.photos && input.photos.length > EXTRA_PHOTOS_MAX) {
    throw invalid('photos', `You can add up to ${EXTRA_PHOTOS_MAX} photos besides your profile picture.`);
  }
}

/** Options and interests must come from the active catalogue (spec §7 "Options", "Interests"). One round trip per list used. */
async function assertKnownChoices(db: Db, input: { genderIdentities?: string[]; sexualOrientations?: string[]; interests?: string[] }) {
  const check = async (values: string[] | undefined, field: string, message: string, load: (v: string[]) => Promise<{ v: string }[]>) => {
    if (!values?.length) return;
    const known = new Set((await load(values)).map((r) => r.v));
    if (values.some((v) => !known.has(v))) throw invalid(field, message);
  };
  await check(input.genderIdentities, 'genderIdentities', PROFILE_MESSAGES.optionUnknown, (v) =>
    db
      .select({ v: genderOptions.label })
      .from(genderOptions)
      .where(and(eq(genderOptions.isActive, true), inArray(genderOptions.label, v))),
  );
  await check(input.sexualOrientations, 'sexualOrientations', PROFILE_MESSAGES.optionUnknown, (v) =>
    db
      .select({ v: orientationOptions.label })
      .from(orientationOptions)
      .where(and(eq(orientationOptions.isActive, true), inArray(orientationOptions.label, v))),
  );
  await check(input.interests, 'interests', PROFILE_MESSAGES.interestUnknown, (v) =>
    db
      .select({ v: predefinedInterests.name })
      .from(predefinedInterests)
      .where(and(eq(predefinedInterests.isActive, true), inArray(predefinedInterests.name, v))),
  );
}

export const DOB_LOCKED = 'Your date of birth can only be changed by our support team.';

/** After onboarding the date of birth changes only through support (avoids age games). */
async function assertDobUnchanged(db: Db, userId: string, dob: string | null | undefined) {
  if (dob === undefined) return;
  const [row] = await db.select({ dob: profiles.dob, done: profiles.onboardingCompleted }).from(profiles).where(eq(profiles.id, userId));
  if (row?.done && row.dob && row.dob !== dob) throw new AppError('forbidden', DOB_LOCKED, { dob: DOB_LOCKED });
}

type IdentityInput = Pick<ProfileDraft, 'genderIdentities' | 'sexualOrientations' | 'lookingFor'>;
const IDENTITY_FIELDS: Record<IdentityKind, (keyof IdentityInput)[]> = {
  gender: ['genderIdentities'],
  orientation: ['sexualOrientations', 'lookingFor'],
};
const IDENTITY_REFUSALS: Record<IdentityKind, string> = {
  gender: IDENTITY_MESSAGES.genderLimit,
  orientation: IDENTITY_MESSAGES.orientationLimit,
};
const sameSet = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) => {
  const x = [...(a ?? [])].sort();
  const y = [...(b ?? [])].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * Runs a profile write that may change who the member is (issue 32): after onboarding, gender
 * identity and orientation/looking-for may each change IDENTITY_CHANGE_LIMIT.changes times in
 * IDENTITY_CHANGE_LIMIT.days days. Counted from the audit log under the profile's row lock, so
 * two writes at once are counted one after the other; a change past the limit is refused (429,
 * nothing written), an allowed one is recorded in the same transaction as the write. Choices
 * made during onboarding are not changes. Seats and invitations that no longer fit are handled
 * after the write (invitations/after-profile-change).
 */
async function withIdentityRules<T>(
  db: Db,
  userId: string,
  input: IdentityInput,
  write: (tx: Db) => Promise<T>,
  now = new Date(),
): Promise<T> {
  const touched = Object.values(IDENTITY_FIELDS).some((fields) => fields.some((f) => input[f] !== undefined));
  if (!touched) return write(db);
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{
      done: boolean | null;
      genderIdentities: string[] | null;
      sexualOrientations: string[] | null;
      lookingFor: string[] | null;
    }>(
      await tx.execute(sql`select onboarding_completed as done, gender_identities as "genderIdentities",
          sexual_orientations as "sexualOrientations", looking_for as "lookingFor"
        from profiles where id = ${userId} for update`),
    );
    if (!row?.done) return write(tx);
    const changed = (Object.keys(IDENTITY_FIELDS) as IdentityKind[]).filter((kind) =>
      IDENTITY_FIELDS[kind].some((f) => input[f] !== undefined && !sameSet(input[f], row[f])),
    );
    const since = new Date(now.getTime() - IDENTITY_CHANGE_LIMIT.days * 86_400_000).toISOString();
    for (const kind of changed) {
      const recent = rowsOf<{ at_ms: number | string }>(
        await tx.execute(sql`select (extract(epoch from created_at) * 1000)::float8 as at_ms from audit_log
          where target = ${userId} and action = ${IDENTITY_AUDIT_ACTIONS[kind]} and created_at > ${since}::timestamptz
          order by created_at limit ${IDENTITY_CHANGE_LIMIT.changes}`),
      );
      if (recent.length >= IDENTITY_CHANGE_LIMIT.changes) {
        const freeAt = Number(recent[0].at_ms) + IDENTITY_CHANGE_LIMIT.days * 86_400_000;
        const field = IDENTITY_FIELDS[kind].find((f) => input[f] !== undefined && !sameSet(input[f], row[f])) as string;
        throw new AppError(
          'rate_limited',
          IDENTITY_REFUSALS[kind],
          { [field]: IDENTITY_REFUSALS[kind] },
          {
            'retry-after': String(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))),
          },
        );
      }
    }
    const result = await write(tx);
    for (const kind of changed) {
      const pick = (source: IdentityInput | typeof row) => Object.fromEntries(IDENTITY_FIELDS[kind].map((f) => [f, source[f] ?? []]));
      await recordAudit(tx, userId, IDENTITY_AUDIT_ACTIONS[kind], userId, {
        from: pick(row),
        to: { ...pick(row), ...Object.fromEntries(IDENTITY_FIELDS[kind].filter((f) => input[f] !== undefined).map((f) => [f, input[f]])) },
      });
    }
    return result;
  });
}

/** Draft update (spec §7): only the fields given; the furthest step only ever grows. */
export async function updateDraft(deps: Deps, userId: string, draft: ProfileDraft): Promise<OwnProfile> {
  const { db } = deps.database;
  assertOwnKeys(userId, draft);
  // Issue 30: no contact details, money pitches or abuse in bio and prompts (refused per field).
  guardProfile(draft);
  await assertDobUnchanged(db, userId, draft.dob);
  await assertKnownChoices(db, draft);
  const { step, ...fields } = draft;
  await ensureProfile(db, userId);
  const row = await withIdentityRules(db, userId, draft, async (tx) => {
    const [updated] = await tx
      .update(profiles)
      .set({
        ...fields,
        updatedAt: new Date(),
        ...(step !== undefined && { onboardingStep: sql`greatest(${profiles.onboardingStep}, ${step})` }),
      })
      .where(eq(profiles.id, userId))
      .returning();
    return updated;
  });
  return toOwnProfile(deps.signer, row);
}

/**
 * Completion (`onboarding_upsert_profile`, then `onboarding_completed = true`): every field
 * already passed the shared schema; here the catalogue and photo ownership are checked,
 * then one statement writes it all.
 */
export async function completeProfile(deps: Deps, userId: string, input: CompleteProfile): Promise<OwnProfile> {
  const { db } = deps.database;
  assertOwnKeys(userId, input);
  guardProfile(input);
  await assertDobUnchanged(db, userId, input.dob);
  await assertKnownChoices(db, input);
  const values = {
    fullName: input.fullName,
    pronouns: input.pronouns ?? null,
    bio: input.bio ?? null,
    dob: input.dob,
    genderIdentities: input.genderIdentities,
    sexualOrientations: input.sexualOrientations,
    lookingFor: input.lookingFor,
    interests: input.interests,
    cityRegion: input.cityRegion ?? null,
    avatarUrl: input.avatarUrl ?? null,
    photos: input.photos,
    funFact: input.funFact ?? null,
    promptAnswer: input.promptAnswer ?? null,
    smallJoy: input.smallJoy,
    loveToTalkAbout: input.loveToTalkAbout,
    valueInRelationships: input.valueInRelationships,
    sharedExperience: input.sharedExperience,
    onboardingCompleted: true,
    onboardingStep: 10,
    updatedAt: new Date(),
  };
  const row = await withIdentityRules(db, userId, input, async (tx) => {
    const [written] = await tx
      .insert(profiles)
      .values({ id: userId, ...values })
      .onConflictDoUpdate({ target: profiles.id, set: values })
      .returning();
    return written;
  });
  return toOwnProfile(deps.signer, row);
}

/** The account's own completion flag (spec gate: "or user metadata flag onboarding_complete"). */
export async function markUserOnboarded(db: Db, userId: string) {
  await db.update(user).set({ onboardingComplete: true }).where(eq(user.id, userId));
}

/** `set_location` (spec §7): a city, GB, Europe/London, manual — or a skip, source unknown. Never coordinates. */
export async function setLocation(db: Db, userId: string, city: string | null) {
  // Shown on the profile card: no number or handle in it (issue 30).
  guardProfileTexts({ cityRegion: city });
  await ensureProfile(db, userId);
  await db
    .update(profiles)
    .set({
      cityRegion: city,
      countryCode: DEFAULT_COUNTRY,
      tz: DEFAULT_TZ,
      locationSource: city ? 'manual' : 'unknown',
      locationLastConfirmedAt: city ? new Date() : null,
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, userId));
}

/** Removes a picture and its thumbnail from storage. */
async function removeStored(deps: Deps, key: string) {
  await deps.storage.remove(key);
  await deps.storage.remove(thumbKey(key));
}

/**
 * Sets the profile picture to `key` (its files were just written under a fresh key) and
 * removes the previous picture's files, so its old URLs stop working. Returns the new URLs.
 */
export async function setAvatar(deps: Deps, userId: string, key: string): Promise<PhotoRef> {
  const { db } = deps.database;
  await ensureProfile(db, userId);
  const [row] = rowsOf<{ previous: string | null; kept: boolean; updated_at: Date | string }>(
    await db.execute(sql`update profiles p set avatar_url = ${key}, updated_at = now()
      from (select avatar_url from profiles where id = ${userId} for update) old
      where p.id = ${userId}
      returning old.avatar_url as previous, coalesce(old.avatar_url = any(p.photos), false) as kept, p.updated_at`),
  );
  if (row?.previous && row.previous !== key && !row.kept) await removeStored(deps, row.previous);
  return photoRef(deps.signer, key, new Date(row.updated_at).getTime());
}

export async function removeAvatar(deps: Deps, userId: string) {
  const [row] = rowsOf<{ previous: string | null; kept: boolean }>(
    await deps.database.db.execute(sql`update profiles p set avatar_url = null, updated_at = now()
      from (select avatar_url from profiles where id = ${userId} for update) old
      where p.id = ${userId} returning old.avatar_url as previous, coalesce(old.avatar_url = any(p.photos), false) as kept`),
  );
  if (row?.previous && !row.kept) await removeStored(deps, row.previous);
}

/** Free photo slots (the wizard allows 6 besides the profile picture). */
export async function freePhotoSlots(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`cardinality(${profiles.photos})` })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return Math.max(0, EXTRA_PHOTOS_MAX - Number(row?.n ?? 0));
}

/** Appends stored photos; race-safe: refused when another upload filled the slots meanwhile. */
export async function appendPhotos(deps: Deps, userId: string, keys: string[]): Promise<PhotoRef[] | null> {
  const { db } = deps.database;
  await ensureProfile(db, userId);
  const list = sql`ARRAY[${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )}]::text[]`;
  const [row] = await db
    .update(profiles)
    .set({ photos: sql`${profiles.photos} || ${list}`, updatedAt: new Date() })
    .where(and(eq(profiles.id, userId), sql`cardinality(${profiles.photos}) + ${keys.length} <= ${EXTRA_PHOTOS_MAX}`))
    .returning({ photos: profiles.photos });
  if (!row) return null;
  return row.photos.map((k) => photoRef(deps.signer, k));
}

/** Removes one of the member's own photos: from the profile, then from storage. */
export async function removePhoto(deps: Deps, userId: string, photoId: string): Promise<PhotoRef[]> {
  const key = photoKey(userId, photoId);
  const [row] = await deps.database.db
    .update(profiles)
    .set({ photos: sql`array_remove(${profiles.photos}, ${key})`, updatedAt: new Date() })
    .where(and(eq(profiles.id, userId), sql`${key} = any(${profiles.photos})`))
    .returning({ photos: profiles.photos });
  if (!row) throw new AppError('not_found', 'That photo no longer exists.');
  await deps.storage.remove(key);
  await deps.storage.remove(thumbKey(key));
  return row.photos.map((k) => photoRef(deps.signer, k));
}

/**
 * Interest suggestions (spec §7): one row per line with the member's name (profile name,
 * else e-mail), then one mail to support listing them comma-joined ("send-contact-email").
 */
export async function submitInterestSuggestions(
  deps: Pick<AppDeps, 'database' | 'mailer' | 'config'>,
  member: { id: string; email: string; name?: string | null },
  interests: string[],
) {
  const { db } = deps.database;
  const [profile] = await db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, member.id));
  const fullName = profile?.fullName?.trim() || member.name?.trim() || member.email;
  // One of each, and none that is already a listed interest (by the admin queue's key): that one is
  // picked, not suggested.
  const byKey = new Map<string, string>();
  for (const i of interests) if (!byKey.has(suggestionKey(i))) byKey.set(suggestionKey(i), i);
  const listed = await query<{ key: string }>(
    db,
    sql`select ${suggestionKeySql(sql`name`)} as key from predefined_interests
         where is_active and ${suggestionKeySql(sql`name`)} = any(${textArray([...byKey.keys()])})`,
  );
  for (const { key } of listed) byKey.delete(key);
  const unique = [...byKey.values()];
  if (!unique.length) throw new AppError('validation', PROFILE_MESSAGES.suggestionListed, { interests: PROFILE_MESSAGES.suggestionListed });
  await db.insert(interestSuggestions).values(unique.map((submittedInterest) => ({ userId: member.id, submittedInterest, fullName })));
  const message = `Suggested interests: ${unique.join(', ')}`;
  await deps.mailer.sendMail(
    composeMail(deps.config.supportEmail, {
      subject: `[Interest suggestion] ${fullName}`,
      greeting: 'A member suggested new interests during onboarding.',
      lines: [`From: ${fullName} <${member.email}>`, message, 'Review them in the admin area under Interest suggestions.'],
      footer: 'Sent from the onboarding wizard on Fancy.',
    }),
  );
  return { count: unique.length };
}
