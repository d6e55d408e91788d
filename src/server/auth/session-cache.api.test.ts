import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../tests/helpers/test-app';
import { session, user } from '../db/schema';
import { sessionStillHolds } from './revalidate-session';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache';
import { type CurrentSession, sessionTokenFrom } from './session';

const t = setupTestApp();

/** better-auth's own answer for a member's cookie: what the cache holds. */
async function lookedUp(cookie: string): Promise<CurrentSession> {
  const found = await t.app.auth.api.getSession({ headers: new Headers({ cookie }) });
  if (!found) throw new Error('no session');
  return found as unknown as CurrentSession;
}

describe('session cache', () => {
  it('serves a lookup fresh within its TTL, asks for a check after it, and never past the session’s expiry', () => {
    const cache = new SessionCache();
    const now = Date.now();
    const value = { user: { id: 'u1' }, session: { id: 's1', token: 'tok', expiresAt: new Date(now + 3_600_000) } } as CurrentSession;
    cache.set('tok', value, now);
    expect(cache.get('tok', now + 1000)).toEqual({ value, fresh: true });
    expect(cache.get('tok', now + SESSION_CACHE_TTL_MS + 1)).toEqual({ value, fresh: false });
    expect(cache.get('tok', now + 3_600_001)).toBeUndefined();
    expect(cache.get('tok', now + 1000)).toBeUndefined();
  });

  it('spreads expiries so sessions looked up together are not all checked at once', () => {
    const cache = new SessionCache();
    const now = Date.now();
    const expiresAt = new Date(now + 3_600_000);
    for (let i = 0; i < 200; i++)
      cache.set(`t${i}`, { user: { id: `u${i}` }, session: { id: `s${i}`, token: `t${i}`, expiresAt } } as CurrentSession, now);
    const freshAt = (ms: number) => Array.from({ length: 200 }, (_, i) => cache.get(`t${i}`, now + ms)?.fresh).filter(Boolean).length;
    expect(freshAt(SESSION_CACHE_TTL_MS * 0.74)).toBe(200);
    const halfway = freshAt(SESSION_CACHE_TTL_MS * 0.875);
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(200);
    expect(freshAt(SESSION_CACHE_TTL_MS)).toBe(0);
  });

  it('confirms a cached session with one read, and refuses it once anything a guard reads has changed', async () => {
    const m = await t.member('Rita Recheck');
    const cached = await lookedUp(m.cookie);
    expect(cached.session.token).toBe(decodeURIComponent(sessionTokenFrom(m.cookie) ?? '').split('.')[0]);
    expect(await sessionStillHolds(t.database, cached)).toBe(true);

    await t.database.db.update(user).set({ role: 'admin' }).where(eq(user.id, m.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(false);
    await t.database.db
      .update(user)
      .set({ role: cached.user.role ?? 'user' })
      .where(eq(user.id, m.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(true);

    await t.database.db.update(user).set({ banned: true }).where(eq(user.id, m.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(false);
    await t.database.db.update(user).set({ banned: false }).where(eq(user.id, m.id));

    await t.database.db.update(user).set({ emailVerified: false }).where(eq(user.id, m.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(false);
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, m.id));

    await t.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.id, cached.session.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(false);
    await t.database.db.delete(session).where(eq(session.id, cached.session.id));
    expect(await sessionStillHolds(t.database, cached)).toBe(false);
  });
});
