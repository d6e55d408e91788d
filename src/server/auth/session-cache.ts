import type { BusMessage } from '../realtime/bus';
import type { CurrentSession } from './session';

/** How long a looked-up session is reused without asking the database again. */
export const SESSION_CACHE_TTL_MS = 15_000;
const MAX_ENTRIES = 50_000;

/**
 * Session lookups cost better-auth a signature check and database reads on every request;
 * this keeps them for a few seconds per session token. Every revocation (logout, password
 * change or reset, revoked sessions, suspension, deletion) is published on the realtime bus,
 * so every instance evicts at once; the TTL only bounds a missed message.
 */
export class SessionCache {
  private entries = new Map<string, { value: CurrentSession; at: number }>();

  get(token: string): CurrentSession | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (Date.now() - hit.at > SESSION_CACHE_TTL_MS || hit.value.session.expiresAt.getTime() <= Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.value;
  }

  set(token: string, value: CurrentSession) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { value, at: Date.now() });
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

/** The session token from the Cookie header (better-auth's `token.signature` value), if any. */
export function sessionTokenFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const match = cookieHeader.match(/(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/);
  return match?.[1];
}
