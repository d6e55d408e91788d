import { randomUUID } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SETTINGS_MESSAGES } from '../../shared/schemas/settings';
import { session, verification } from '../db/schema';
import { AppError } from '../http/errors';
import type { CurrentSession } from './session';

/**
 * Deleting the account and downloading the full export need the password within the last few
 * minutes (docs/decisions/006): signing in (every session starts with a password, plus a code
 * with two-step verification) or re-entering it (POST /api/me/reauthenticate). The mark lives in
 * better-auth's verification table, so every instance sees it.
 */
export const REAUTH_WINDOW_MS = 5 * 60_000;

const key = (sessionId: string) => `reauth:${sessionId}`;

export async function markReauthenticated(app: FastifyInstance, sessionId: string) {
  const db = app.deps.database.db;
  await db.delete(verification).where(eq(verification.identifier, key(sessionId)));
  await db
    .insert(verification)
    .values({ id: randomUUID(), identifier: key(sessionId), value: sessionId, expiresAt: new Date(Date.now() + REAUTH_WINDOW_MS) });
}

/** Throws 403 with SETTINGS_MESSAGES.reauthRequired unless this session proved the password within the window. */
export async function requireRecentAuth(app: FastifyInstance, me: CurrentSession) {
  const db = app.deps.database.db;
  const now = new Date();
  const [fresh] = await db
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.id, me.session.id), gt(session.createdAt, new Date(now.getTime() - REAUTH_WINDOW_MS))));
  if (fresh) return;
  const [mark] = await db
    .select({ id: verification.id })
    .from(verification)
    .where(and(eq(verification.identifier, key(me.session.id)), gt(verification.expiresAt, now)));
  if (!mark) throw new AppError('forbidden', SETTINGS_MESSAGES.reauthRequired);
}
