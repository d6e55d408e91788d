import type { BusMessage } from '../realtime/bus';
import type { CurrentSession } from './session-types';

/** How long a looked-up session is reused without asking the database again. */
export const SESSION_CACHE_TTL_MS = 15_000;
const MAX_ENTRIES = 50_000;

export interface CachedSession {
  value: CurrentSession;
  /** False once the TTL has passed: the caller confirms it against the database before use. */
  fresh: boolean;
}

/**
 * Session lookups cost better-auth a signature check and database reads on every request;
 * this keeps them for a few seconds per session token. Every revocation (logout, password
 * change or reset, revoked sessions, suspension, deletion) is published on the realtime bus,
 * so every instance evicts at once; the TTL only bounds a missed message.
 *
 * Each entry's TTL is spread over its last quarter, so sessions looked up together (every
 * socket of a busy evening reconnecting at once) do not all expire in the same instant.
 */
export class SessionCache {
  private entries = new Map<string, { value: CurrentSession; until: number }>();

  /** The cached session for this token, fresh or past its TTL; never one whose session expired. */
  get(token: string, now = Date.now()): CachedSession | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (hit.value.session.expiresAt.getTime() <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return { value: hit.value, fresh: now < hit.until };
  }

  set(token: string, value: CurrentSession, now = Date.now()) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { value, until: now + SESSION_CACHE_TTL_MS * (1 - Math.random() / 4) });
  }

  delete(token: string) {
    this.entries.delete(token);
  }

  evictUser(userId: string) {
    for (const [token, e] of this.entries) if (e.value.user.id === userId) this.entries.delete(token);
  }

  evictSession(sessionId: string) {
    for (const [token, e] of this.entries) if (e.value.session.id === sessionId) this.entries.delete(token);
  }

  onBusMessage(m: BusMessage) {
    if (m.kind === 'close-user' || m.kind === 'sessions-changed') this.evictUser(m.userId);
    else if (m.kind === 'close-session') this.evictSession(m.sessionId);
  }
}
