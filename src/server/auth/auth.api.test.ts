import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cookieHeader, createTestApp, TEST_PASSWORD, type TestApp, setupTestApp } from '../../../tests/helpers/test-app';
import { verifyPassword } from 'better-auth/crypto';
import { account, session, user } from '../db/schema';
import { OWN_WORDS_PASSWORD } from '../../shared/schemas/auth';

const t = setupTestApp();

describe('register → verify → log in', () => {
  it('registers, mails a verification link, and the link verifies and signs in', async () => {
    const email = 'ada@example.com';
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        fullName: 'Ada Lovelace',
        email,
        password: TEST_PASSWORD,
        campaign: { utm_source: 'poster', utm_medium: '', utm_campaign: 'launch', campaign_code: 'LDN1', campaign_label: '' },
      },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(row.emailVerified).toBe(false);
    expect(row.utmSource).toBe('poster');
    expect(row.campaignCode).toBe('LDN1');
    expect(row.utmMedium).toBe('');

    const link = new URL(await t.lastLinkTo(email));
    expect(link.origin).toBe('http://localhost:3000');
    const verify = await t.request({ method: 'GET', url: link.pathname + link.search });
    expect(verify.statusCode).toBe(302);
    const target = new URL(verify.headers.location as string, 'http://localhost:3000');
    expect(target.pathname).toBe('/auth/login');
    const verifyToken = target.searchParams.get('verify');
    expect(verifyToken).toBe(link.searchParams.get('token'));
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD, verifyToken } });
    expect(login.statusCode).toBe(200);
    const cookie = cookieHeader(login.headers['set-cookie']);
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie });
    expect(session.json().user).toMatchObject({ email, emailVerified: true, role: 'user', name: 'Ada Lovelace' });
  });

  it('stores better-auth’s standard scrypt hash outside the test suites’ light one, and signs in with it', async () => {
    const a = await createTestApp({ PASSWORD_HASHING: 'standard' });
    try {
      const member = await a.member('Standard Hash');
      const [row] = await a.database.db.select({ password: account.password }).from(account).where(eq(account.userId, member.id));
      expect(row.password).not.toMatch(/^light\$/);
      expect(await verifyPassword({ hash: row.password ?? '', password: TEST_PASSWORD })).toBe(true);
      expect((await a.request({ method: 'GET', url: '/api/auth/session', cookie: member.cookie })).json().user.id).toBe(member.id);
    } finally {
      await a.close();
    }
  });

  it('answers the same for an existing address and mails its owner instead', async () => {
    const first = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'Grace', email: 'grace@example.com', password: TEST_PASSWORD },
    });
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'Grace', email: 'grace@example.com', password: 'another-long-pass' },
    });
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    const mails = await t.mailsTo('grace@example.com');
    expect(mails.map((m) => m.subject)).toEqual(['Someone tried to sign up with your address', 'Confirm your email for Fancy']);
  });

  it('rejects bad input with field messages and never a 500', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/register', payload: { fullName: '', email: 'nope', password: 'short' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation');
    expect(body.error.fields).toMatchObject({
      fullName: 'Please enter your name',
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
    });
    const long = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'x'.repeat(31), email: 'a@b.co', password: TEST_PASSWORD },
    });
    expect(long.json().error.fields.fullName).toBe('Name is too long');
    const noLetter = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: '🔥🔥🔥', email: 'a@b.co', password: TEST_PASSWORD },
    });
    expect(noLetter.statusCode).toBe(400);
    expect(noLetter.json().error.fields.fullName).toBe('Please use at least one letter in your name');
    const garbage = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('refuses common passwords', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'Pat', email: 'pat@example.com', password: 'qwerty123' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.password).toMatch(/too common/);
  });

  it('refuses what attackers try first: capitals, digits and symbols on common words, the member’s own name', async () => {
    for (const password of [
      'Password123!',
      'P@ssw0rd2024',
      'Summer2024!',
      'Welcome1!',
      'Iloveyou2!',
      'Lovelace1990',
      'Fancy2026!',
      'Liverpool2024!',
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: nextIp(),
        payload: { fullName: 'Ada Lovelace', email: 'weak@example.com', password },
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error.fields.password).toBe('That password is too common. Please choose one that is harder to guess.');
    }
    const strong = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: { fullName: 'Ada Lovelace', email: 'weak@example.com', password: 'velvet-otter-lantern' },
    });
    expect(strong.statusCode).toBe(200);
  });

  it('says so when what gives a password away is the member’s own name or address', async () => {
    for (const password of ['AdaLovelace2026!', 'lovelace.ada!']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: nextIp(),
        payload: { fullName: 'Ada Lovelace', email: 'ada.lovelace@example.com', password },
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error.fields.password, password).toBe(OWN_WORDS_PASSWORD);
    }
  });
});

