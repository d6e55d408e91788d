import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { GENDER_OPTIONS, ORIENTATION_OPTIONS, PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import { defaultTopicTemplates, seedTopicTemplates } from '../../modules/formation/templates';
import type { Db } from '../client';
import { genderOptions, orientationOptions, predefinedInterests } from '../schema';

/**
 * Reference data, idempotent: rows are inserted or their order refreshed, never duplicated;
 * rows an admin added (e.g. approved interest suggestions) are left alone.
 */
export async function seedReferenceData(db: Db) {
  await db
    .insert(genderOptions)
    .values(GENDER_OPTIONS.map((label, i) => ({ label, sortOrder: (i + 1) * 10 })))
    .onConflictDoUpdate({ target: genderOptions.label, set: { sortOrder: sql`excluded.sort_order` } });
  await db
    .insert(orientationOptions)
    .values(ORIENTATION_OPTIONS.map((label, i) => ({ label, sortOrder: (i + 1) * 10 })))
    .onConflictDoUpdate({ target: orientationOptions.label, set: { sortOrder: sql`excluded.sort_order` } });
  await db
    .insert(predefinedInterests)
    .values(PREDEFINED_INTERESTS.map((i) => ({ name: i.name, category: i.category })))
    .onConflictDoNothing({ target: predefinedInterests.name });
  // Formed mixers' default topic templates (issue 14); admins' edits are kept.
  await seedTopicTemplates(db);
}

/** What this code's reference data is: a change to any catalogue or template changes it. */
export function referenceFingerprint(): string {
  const catalogue = [GENDER_OPTIONS, ORIENTATION_OPTIONS, PREDEFINED_INTERESTS, defaultTopicTemplates()];
  return `reference:${createHash('sha256').update(JSON.stringify(catalogue)).digest('hex').slice(0, 32)}`;
}

/**
 * Start-up's seeding (decision 017): the fingerprint of the last seeded catalogue lives with the
 * data, as the comment on predefined_interests, so a restart with the same catalogue reads one
 * row instead of upserting a few hundred. A new catalogue, a fresh or restored database without
 * the comment, or a crash before the comment was written all seed again (it is idempotent).
 */
export async function ensureReferenceData(db: Db): Promise<'seeded' | 'current'> {
  const fingerprint = referenceFingerprint();
  const result = (await db.execute(sql`select obj_description('predefined_interests'::regclass, 'pg_class') as note`)) as unknown as {
    rows: { note: string | null }[];
  };
  if (result.rows[0]?.note === fingerprint) return 'current';
  await seedReferenceData(db);
  await db.execute(sql.raw(`comment on table predefined_interests is '${fingerprint}'`));
  return 'seeded';
}
