import { and, eq, ne, sql } from 'drizzle-orm';
import { verifyJWT } from 'better-auth/crypto';
import type { FastifyInstance } from 'fastify';
import { session, user } from '../db/schema';

/**
 * The address-verification model (docs/decisions/006): a sign-up verification link proves the
 * mailbox, the password proves who set up the account; only both together confirm the address.
 * So the link never signs a browser in by itself: it leads to the login page, and the sign-in
 * that carries the link's token confirms the address, keeps its own new session and ends
 * every other one. Roles from ADMIN_EMAILS are granted at that moment, never before.
 */

/** The claims of a verification token signed with the app's secret (any kind), or null when invalid or expired. */
async function readToken(app: FastifyInstance, token: string) {
  if (!token || token.length > 4096) return null;
  const { secret } = await app.auth.$context;
  return verifyJWT<{ email?: unknown; userId?: unknown; updateTo?: unknown; requestType?: unknown }>(token, secret);
}

interface SignupClaims {
  email: string;
  userId: string;
}

/** The claims of a sign-up verification token (not an e-mail change), or null when invalid or expired. */
export async function readSignupToken(app: FastifyInstance, token: string): Promise<SignupClaims | null> {
  const payload = await readToken(app, token);
  if (!payload || payload.updateTo || payload.requestType) return null;
  if (typeof payload.email !== 'string' || typeof payload.userId !== 'string') return null;
  return { email: payload.email.toLowerCase(), userId: payload.userId };
}

interface ChangeClaims {
  /** The member who asked for the change. */
  userId: string;
  /** Their address when they asked (the token dies once it changes). */
  email: string;
  /** The new address, proven by the link. */
  updateTo: string;
}

/**
 * The claims of one of better-auth's e-mail change tokens (those carry `updateTo`), or null for any
 * other token. Only the app applies them (applyEmailChange): better-auth's own handler would confirm
 * the change for whoever opens the link, signed in or not.
 */
export async function readChangeToken(app: FastifyInstance, token: string): Promise<ChangeClaims | null> {
  const payload = await readToken(app, token);
  if (!payload?.updateTo) return null;
  const { email, updateTo, userId, requestType } = payload;
  if (requestType !== 'change-email-verification') return null;
  if (typeof email !== 'string' || typeof updateTo !== 'string' || typeof userId !== 'string') return null;
  return { userId, email: email.toLowerCase(), updateTo: updateTo.toLowerCase() };
}

/**
 * Applies an e-mail change for `keepSessionId`'s member, who must be the member who asked: the link
 * proves the new mailbox, that session proves the account (docs/decisions/006). The address must
 * still be the one the token was made for and the new one still free. The new address is
 * confirmed; no role changes; every other session of the member ends.
 */
export async function applyEmailChange(
  app: FastifyInstance,
  claims: ChangeClaims,
  current: { userId: string; sessionId: string },
): Promise<'changed' | 'invalid' | 'admin-address'> {
  if (current.userId !== claims.userId) return 'invalid';
  // An ADMIN_EMAILS address never moves onto an existing account (its owner could be talked into
  // signing in to someone else's): it comes with a sign-up confirmed at that address, or the CLI.
  const admins = app.deps.config.adminEmails.map((e) => e.trim().toLowerCase());
  if (admins.includes(claims.updateTo)) return 'admin-address';
  const db = app.deps.database.db;
  const [taken] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, claims.updateTo));
  if (taken) return 'invalid';
  let changed: { id: string }[];
  try {
    changed = await db
      .update(user)
      .set({ email: claims.updateTo, emailVerified: true, updatedAt: sql`now()` })
      .where(and(eq(user.id, claims.userId), eq(sql`lower(${user.email})`, claims.email)))
      .returning({ id: user.id });
  } catch {
    return 'invalid'; // Taken in the meantime (unique address).
  }
  if (!changed.length) return 'invalid';
  await db.delete(session).where(and(eq(session.userId, claims.userId), ne(session.id, current.sessionId)));
  // Cached sessions still carry the old address.
  await app.realtime.sessionsChanged(claims.userId);
  return 'changed';
}

/**
 * Confirms the address of `claims.userId` (still the address the token was made for), grants the
 * ADMIN_EMAILS role, and ends every session of the member but `keepSessionId`. Returns whether
 * the address was confirmed now.
 */
export async function confirmAddress(app: FastifyInstance, claims: SignupClaims, keepSessionId: string): Promise<boolean> {
  const db = app.deps.database.db;
  const admins = app.deps.config.adminEmails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  const isAdmin = admins.includes(claims.email);
  const confirmed = await db
    .update(user)
    .set({ emailVerified: true, ...(isAdmin && { role: 'admin' }), updatedAt: sql`now()` })
    .where(and(eq(user.id, claims.userId), eq(sql`lower(${user.email})`, claims.email), eq(user.emailVerified, false)))
    .returning({ id: user.id });
  if (!confirmed.length) return false;
  await db.delete(session).where(and(eq(session.userId, claims.userId), ne(session.id, keepSessionId)));
  // Cached copies of the ended sessions (and of the kept one, still marked unverified) go on every instance.
  await app.realtime.sessionsChanged(claims.userId);
  return true;
}