/** Registers from its own network address; returns the verification link's token. */
async function register(app: TestApp, email: string, password = TEST_PASSWORD, fullName = 'Someone') {
  const res = await app.request({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: nextIp(),
    payload: { fullName, email, password },
  });
  expect(res.statusCode).toBe(200);
  return new URL(await app.lastLinkTo(email)).searchParams.get('token') as string;
}
let ipCounter = 0;
const nextIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const login = (app: TestApp, email: string, password: string, extra: Record<string, unknown> = {}, remoteAddress = nextIp()) =>
  app.request({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password, ...extra } });
const verified = async (email: string) => (await t.database.db.select().from(user).where(eq(user.email, email)))[0].emailVerified;

describe('verification model (docs/decisions/006)', () => {
  it('a session made before verification never becomes a member session', async () => {
    // Someone registers an address they do not own and keeps the unverified session.
    const email = 'owner1@example.com';
    const token = await register(t, email, 'squatter-secret-pass');
    const squatter = cookieHeader((await login(t, email, 'squatter-secret-pass')).headers['set-cookie']);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookie: squatter })).json().user.emailVerified).toBe(false);

    // The real owner opens the link: that alone confirms nothing and signs no one in.
    const open = await t.request({ method: 'GET', url: `/api/auth/verify-email?token=${token}&callbackURL=%2Fhome` });
    expect(open.statusCode).toBe(302);
    expect(cookieHeader(open.headers['set-cookie'])).toBe('');
    expect(await verified(email)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/stats', cookie: squatter })).statusCode).toBe(403);

    // Whoever confirms (link + password) gets the only session: the earlier one has ended.
    const confirm = await login(t, email, 'squatter-secret-pass', { verifyToken: token });
    expect(confirm.statusCode).toBe(200);
    expect(await verified(email)).toBe(true);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookie: squatter })).json().user).toBeNull();
    expect((await t.request({ method: 'GET', url: '/api/stats', cookie: squatter })).statusCode).toBe(401);
    const fresh = cookieHeader(confirm.headers['set-cookie']);
    expect((await t.request({ method: 'GET', url: '/api/stats', cookie: fresh })).statusCode).toBe(200);
  });

  it('a wrong password or another account’s token confirms nothing', async () => {
    const a = 'owner2@example.com';
    const tokenA = await register(t, a);
    expect((await login(t, a, 'not-the-password-1', { verifyToken: tokenA })).statusCode).toBe(401);
    const other = await t.member('Other', { verified: false });
    expect((await login(t, other.email, TEST_PASSWORD, { verifyToken: tokenA })).statusCode).toBe(200);
    expect(await verified(a)).toBe(false);
    expect(await verified(other.email)).toBe(false);
  });

  it('opening someone else’s verification link while signed in does not switch accounts', async () => {
    const me = await t.member('Signed In');
    const victimEmail = 'owner3@example.com';
    const token = await register(t, victimEmail);
    const open = await t.request({ method: 'GET', url: `/api/auth/verify-email?token=${token}&callbackURL=%2Fhome`, cookie: me.cookie });
    expect(open.statusCode).toBe(302);
    expect(open.headers['set-cookie']).toBeUndefined();
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: me.cookie });
    expect(session.json().user.email).toBe(me.email);
    expect(await verified(victimEmail)).toBe(false);
  });

  it('the registering browser is signed out by its link and confirms by signing in again', async () => {
    const email = 'owner4@example.com';
    const token = await register(t, email);
    const before = cookieHeader((await login(t, email, TEST_PASSWORD)).headers['set-cookie']);
    const open = await t.request({ method: 'GET', url: `/api/auth/verify-email?token=${token}`, cookie: before });
    expect(new URL(open.headers.location as string, 'http://x').searchParams.get('verify')).toBe(token);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookie: before })).json().user).toBeNull();
    expect((await login(t, email, TEST_PASSWORD, { verifyToken: token })).statusCode).toBe(200);
    expect(await verified(email)).toBe(true);
  });

  it('ADMIN_EMAILS gives the admin role only to a confirmed address', async () => {
    const a = await createTestApp({ ADMIN_EMAILS: 'chief@example.com' });
    try {
      const token = await register(a, 'chief@example.com');
      const early = cookieHeader((await login(a, 'chief@example.com', TEST_PASSWORD)).headers['set-cookie']);
      expect((await a.request({ method: 'GET', url: '/api/me/role', cookie: early })).json()).toEqual({ role: 'user' });
      const [row] = await a.database.db.select().from(user).where(eq(user.email, 'chief@example.com'));
      expect(row.role).toBe('user');
      const confirmed = await login(a, 'chief@example.com', TEST_PASSWORD, { verifyToken: token });
      const cookie = cookieHeader(confirmed.headers['set-cookie']);
      expect((await a.request({ method: 'GET', url: '/api/me/role', cookie })).json()).toEqual({ role: 'admin' });
      expect((await a.request({ method: 'GET', url: '/api/me/role', cookie: early })).json()).toEqual({ role: 'user' });
    } finally {
      await a.close();
    }
  });
});

