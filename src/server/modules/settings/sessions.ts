import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionView } from '../../../shared/schemas/settings';
import { toFetchHeaders } from '../../auth/session';
import type { Db } from '../../db/client';
import { session } from '../../db/schema';
import { AppError } from '../../http/errors';
import { describeDevice } from '../../lib/device';

/**
 * The member's signed-in devices, most recently used first. Read from the session table
 * directly (better-auth's list needs a "fresh" session and returns tokens; neither suits a
 * settings page). `lastActiveAt` is when the session was last extended (at most a day old).
 */
export async function listSessions(db: Db, userId: string, currentId: string, now = new Date()): Promise<SessionView[]> {
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, now)))
    .orderBy(desc(session.updatedAt));
  return rows
    .map((r) => ({
      id: r.id,
      device: describeDevice(r.userAgent),
      ipAddress: r.ipAddress || null,
      createdAt: r.createdAt.toISOString(),
      lastActiveAt: (r.id === currentId ? now : r.updatedAt).toISOString(),
      current: r.id === currentId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Signs one of the member's other devices out (through better-auth, by its token) and closes its sockets. */
export async function revokeSession(app: FastifyInstance, req: FastifyRequest, userId: string, currentId: string, sessionId: string) {
  if (sessionId === currentId) {
    throw new AppError('bad_request', 'This is the device you are using now. Use Log out to sign it out.');
  }
  const [row] = await app.deps.database.db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
  // Another member's session looks exactly like a missing one.
  if (!row) throw new AppError('not_found', 'That session has already ended.');
  await app.auth.api.revokeSession({ headers: toFetchHeaders(req), body: { token: row.token } });
  await app.realtime.closeSession(sessionId);
}

/** "Sign out everywhere else": every session of the member but this one. Returns how many ended. */
export async function revokeOtherSessions(app: FastifyInstance, req: FastifyRequest, userId: string, currentId: string): Promise<number> {
  const others = await app.deps.database.db
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.userId, userId), ne(session.id, currentId)));
  await app.auth.api.revokeOtherSessions({ headers: toFetchHeaders(req) });
  for (const { id } of others) await app.realtime.closeSession(id);
  return others.length;
}
