import { eq } from 'drizzle-orm';
import { passwordWeakness } from '../../shared/password-strength';
import { WEAK_PASSWORD_MESSAGES } from '../../shared/schemas/auth';
import type { Db } from '../db/client';
import { profiles, user } from '../db/schema';
import { AppError } from '../http/errors';

/** A member's own words, which their password must not be built from: e-mail address and names (account and profile). */
export async function memberWords(db: Db, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ email: user.email, name: user.name, fullName: profiles.fullName })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId));
  return row ? [row.email, row.name, row.fullName].filter((w): w is string => Boolean(w)) : [];
}

/**
 * The one rule for every password being set (sign-up, reset, change; docs/decisions/006): a strength
 * estimate against the common dictionaries, the app's own words and `ownWords` (the member's e-mail
 * and names). A weak one is a validation error on `field`, saying which of the two gave it away.
 */
export async function assertStrongPassword(password: string, ownWords: string[], field = 'password'): Promise<void> {
  const weakness = await passwordWeakness(password, ownWords);
  if (weakness) throw new AppError('validation', WEAK_PASSWORD_MESSAGES[weakness], { [field]: WEAK_PASSWORD_MESSAGES[weakness] });
}
