import { sql } from 'drizzle-orm';
import { GENDER_OPTIONS, ORIENTATION_OPTIONS, PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import { seedTopicTemplates } from '../../modules/formation/templates';
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
