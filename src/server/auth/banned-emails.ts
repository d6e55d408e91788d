import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bannedEmails } from '../db/schema';

/** SHA-256 of a lower-cased, trimmed address: how a banned member's e-mail is kept (issue 30). */
export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** Whether this address belonged to a banned member (it cannot register again). */
export async function isBannedEmail(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select()
    .from(bannedEmails)
    .where(eq(bannedEmails.emailHash, emailHash(email)))
    .limit(1);
  return Boolean(row);
}