describe('log in and out', () => {
  it('fails with a clear message on a wrong password, the same for unknown addresses', async () => {
    const m = await t.member('Lin');
    const wrong = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: m.email, password: 'not-the-password' } });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.message).toBe('Invalid email or password');
  });

  it('logs an unverified member in, but member APIs refuse them until verified', async () => {
    const m = await t.member('Unverified', { verified: false });
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: m.cookie });
    expect(session.json().user.emailVerified).toBe(false);
    const stats = await t.request({ method: 'GET', url: '/api/stats', cookie: m.cookie });
    expect(stats.statusCode).toBe(403);
  });

  it('logout ends the session on the server', async () => {
    const m = await t.member('Leaving');
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', cookie: m.cookie, payload: {} });
    expect(out.statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/stats', cookie: m.cookie });
    expect(after.statusCode).toBe(401);
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookie: m.cookie });
    expect(session.json().user).toBeNull();
  });

  it('limits sign-in attempts per address with Retry-After', async () => {
    const email = 'limited@example.com';
    let last = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password-1' } });
    for (let i = 0; i < 10; i++)
      last = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password-1' } });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json().error.code).toBe('rate_limited');
  });
});

describe('verification resend', () => {
  it('answers the same for unknown addresses and limits to once a minute', async () => {
    const m = await t.member('Resender', { verified: false });
    const before = (await t.mailsTo(m.email)).length;
    const ok = await t.request({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: m.email } });
    const unknown = await t.request({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: 'ghost@example.com' } });
    expect(ok.statusCode).toBe(200);
    expect(unknown.json()).toEqual(ok.json());
    expect((await t.mailsTo(m.email)).length).toBe(before + 1);
    const again = await t.request({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: m.email } });
    expect(again.statusCode).toBe(429);
  });
});

