import type { FastifyReply, FastifyRequest } from 'fastify';
import { dailyActivity } from '../db/schema';
import { AppError } from '../http/errors';
import { sessionStillHolds } from './revalidate-session';
import type { CurrentSession } from './session-types';

/** Headers a client could send to pass for another address; better-auth only sees CLIENT_IP_HEADER. */
const SPOOFABLE_IP_HEADERS = new Set(['x-forwarded-for', 'x-real-ip', 'forwarded', 'cf-connecting-ip', 'true-client-ip']);
/** Carries Fastify's `req.ip` (which honours TRUST_PROXY) to better-auth, e.g. for session records. */
export const CLIENT_IP_HEADER = 'x-fancy-client-ip';

export function toFetchHeaders(req: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || SPOOFABLE_IP_HEADERS.has(k) || k === CLIENT_IP_HEADER) continue;
    if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    else headers.set(k, String(v));
  }
  // better-auth validates the Origin of cookie-bearing requests; server-to-server calls
  // (tests, CLI) have no Origin, and our own origin check has already run.
  if (!headers.has('origin')) headers.set('origin', req.server.deps.config.publicUrl);
  if (req.ip) headers.set(CLIENT_IP_HEADER, req.ip);
  return headers;
}

/** Copies better-auth's Set-Cookie headers onto the Fastify reply. */
export function forwardCookies(from: Headers, reply: FastifyReply) {
  const cookies = from.getSetCookie();
  if (cookies.length) reply.header('set-cookie', cookies);
}

export type { CurrentSession } from './session-types';

/** The session token from the Cookie header (better-auth's `token.signature` value), if any. */
export function sessionTokenFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const match = cookieHeader.match(/(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/);
  return match?.[1];
}

const SESSION_KEY = Symbol('session');

/** The signed-in member of this request, or null. Looked up once per request. */
export async function getSession(req: FastifyRequest): Promise<CurrentSession | null> {
  const cached = (req as unknown as Record<symbol, CurrentSession | null | undefined>)[SESSION_KEY];
  if (cached !== undefined) return cached;
  const token = sessionTokenFrom(req.headers.cookie);
  const cache = req.server.sessionCache;
  const hit = token ? cache.get(token) : undefined;
  let result: CurrentSession | null = hit?.fresh ? hit.value : null;
  if (hit && !hit.fresh && token && (await sessionStillHolds(req.server.deps.database, hit.value))) {
    result = hit.value;
    cache.set(token, result);
  }
  if (!result && token) {
    result = (await req.server.auth.api.getSession({ headers: toFetchHeaders(req) })) as CurrentSession | null;
    if (result) cache.set(token, result);
    else cache.delete(token);
  }
  (req as unknown as Record<symbol, CurrentSession | null>)[SESSION_KEY] = result;
  if (result) noteActive(req, result.user.id);
  return result;
}

const seenToday = new Set<string>();

/** The UTC calendar day ('YYYY-MM-DD') that per-day records use, computed here so PostgreSQL and PGlite agree. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);

/** Records the member as active today (daily active members), once per day per instance. */
function noteActive(req: FastifyRequest, userId: string) {
  const day = utcDay();
  const key = `${day}:${userId}`;
  if (seenToday.has(key)) return;
  if (seenToday.size > 100_000) seenToday.clear();
  seenToday.add(key);
  req.server.deps.database.db
    .insert(dailyActivity)
    .values({ userId, day })
    .onConflictDoNothing()
    .catch((err: unknown) => req.log.warn({ err }, 'could not record daily activity'));
}

/** Guards (DESIGN §3): signed in → e-mail verified → (onboarded) → admin. */
export async function requireSession(req: FastifyRequest): Promise<CurrentSession> {
  const session = await getSession(req);
  if (!session) throw new AppError('unauthenticated', 'Please log in to continue.');
  return session;
}

export async function requireVerified(req: FastifyRequest): Promise<CurrentSession> {
  const session = await requireSession(req);
  if (!session.user.emailVerified) throw new AppError('forbidden', 'Please confirm your email address first.');
  return session;
}

export async function requireAdmin(req: FastifyRequest): Promise<CurrentSession> {
  const session = await requireVerified(req);
  if (session.user.role !== 'admin') throw new AppError('forbidden', 'Only admins can do that.');
  return session;
}
