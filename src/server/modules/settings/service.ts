import { and, eq, sql } from 'drizzle-orm';
import { readPreferences, type SettingsView, type UpdateSettingsInput } from '../../../shared/schemas/settings';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { auditLog, contactMessages, mailOutbox, profiles, user } from '../../db/schema';
import { ensureProfile } from '../profiles/service';

/** What other modules use of settings (DESIGN §3, decision 027): mail reminders' timing, device names. */

/** The member's privacy and notification choices plus what Security shows about the account. */
export async function getSettings(db: Db, userId: string): Promise<SettingsView> {
  await ensureProfile(db, userId);
  const [row] = await db
    .select({
      email: user.email,
      emailVerified: user.emailVerified,
      twoFactorEnabled: user.twoFactorEnabled,
      shareCityRegion: profiles.shareCityRegion,
      preferences: profiles.preferences,
    })
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId));
  return {
    email: row.email,
    emailVerified: row.emailVerified,
    twoFactorEnabled: Boolean(row.twoFactorEnabled),
    shareCityRegion: row.shareCityRegion,
    preferences: readPreferences(row.preferences),
  };
}

/**
 * Saves the given choices only: `share_city_region` is a profile column, the rest are keys
 * merged into `profiles.preferences` (other keys there are kept). One statement.
 */
export async function updateSettings(db: Db, userId: string, input: UpdateSettingsInput): Promise<SettingsView> {
  const { shareCityRegion, ...prefs } = input;
  await ensureProfile(db, userId);
  const patch = Object.fromEntries(Object.entries(prefs).filter(([, v]) => v !== undefined));
  await db
    .update(profiles)
    .set({
      ...(shareCityRegion !== undefined && { shareCityRegion }),
      ...(Object.keys(patch).length > 0 && {
        preferences: sql`coalesce(${profiles.preferences}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb`,
      }),
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, userId));
  return getSettings(db, userId);
}

/** The audit rows that record reminders sent to a member (target `${mixerId}:${userId}`). */
export const reminderRowsOf = (userId: string) =>
  and(eq(auditLog.action, 'mixer_reminder'), sql`split_part(${auditLog.target}, ':', 2) = ${userId}`);

/**
 * Account deletion (spec §4, §6; DESIGN §7): in one transaction, the records that name the
 * member without a cascading key (reminder records, support messages with their name and
 * address), then the user row — every other table cascades from it (profile, photos list,
 * memberships, chat messages, fancies, matches, direct messages, blocks, views, sessions,
 * two-step secrets) or lets go of it (reports they made, and reports against them, stay for
 * moderators without them), and every mail sent to their address.
 * A failure rolls everything back. Their stored files go only after the commit.
 */
export async function deleteAccount(
  deps: Pick<AppDeps, 'database' | 'storage'>,
  userId: string,
  log: { error(o: object, m: string): void },
) {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    await tx.delete(auditLog).where(reminderRowsOf(userId));
    await tx.delete(contactMessages).where(eq(contactMessages.userId, userId));
    const gone = await tx.delete(user).where(eq(user.id, userId)).returning({ id: user.id, email: user.email });
    if (gone.length !== 1) throw new Error('account row not found');
    // Mails to the member hold their name, links and messages: none outlives the account.
    await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = lower(${gone[0].email})`);
  });
  try {
    await deps.storage.removeFolder(userId);
  } catch (err) {
    // The account is gone; the files are unreachable (served only by signed key) — log to clean up.
    log.error({ err, userId }, 'could not remove the files of a deleted account');
  }
}
