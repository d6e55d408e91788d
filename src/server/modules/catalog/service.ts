import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { genderOptions, orientationOptions, predefinedInterests } from '../../db/schema';

export const listInterests = (db: Db) =>
  db
    .select({ id: predefinedInterests.id, name: predefinedInterests.name, category: predefinedInterests.category })
    .from(predefinedInterests)
    .where(eq(predefinedInterests.isActive, true))
    .orderBy(asc(predefinedInterests.category), asc(predefinedInterests.name));

export const listGenderOptions = (db: Db) =>
  db.select().from(genderOptions).where(eq(genderOptions.isActive, true)).orderBy(asc(genderOptions.sortOrder));

export const listOrientationOptions = (db: Db) =>
  db.select().from(orientationOptions).where(eq(orientationOptions.isActive, true)).orderBy(asc(orientationOptions.sortOrder));
