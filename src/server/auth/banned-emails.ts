import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bannedEmails } from '../db/schema';

/** Providers that ignore dots in the mailbox name and answer to two domains. */
const DOTLESS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as far as it can be told: lower case, no `+tag` (every
 * major provider delivers `name+x@` to `name@`), and Gmail's dots and second domain folded, so
 * `M.Aya+new@googlemail.com` is `maya@gmail.com`.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let local = address.slice(0, at).split('+')[0];
  let domain = address.slice(at + 1);
  if (DOTLESS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** SHA-256 of the address's mailbox: how a banned member's e-mail is kept (issue 30), so a variant of it is refused too. */
export const emailHash = (email: string) => createHash('sha256').update(mailboxOf(email)).digest('hex');

/** Whether this address belonged to a banned member (it cannot register again). */
export async function isBannedEmail(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select()
    .from(bannedEmails)
    .where(eq(bannedEmails.emailHash, emailHash(email)))
    .limit(1);
  return Boolean(row);
}
