import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cookieHeader, createTestApp, TEST_PASSWORD, setupTestApp } from '../../../../tests/helpers/test-app';
import { COMMON_PASSWORD } from '../../../shared/schemas/auth';
import { SETTINGS_MESSAGES } from '../../../shared/schemas/settings';
import { promoteAdmins } from '../../auth/admins';
import { session, twoFactor, user } from '../../db/schema';
import { totpCode } from '../../../../tests/helpers/profile-fixtures';

const t = setupTestApp();

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Another sign-in of the same member, from another device. */
async function loginAgain(email: string, password = TEST_PASSWORD, userAgent = SAFARI_IPHONE) {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
  return { res, cookie: cookieHeader(res.headers['set-cookie']) };
}
const whoAmI = async (cookie: string) => (await t.request({ method: 'GET', url: '/api/auth/session', cookie })).json().user;

describe('change password', () => {
  const change = (cookie: string, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/me/password', cookie, payload });

  it('needs the right current password and a new one by the sign-up rules', async () => {
    const m = await t.member('Cass Password');
    let res = await change(m.cookie, { currentPassword: 'wrong-password-here', newPassword: 'a-brand-new-passphrase' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.currentPassword).toBe(SETTINGS_MESSAGES.currentPasswordWrong);
    res = await change(m.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'short' });
    expect(res.json().error.fields.newPassword).toBe('Password must be at least 8 characters');
    res = await change(m.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'qwertyuiop' });
    expect(res.json().error.fields.newPassword).toBe(COMMON_PASSWORD);
    res = await change(m.cookie, { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD });
    expect(res.json().error.fields.newPassword).toBe(SETTINGS_MESSAGES.samePassword);
    // Still the old password.
    expect((await loginAgain(m.email)).res.statusCode).toBe(200);
  });

  it('ends every other session, keeps this device signed in, and tells the member', async () => {
    const m = await t.member('Cole Changer');
    const other = await loginAgain(m.email);
    expect((await whoAmI(other.cookie))?.id).toBe(m.id);

    const res = await change(m.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'a-brand-new-passphrase' });
    expect(res.statusCode).toBe(200);
    const fresh = cookieHeader(res.headers['set-cookie']);
    expect(fresh).toContain('better-auth.session_token=');

    expect(await whoAmI(other.cookie)).toBeNull();
    expect(await whoAmI(m.cookie)).toBeNull();
    expect((await whoAmI(fresh))?.id).toBe(m.id);
    const rows = await t.database.db.select().from(session).where(eq(session.userId, m.id));
    expect(rows).toHaveLength(1);

    expect((await loginAgain(m.email)).res.statusCode).toBe(401);
    expect((await loginAgain(m.email, 'a-brand-new-passphrase')).res.statusCode).toBe(200);
    const [mail] = await t.mailsTo(m.email);
    expect(mail.subject).toBe('Your Fancy password was changed');
  });
});