describe('password reset', () => {
  it('answers the same whatever the address, resets once, and ends other sessions', async () => {
    const m = await t.member('Forgetful');
    const known = await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: m.email } });
    const unknown = await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'nobody2@example.com' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());

    const link = new URL(await t.lastLinkTo(m.email));
    const landing = await t.request({ method: 'GET', url: link.pathname + link.search });
    expect(landing.statusCode).toBe(302);
    const target = new URL(landing.headers.location as string, 'http://localhost:3000');
    expect(target.pathname).toBe('/auth/reset-password');
    const token = target.searchParams.get('token') as string;

    const reset = await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'a-brand-new-secret' } });
    expect(reset.statusCode).toBe(200);
    const reuse = await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'another-brand-new' } });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.message).toMatch(/invalid or has expired/);

    const oldSession = await t.request({ method: 'GET', url: '/api/stats', cookie: m.cookie });
    expect(oldSession.statusCode).toBe(401);
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: m.email, password: 'a-brand-new-secret' } });
    expect(login.statusCode).toBe(200);
  });
});

describe('password reset links', () => {
  const resetToken = async (email: string) => {
    const res = await t.request({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: nextIp(), payload: { email } });
    expect(res.statusCode).toBe(200);
    const link = new URL(await t.lastLinkTo(email));
    return link.pathname.split('/').pop() as string;
  };

  it('once a newer reset link is used, every older one is dead', async () => {
    const m = await t.member('Twice Forgetful');
    const older = await resetToken(m.email);
    const newer = await resetToken(m.email);
    expect(older).not.toBe(newer);
    const reset = (token: string, password: string) =>
      t.request({ method: 'POST', url: '/api/auth/reset-password', remoteAddress: nextIp(), payload: { token, password } });
    expect((await reset(newer, 'the-newest-secret-1')).statusCode).toBe(200);
    const stale = await reset(older, 'an-older-link-secret');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.message).toMatch(/invalid or has expired/);
    expect((await login(t, m.email, 'the-newest-secret-1')).statusCode).toBe(200);
  });
});

describe('every password being set follows one rule', () => {
  it('a reset refuses a password built from the member’s own name or address, like sign-up and a change', async () => {
    const m = await t.member('Priya Sharma');
    const res = await t.request({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: nextIp(), payload: { email: m.email } });
    expect(res.statusCode).toBe(200);
    const token = new URL(await t.lastLinkTo(m.email)).pathname.split('/').pop() as string;
    const local = m.email.split('@')[0];
    const reset = (password: string) =>
      t.request({ method: 'POST', url: '/api/auth/reset-password', remoteAddress: nextIp(), payload: { token, password } });
    for (const password of ['Priya Sharma1!', 'priya sharma 1', `${local}!`]) {
      const weak = await reset(password);
      expect(weak.statusCode, password).toBe(400);
      // Not "too common": what gives it away is the member's own name or address, and they are told so.
      expect(weak.json().error.fields.password).toBe(OWN_WORDS_PASSWORD);
    }
    // Nothing was reset: the link still works, with a password of the member's own choosing.
    expect((await reset('velvet-otter-lantern')).statusCode).toBe(200);
    const change = await t.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: cookieHeader((await login(t, m.email, 'velvet-otter-lantern')).headers['set-cookie']),
      payload: { currentPassword: 'velvet-otter-lantern', newPassword: 'Priya Sharma1!' },
    });
    expect(change.json().error.fields.newPassword).toBe(OWN_WORDS_PASSWORD);
  });
});

