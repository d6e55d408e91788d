import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { compiledRead } from '../db/prepared';
import type { CurrentSession } from './session-types';

/** The session row (unexpired) and every user field a guard or handler reads, as cached. */
const readSession = compiledRead<
  {
    name: string;
    email: string;
    email_verified: boolean;
    image: string | null;
    role: string | null;
    banned: boolean | null;
    onboarding_complete: boolean;
    two_factor_enabled: boolean | null;
  },
  'id' | 'token'
>(
  (v) => sql`select u.name, u.email, u.email_verified, u.image, u.role, u.banned, u.onboarding_complete, u.two_factor_enabled
    from session s join "user" u on u.id = s.user_id
    where s.id = ${v.id} and s.token = ${v.token} and s.expires_at > now()`,
);

/**
 * Whether a cached session still holds, with one indexed read instead of better-auth's whole
 * lookup: the session row is still there and unexpired, and nothing a guard reads about its
 * member has changed. Anything else (gone, changed, suspended) answers false, and the caller
 * asks better-auth again, which stays the authority.
 */
export async function sessionStillHolds(database: Database, cached: CurrentSession): Promise<boolean> {
  const [row] = await readSession(database, { id: cached.session.id, token: cached.session.token });
  if (!row) return false;
  const u = cached.user as CurrentSession['user'] & { twoFactorEnabled?: boolean | null };
  return (
    row.name === u.name &&
    row.email === u.email &&
    row.email_verified === u.emailVerified &&
    (row.image ?? null) === (u.image ?? null) &&
    (row.role ?? null) === (u.role ?? null) &&
    Boolean(row.banned) === Boolean(u.banned) &&
    row.onboarding_complete === Boolean(u.onboardingComplete) &&
    Boolean(row.two_factor_enabled) === Boolean(u.twoFactorEnabled)
  );
}
