import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { user } from '../db/schema';

/** Gives role admin to the listed addresses (ADMIN_EMAILS, `npm run admin -- promote`). Returns how many rows changed. */
export async function promoteAdmins(db: Db, emails: string[]): Promise<number> {
  const list = emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (!list.length) return 0;
  const rows = await db
    .update(user)
    .set({ role: 'admin', updatedAt: sql`now()` })
    .where(inArray(user.email, list))
    .returning({ id: user.id });
  return rows.length;
}