describe('sign-in lockout (docs/decisions/006)', () => {
  it('a stranger’s failures do not lock the owner out from elsewhere', async () => {
    const m = await t.member('Targeted');
    const strangerIp = nextIp();
    let last = await login(t, m.email, 'guess-number-0', {}, strangerIp);
    for (let i = 1; i < 15; i++) last = await login(t, m.email, `guess-number-${i}`, {}, strangerIp);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json().error.code).toBe('rate_limited');
    // The stranger stays throttled even with the right password; the owner signs in from their own network.
    expect((await login(t, m.email, TEST_PASSWORD, {}, strangerIp)).statusCode).toBe(429);
    expect((await login(t, m.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts a guess before checking it: guesses fired in parallel never get past the limit (issue 32)', async () => {
    const m = await t.member('Raced');
    const strangerIp = nextIp();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(t, m.email, `parallel-guess-${i}`, {}, strangerIp)));
    const codes = results.map((r) => r.statusCode);
    // Five failures per network and address (failuresPerIpAndAddress); the rest refused unchecked.
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    // A right password is given back: the owner, from their own network, signs in more often than five times.
    const ownerIp = nextIp();
    for (let i = 0; i < 7; i++) expect((await login(t, m.email, TEST_PASSWORD, {}, ownerIp)).statusCode).toBe(200);
  });

  it('counts failures, not sign-ins: many members behind one network address can all sign in', async () => {
    const office = nextIp();
    const members = [await t.member('Office A'), await t.member('Office B'), await t.member('Office C'), await t.member('Office D')];
    // More sign-ins than the per-network failure limit (30), a few wrong passwords among them.
    for (let i = 0; i < 36; i++) {
      const m = members[i % members.length];
      if (i % 9 === 0) expect((await login(t, m.email, 'typo-in-password', {}, office)).statusCode).toBe(401);
      else expect((await login(t, m.email, TEST_PASSWORD, {}, office)).statusCode).toBe(200);
    }
  });
});

describe('mails to an address carry nothing someone else typed', () => {
  it('the name typed at sign-up never appears in mails to the address, and repeated sign-ups mail its owner once an hour', async () => {
    const email = 'owner5@example.com';
    await register(t, email, TEST_PASSWORD, 'Evil Spam Name');
    for (let i = 0; i < 3; i++) await register(t, email, 'another-long-pass', `Attacker ${i}`);
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: nextIp(), payload: { email } });
    const mails = await t.mailsTo(email);
    expect(mails.map((m) => m.subject).sort()).toEqual(
      ['Confirm your email for Fancy', 'Reset your Fancy password', 'Someone tried to sign up with your address'].sort(),
    );
    for (const mail of mails) {
      expect(mail.text).not.toMatch(/Evil|Spam|Attacker/);
      expect(mail.html).not.toMatch(/Evil|Spam|Attacker/);
    }
  });
});

describe('session records', () => {
  it('keep the connection’s address, not a client-sent X-Forwarded-For', async () => {
    const m = await t.member('Traveller');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.55.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.10' },
      payload: { email: m.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.db.select({ ip: session.ipAddress }).from(session).where(eq(session.userId, m.id));
    expect(rows.map((r) => r.ip)).toContain('10.55.0.1');
    expect(rows.map((r) => r.ip)).not.toContain('203.0.113.9');
  });

  it('honour X-Forwarded-For behind a trusted proxy (TRUST_PROXY)', async () => {
    const a = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const m = await a.member('Proxied');
      await a.request({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': '198.51.100.7' },
        payload: { email: m.email, password: TEST_PASSWORD },
      });
      const rows = await a.database.db.select({ ip: session.ipAddress }).from(session).where(eq(session.userId, m.id));
      expect(rows.map((r) => r.ip)).toContain('198.51.100.7');
    } finally {
      await a.close();
    }
  });
});

describe('roles and deletion', () => {
  it('reports role user by default and admin for admins', async () => {
    const m = await t.member('Plain');
    const a = await t.member('Boss', { admin: true });
    expect((await t.request({ method: 'GET', url: '/api/me/role', cookie: m.cookie })).json()).toEqual({ role: 'user' });
    expect((await t.request({ method: 'GET', url: '/api/me/role', cookie: a.cookie })).json()).toEqual({ role: 'admin' });
    expect((await t.request({ method: 'GET', url: '/api/me/role' })).json()).toEqual({ role: 'user' });
  });

  it('deletes only the signed-in account', async () => {
    const anon = await t.request({ method: 'DELETE', url: '/api/me' });
    expect(anon.statusCode).toBe(401);
    const m = await t.member('Goodbye');
    const del = await t.request({ method: 'DELETE', url: '/api/me', cookie: m.cookie });
    expect(del.statusCode).toBe(200);
    expect(await t.database.db.select().from(user).where(eq(user.id, m.id))).toEqual([]);
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: m.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(401);
  });
});

describe('origin check', () => {
  it('refuses state-changing requests from another site', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'a@b.co', password: 'whatever-pass' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });
});
