import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD } from '../../../tests/helpers/test-app';
import { parseTrustProxy } from '../config';
import { session } from '../db/schema';

describe('TRUST_PROXY', () => {
  it('reads true as one proxy, a digit as that many, anything else as their addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('behind one proxy, the client cannot choose its address by writing X-Forwarded-For itself', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const m = await t.member('Behind Proxy');
      // An appending proxy (nginx's $proxy_add_x_forwarded_for) turns the client's own header
      // "203.0.113.N" into "203.0.113.N, <the address it saw>".
      const statuses: number[] = [];
      for (let i = 1; i <= 7; i++) {
        const res = await t.request({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.20` },
          payload: { email: m.email, password: 'wrong-password-guess' },
        });
        statuses.push(res.statusCode);
      }
      // Five failures per address and e-mail (decision 006), all counted against 198.51.100.20.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);

      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.30' },
        payload: { email: m.email, password: TEST_PASSWORD },
      });
      const ips = (await t.database.db.select({ ip: session.ipAddress }).from(session).where(eq(session.userId, m.id))).map((r) => r.ip);
      expect(ips).toContain('198.51.100.30');
      expect(ips).not.toContain('6.6.6.6');
    } finally {
      await t.close();
    }
  });

  it('refuses a value that is none of those, naming the variable', async () => {
    await expect(createTestApp({ TRUST_PROXY: 'yes please' })).rejects.toThrow(/TRUST_PROXY/);
  });
});