describe('change email', () => {
  const change = (cookie: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/me/email', cookie, payload });

  it('needs the password; mails a link to the new address, tells the old one, and changes only when opened', async () => {
    const m = await t.member('Eve Email');
    const other = await loginAgain(m.email);
    const newEmail = `eve.new.${Date.now()}@example.com`;
    let res = await change(m.cookie, { newEmail, password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.password).toBe(SETTINGS_MESSAGES.currentPasswordWrong);
    expect(await t.mailsTo(newEmail)).toHaveLength(0);

    res = await change(m.cookie, { newEmail: m.email.toUpperCase(), password: TEST_PASSWORD });
    expect(res.json().error.fields.newEmail).toBe(SETTINGS_MESSAGES.sameEmail);
    res = await change(m.cookie, { newEmail: 'not-an-email', password: TEST_PASSWORD });
    expect(res.json().error.fields.newEmail).toBe('Please enter a valid email address');

    res = await change(m.cookie, { newEmail: ` ${newEmail.toUpperCase()} `, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, pendingEmail: newEmail });
    // Like a password change, every other device is signed out; this one stays.
    expect(await whoAmI(other.cookie)).toBeNull();
    expect((await whoAmI(m.cookie)).id).toBe(m.id);

    const [toNew] = await t.mailsTo(newEmail);
    expect(toNew.subject).toBe('Did you ask to use this address on Fancy?');
    expect(toNew.text).toContain('Not you? Ignore this email: nothing changes.');
    const [toOld] = await t.mailsTo(m.email);
    expect(toOld.subject).toBe('A change of email address was requested');
    expect(toOld.text).toContain(newEmail);
    // Nothing changes until the link is opened.
    expect((await whoAmI(m.cookie)).email).toBe(m.email);

    const link = new URL(await t.lastLinkTo(newEmail));
    const open = await t.request({ method: 'GET', url: link.pathname + link.search, cookie: m.cookie });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toBe('/settings?email=confirmed');
    const [row] = await t.database.db.select().from(user).where(eq(user.id, m.id));
    expect(row).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await loginAgain(newEmail)).res.statusCode).toBe(200);
    expect((await loginAgain(m.email)).res.statusCode).toBe(401);
  });

  it('a change link changes the address only for a browser signed in to the account that asked (never an admin role by another mailbox)', async () => {
    const attacker = await t.member('Mal Lory');
    const bystander = await t.member('Bea Stander');
    const boss = `boss.${Date.now()}@example.com`;
    expect((await change(attacker.cookie, { newEmail: boss, password: TEST_PASSWORD })).statusCode).toBe(200);
    const link = new URL(await t.lastLinkTo(boss));
    const row = async (id: string) => (await t.database.db.select().from(user).where(eq(user.id, id)))[0];

    // The owner of the mailbox opens it signed out: the login page, nothing changed.
    const signedOut = await t.request({ method: 'GET', url: link.pathname + link.search });
    expect(signedOut.statusCode).toBe(302);
    expect(signedOut.headers.location).toBe(`/auth/login?${new URLSearchParams({ change: link.searchParams.get('token') ?? '' })}`);
    expect(signedOut.headers['set-cookie']).toBeUndefined();
    // Opened in a browser signed in to another account: nothing changes there either.
    const elsewhere = await t.request({ method: 'GET', url: link.pathname + link.search, cookie: bystander.cookie });
    expect(elsewhere.statusCode).toBe(302);
    expect(elsewhere.headers.location).toBe('/settings?error=OTHER_ACCOUNT');
    expect(await row(attacker.id)).toMatchObject({ email: attacker.email, role: 'user' });
    expect(await row(bystander.id)).toMatchObject({ email: bystander.email });
    // A restart's ADMIN_EMAILS promotion finds no confirmed boss address.
    expect(await promoteAdmins(t.database.db, [boss])).toBe(0);
    expect((await row(attacker.id)).role).toBe('user');

    // The member who asked confirms by signing in to that account (the login page opens the link again).
    const signedIn = await loginAgain(attacker.email);
    const mine = await t.request({ method: 'GET', url: link.pathname + link.search, cookie: signedIn.cookie });
    expect(mine.headers.location).toBe('/settings?email=confirmed');
    expect(await row(attacker.id)).toMatchObject({ email: boss, emailVerified: true });
    // Every other session (the one that asked included) ends; the link works once.
    expect(await whoAmI(attacker.cookie)).toBeNull();
    const again = await t.request({ method: 'GET', url: link.pathname + link.search, cookie: signedIn.cookie });
    expect(again.headers.location).toBe('/settings?error=INVALID_TOKEN');
  });

  it('an ADMIN_EMAILS address never moves onto an existing account, even signed in to the account that asked', async () => {
    const a = await createTestApp({ ADMIN_EMAILS: 'chief@example.com' });
    try {
      const m = await a.member('Tricky Asker');
      const res = await a.request({
        method: 'POST',
        url: '/api/me/email',
        cookie: m.cookie,
        payload: { newEmail: 'chief@example.com', password: TEST_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      // The mailbox's owner, talked into signing in to the asker's account, opens the link there.
      const link = new URL(await a.lastLinkTo('chief@example.com'));
      const open = await a.request({ method: 'GET', url: link.pathname + link.search, cookie: m.cookie });
      expect(open.headers.location).toBe('/settings?error=ADMIN_ADDRESS');
      const [row] = await a.database.db.select().from(user).where(eq(user.id, m.id));
      expect(row).toMatchObject({ email: m.email, role: 'user' });
      expect(await promoteAdmins(a.database.db, ['chief@example.com'])).toBe(0);
    } finally {
      await a.close();
    }
  });

  it("an address already in use gets the same answer and no mail (no one learns who's a member)", async () => {
    const m = await t.member('Ned Newaddress');
    const taken = await t.member('Tia Taken');
    const before = (await t.mailsTo(taken.email)).length;
    const res = await change(m.cookie, { newEmail: taken.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, pendingEmail: taken.email });
    expect(await t.mailsTo(taken.email)).toHaveLength(before);
    const [row] = await t.database.db.select().from(user).where(eq(user.id, m.id));
    expect(row.email).toBe(m.email);
  });
});

describe('signed-in devices', () => {
  it('lists them with device and last activity, and signs one out or every other', async () => {
    const m = await t.member('Dev Ices');
    const phone = await loginAgain(m.email, TEST_PASSWORD, SAFARI_IPHONE);
    const laptop = await loginAgain(m.email, TEST_PASSWORD, CHROME_MAC);

    const res = await t.request({ method: 'GET', url: '/api/me/sessions', cookie: laptop.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = res.json().sessions as { id: string; device: string; current: boolean; lastActiveAt: string; createdAt: string }[];
    // t.member's login (which confirmed the address) signed in too: three in all.
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ current: true, device: 'Chrome on Mac' });
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.device)).toContain('Safari on iPhone');
    expect(JSON.stringify(list)).not.toMatch(/token/i);
    for (const s of list) expect(Number.isNaN(Date.parse(s.lastActiveAt))).toBe(false);

    // This device cannot be "signed out" from the list (that is Log out); a stranger's id is unknown.
    const self = await t.request({ method: 'DELETE', url: `/api/me/sessions/${list[0].id}`, cookie: laptop.cookie });
    expect(self.statusCode).toBe(400);
    const stranger = await t.member('Stan Ger');
    const phoneId = list.find((s) => s.device === 'Safari on iPhone')?.id as string;
    const foreign = await t.request({ method: 'DELETE', url: `/api/me/sessions/${phoneId}`, cookie: stranger.cookie });
    expect(foreign.statusCode).toBe(404);
    expect((await whoAmI(phone.cookie))?.id).toBe(m.id);

    const revoke = await t.request({ method: 'DELETE', url: `/api/me/sessions/${phoneId}`, cookie: laptop.cookie });
    expect(revoke.statusCode).toBe(200);
    expect(await whoAmI(phone.cookie)).toBeNull();
    expect((await whoAmI(m.cookie))?.id).toBe(m.id);

    const others = await t.request({ method: 'POST', url: '/api/me/sessions/revoke-others', cookie: laptop.cookie });
    expect(others.statusCode).toBe(200);
    expect(others.json().revoked).toBe(1);
    expect(await whoAmI(m.cookie)).toBeNull();
    expect((await whoAmI(laptop.cookie))?.id).toBe(m.id);
    const after = await t.request({ method: 'GET', url: '/api/me/sessions', cookie: laptop.cookie });
    expect(after.json().sessions).toHaveLength(1);
  });
});

describe('two-step verification (authenticator app)', () => {
  const post = (url: string, cookie: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url, cookie, payload });

  it('wrong codes are limited per session: another session of the member still turns it on', async () => {
    const m = await t.member('Tess Blocked');
    const thief = await loginAgain(m.email);
    const res = await post('/api/me/two-factor/enable', m.cookie, { password: TEST_PASSWORD });
    const { secret } = res.json() as { secret: string };
    const wrong = () => ('000000' === totpCode(secret) ? '111111' : '000000');
    for (let i = 0; i < 10; i++) expect((await post('/api/me/two-factor/verify', thief.cookie, { code: wrong() })).statusCode).toBe(400);
    expect((await post('/api/me/two-factor/verify', thief.cookie, { code: totpCode(secret) })).statusCode).toBe(429);
    expect((await post('/api/me/two-factor/verify', m.cookie, { code: totpCode(secret) })).statusCode).toBe(200);
  });

  it('enrol: password → QR secret and backup codes → a code turns it on; then sign-in asks for a code', async () => {
    const m = await t.member('Tom Totp');
    let res = await post('/api/me/two-factor/enable', m.cookie, { password: 'wrong-password-x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.password).toBe(SETTINGS_MESSAGES.currentPasswordWrong);

    res = await post('/api/me/two-factor/enable', m.cookie, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const { totpURI, secret, backupCodes } = res.json() as { totpURI: string; secret: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Fancy:/);
    expect(new URL(totpURI).searchParams.get('issuer')).toBe('Fancy');
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    expect(backupCodes).toHaveLength(10);
    // Not on until a code proves the app is set up.
    expect((await t.request({ method: 'GET', url: '/api/settings', cookie: m.cookie })).json().settings.twoFactorEnabled).toBe(false);
    expect((await loginAgain(m.email)).res.json()).toEqual({ ok: true });

    res = await post('/api/me/two-factor/verify', m.cookie, { code: '000000' === totpCode(secret) ? '111111' : '000000' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.code).toBe(SETTINGS_MESSAGES.codeWrong);
    res = await post('/api/me/two-factor/verify', m.cookie, { code: 'abc' });
    expect(res.json().error.fields.code).toBe(SETTINGS_MESSAGES.codeRequired);

    res = await post('/api/me/two-factor/verify', m.cookie, { code: totpCode(secret) });
    expect(res.statusCode).toBe(200);
    const cookie = cookieHeader(res.headers['set-cookie']);
    expect((await t.request({ method: 'GET', url: '/api/settings', cookie })).json().settings.twoFactorEnabled).toBe(true);
    const [row] = await t.database.db.select().from(twoFactor).where(eq(twoFactor.userId, m.id));
    expect(row.verified).toBe(true);
    expect(row.secret).not.toContain(secret);
    expect((await t.mailsTo(m.email))[0].subject).toBe('Two-step verification is on');

    // Sign-in: the password alone gives no session, only the two-factor step.
    const first = await loginAgain(m.email);
    expect(first.res.statusCode).toBe(200);
    expect(first.res.json()).toEqual({ ok: true, twoFactor: true });
    expect(await whoAmI(first.cookie)).toBeNull();
    expect(first.cookie).toContain('better-auth.two_factor=');

    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/two-factor',
      cookie: first.cookie,
      payload: { method: 'totp', code: totpCode(secret, Date.now() - 10 * 60_000) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(SETTINGS_MESSAGES.codeWrong);

    const ok = await t.request({
      method: 'POST',
      url: '/api/auth/two-factor',
      cookie: first.cookie,
      payload: { method: 'totp', code: totpCode(secret) },
    });
    expect(ok.statusCode).toBe(200);
    expect((await whoAmI(cookieHeader(ok.headers['set-cookie'])))?.id).toBe(m.id);

    // Without the password step there is nothing to verify.
    const cold = await t.request({ method: 'POST', url: '/api/auth/two-factor', payload: { method: 'totp', code: totpCode(secret) } });
    expect(cold.statusCode).toBe(401);
    expect(cold.json().error.message).toBe(SETTINGS_MESSAGES.twoFactorExpired);

    // A backup code works once.
    const second = await loginAgain(m.email);
    const backup = { method: 'backup', code: backupCodes[0] };
    const used = await t.request({ method: 'POST', url: '/api/auth/two-factor', cookie: second.cookie, payload: backup });
    expect(used.statusCode).toBe(200);
    expect((await whoAmI(cookieHeader(used.headers['set-cookie'])))?.id).toBe(m.id);
    const third = await loginAgain(m.email);
    const reused = await t.request({ method: 'POST', url: '/api/auth/two-factor', cookie: third.cookie, payload: backup });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(SETTINGS_MESSAGES.backupCodeWrong);

    // New backup codes replace the old ones.
    const fresh = await post('/api/me/two-factor/backup-codes', cookie, { password: TEST_PASSWORD });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().backupCodes).toHaveLength(10);
    const stale = await t.request({
      method: 'POST',
      url: '/api/auth/two-factor',
      cookie: third.cookie,
      payload: { method: 'backup', code: backupCodes[1] },
    });
    expect(stale.statusCode).toBe(400);

    // Turning it off needs the password; then the password alone signs in again.
    expect((await post('/api/me/two-factor/disable', cookie, { password: 'nope-nope-nope' })).statusCode).toBe(400);
    const off = await post('/api/me/two-factor/disable', cookie, { password: TEST_PASSWORD });
    expect(off.statusCode).toBe(200);
    expect((await loginAgain(m.email)).res.json()).toEqual({ ok: true });
    expect(await t.database.db.select().from(twoFactor).where(eq(twoFactor.userId, m.id))).toHaveLength(0);
  });

  it('refuses to enrol twice and to verify without starting', async () => {
    const m = await t.member('Una Enrolled');
    const none = await post('/api/me/two-factor/verify', m.cookie, { code: '123456' });
    expect(none.statusCode).toBe(400);
    const start = await post('/api/me/two-factor/enable', m.cookie, { password: TEST_PASSWORD });
    const verified = await post('/api/me/two-factor/verify', m.cookie, { code: totpCode(start.json().secret) });
    const cookie = cookieHeader(verified.headers['set-cookie']);
    const again = await post('/api/me/two-factor/enable', cookie, { password: TEST_PASSWORD });
    expect(again.statusCode).toBe(409);
  });
});
