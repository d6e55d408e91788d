import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { user } from '../db/schema';

/**
 * Gives role admin to the listed addresses (ADMIN_EMAILS, `npm run admin -- promote`) once they are
 * confirmed: an unverified account may have been registered by someone else (docs/decisions/006).
 * Returns how many rows changed.
 */
export async function promoteAdmins(db: Db, emails: string[]): Promise<number> {
  const list = emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (!list.length) return 0;
  const rows = await db
    .update(user)
    .set({ role: 'admin', updatedAt: sql`now()` })
    .where(and(inArray(user.email, list), eq(user.emailVerified, true)))
    .returning({ id: user.id });
  return rows.length;
}
