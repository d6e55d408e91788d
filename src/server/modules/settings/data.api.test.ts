import { eq, like, sql } from 'drizzle-orm';
import { SETTINGS_MESSAGES } from '../../../shared/schemas/settings';
import { describe, expect, it } from 'vitest';
import { cookieHeader, TEST_PASSWORD, setupTestApp } from '../../../../tests/helpers/test-app';
import { png } from '../../../../tests/fixtures/images';
import {
  auditLog,
  blocks,
  campaigns,
  contactMessages,
  dailyActivity,
  fancies,
  interestSuggestions,
  mixerMessages,
  mixers,
  profiles,
  profileViews,
  reports,
  session,
  user,
  verification,
} from '../../db/schema';
import { completeProfile, sharedHistory, totpCode } from '../../../../tests/helpers/profile-fixtures';

const t = setupTestApp();

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Every (table, column) with a foreign key to "user"(id), from the database itself. */
async function userForeignKeys(): Promise<{ table: string; column: string }[]> {
  return rows<{ table: string; column: string }>(
    await t.database.db.execute(sql`
      select kcu.table_name as "table", kcu.column_name as "column"
        from information_schema.table_constraints tc
        join information_schema.key_column_usage kcu
          on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
        join information_schema.constraint_column_usage ccu
          on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
       where tc.constraint_type = 'FOREIGN KEY' and ccu.table_name = 'user' and ccu.column_name = 'id'
       order by 1, 2`),
  );
}

const upload = async (cookie: string, url: string, name: string) => {
  const boundary = '----fancy-test';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
    await png(64, 64),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.request({
    method: 'POST',
    url,
    cookie,
    payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
};

/** A member with a row in every table that can reference them, and photos in storage. */
async function busyMember() {
  const me = await t.member('Bea Busy');
  const other = await t.member('Otto Other');
  const third = await t.member('Thea Third');
  const { db } = t.database;
  await completeProfile(db, me.id, { cityRegion: 'Bath' });
  await completeProfile(db, other.id);
  expect((await upload(me.cookie, '/api/profile/avatar', 'me.png')).statusCode).toBe(200);
  expect((await upload(me.cookie, '/api/profile/photos', 'beach.png')).statusCode).toBe(200);
  const { mixerId, matchId } = await sharedHistory(db, me.id, other.id);
  await db.insert(mixerMessages).values({ mixerId, senderId: me.id, body: 'Roast potatoes are the point.' });
  await db.insert(fancies).values([
    { fromUserId: me.id, toUserId: other.id, mixerId },
    { fromUserId: third.id, toUserId: me.id, mixerId },
  ]);
  await db.insert(blocks).values([
    { blockerId: me.id, blockedId: third.id },
    { blockerId: third.id, blockedId: me.id },
  ]);
  await db.insert(reports).values([
    { reporterId: me.id, reportedId: third.id, reason: 'spam', details: 'Sent links to a shop.' },
    { reporterId: third.id, reportedId: me.id, reason: 'other', resolvedBy: me.id },
  ]);
  await db.insert(profileViews).values([
    { viewerId: other.id, viewedId: me.id, day: '2026-11-01' },
    { viewerId: third.id, viewedId: me.id, day: '2026-11-02' },
    { viewerId: me.id, viewedId: other.id, day: '2026-11-03' },
  ]);
  await db.insert(interestSuggestions).values({ userId: me.id, submittedInterest: 'Bell ringing', fullName: 'Bea Busy', decidedBy: me.id });
  await db.insert(contactMessages).values({ userId: me.id, name: 'Bea Busy', email: me.email, topic: 'account', message: 'Hello support' });
  await db.insert(auditLog).values([
    { actorId: me.id, action: 'test_action', target: 'x' },
    { action: 'mixer_reminder', target: `${mixerId}:${me.id}` },
  ]);
  await db.insert(dailyActivity).values({ userId: me.id, day: '2026-11-20' }).onConflictDoNothing();
  await db.insert(mixers).values({ title: 'Made by Bea', startsAt: new Date(), endsAt: new Date(Date.now() + 3600_000), createdBy: me.id });
  await db.insert(campaigns).values({ label: 'Bea posters', code: `BEA${Date.now()}`, createdBy: me.id });
  // Two-step verification on (the two_factor table).
  const start = await t.request({
    method: 'POST',
    url: '/api/me/two-factor/enable',
    cookie: me.cookie,
    payload: { password: TEST_PASSWORD },
  });
  const on = await t.request({
    method: 'POST',
    url: '/api/me/two-factor/verify',
    cookie: me.cookie,
    payload: { code: totpCode(start.json().secret) },
  });
  expect(on.statusCode).toBe(200);
  const cookie = cookieHeader(on.headers['set-cookie']);
  return { me: { ...me, cookie }, other, third, mixerId, matchId };
}

describe('Download my data', () => {
  it('is a dated JSON attachment with a section for every table that references the member, and no secrets', async () => {
    const { me, other, third, mixerId, matchId } = await busyMember();
    const res = await t.request({ method: 'GET', url: '/api/me/export', cookie: me.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="fancy-data-${today}.json"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();

    // Every table with a foreign key to the user has its section (the list comes from the database).
    const tables = [...new Set((await userForeignKeys()).map((f) => f.table))];
    expect(tables.length).toBeGreaterThanOrEqual(15);
    expect(
      ['user', ...tables].filter((table) => !(table in data)),
      'tables without a section',
    ).toEqual([]);

    expect(data.user).toMatchObject({ id: me.id, email: me.email, name: 'Bea Busy', twoFactorEnabled: true });
    expect(data.profiles).toMatchObject({ fullName: 'Bea Busy', cityRegion: 'Bath', dob: '1994-05-17' });
    expect(data.photos).toHaveLength(2);
    for (const p of data.photos) expect(p.url).toMatch(new RegExp(`^http://localhost:3000/api/files/${me.id}/.+\\?exp=\\d+&sig=`));
    expect(data.consents.termsAndPrivacyAcceptedAt).toBe(data.user.createdAt);
    expect(data.consents.campaignAttribution).toHaveProperty('utm_source');
    expect(data.session.length).toBeGreaterThan(0);
    expect(data.session[0]).toHaveProperty('device');
    expect(data.account).toEqual([expect.objectContaining({ signInMethod: 'email and password' })]);
    expect(data.two_factor).toEqual({ enabled: true, authenticatorApp: true });
    expect(data.mixer_memberships).toEqual([expect.objectContaining({ mixerId, state: 'joined' })]);
    expect(data.mixer_messages.map((m: { body: string }) => m.body)).toEqual(['Roast potatoes are the point.']);
    expect(data.fancies).toEqual([expect.objectContaining({ toUserId: other.id, toName: 'Otto' })]);
    expect(data.matches).toEqual([expect.objectContaining({ id: matchId, otherUserId: other.id, otherName: 'Otto' })]);
    expect(data.direct_messages.map((d: { direction: string }) => d.direction).sort()).toEqual(['received', 'sent']);
    expect(data.blocks).toEqual([expect.objectContaining({ blockedUserId: third.id })]);
    expect(data.reports).toEqual([expect.objectContaining({ reportedUserId: third.id, reason: 'spam' })]);
    expect(data.profile_views).toEqual({ viewsOfYourProfile: 2, profilesYouViewed: [{ viewedUserId: other.id, day: '2026-11-03' }] });
    expect(data.interest_suggestions).toEqual([expect.objectContaining({ submittedInterest: 'Bell ringing' })]);
    expect(data.contact_messages).toEqual([expect.objectContaining({ message: 'Hello support' })]);
    expect(data.audit_log.map((a: { action: string }) => a.action).sort()).toEqual(['mixer_reminder', 'test_action']);
    expect(data.daily_activity).toContain('2026-11-20');
    expect(data.mixers).toEqual([expect.objectContaining({ title: 'Made by Bea' })]);
    expect(data.campaigns).toEqual([expect.objectContaining({ label: 'Bea posters' })]);

    // Private to others: who fancied or blocked you, who reported you.
    const text = res.body;
    expect(text).not.toContain(`"fromUserId"`);
    expect(JSON.stringify(data.fancies)).not.toContain(third.id);
    expect(JSON.stringify(data.blocks)).not.toContain(`"blockerId"`);
    // No secrets.
    const [secrets] = rows<{ token: string; password: string; secret: string; backup_codes: string }>(
      await t.database.db.execute(sql`
        select s.token, a.password, f.secret, f.backup_codes
          from session s join account a on a.user_id = s.user_id join two_factor f on f.user_id = s.user_id
         where s.user_id = ${me.id} limit 1`),
    );
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
    expect(text).not.toMatch(/"(token|password|secret|backupCodes)"\s*:/);
  });

  it("holds the member's own data and nobody else's surname or private details", async () => {
    const me = await t.member('Mo Admin', { admin: true });
    const other = await t.member('Otto Surnameson');
    const { db } = t.database;
    await completeProfile(db, me.id, { cityRegion: 'Bath' });
    await completeProfile(db, other.id, { cityRegion: 'Penzance', dob: '1988-02-29', pronouns: 'he/him' });
    const { mixerId } = await sharedHistory(db, me.id, other.id);
    await db.insert(fancies).values({ fromUserId: me.id, toUserId: other.id, mixerId });
    await db.insert(mixerMessages).values({ mixerId, senderId: other.id, body: 'Otto writes in the group' });
    // An admin action about another member: its reason is that member's business.
    await db
      .insert(auditLog)
      .values({ actorId: me.id, action: 'member.suspend', target: other.id, details: '{"reason":"Otto private matter"}' });
    const res = await t.request({ method: 'GET', url: '/api/me/export', cookie: me.cookie });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.user.email).toBe(me.email);
    expect(data.matches).toEqual([expect.objectContaining({ otherUserId: other.id, otherName: 'Otto' })]);
    expect(data.audit_log).toEqual([expect.objectContaining({ action: 'member.suspend', target: other.id, details: null })]);
    for (const secret of ['Surnameson', other.email, '1988-02-29', 'Penzance', 'he/him', 'Otto writes in the group', 'Otto private matter'])
      expect(res.body, secret).not.toContain(secret);
  });

  it('is rate limited, and anonymous callers get 401', async () => {
    expect((await t.request({ method: 'GET', url: '/api/me/export' })).statusCode).toBe(401);
    const m = await t.member('Ray Peat');
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie })).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('Delete account', () => {
  it('leaves zero rows referencing the member, zero files under their folder, signs out and cannot log in again', async () => {
    const { me, other } = await busyMember();
    expect((await t.deps.storage.list(`${me.id}/`)).length).toBeGreaterThan(0);

    const res = await t.request({ method: 'DELETE', url: '/api/me', cookie: me.cookie });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/better-auth\.session_token=;/);

    for (const { table, column } of await userForeignKeys()) {
      const [{ n }] = rows<{ n: number }>(
        await t.database.db.execute(
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${me.id}`,
        ),
      );
      expect(n, `${table}.${column}`).toBe(0);
    }
    const [{ n: mentions }] = rows<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from audit_log where target like ${`%${me.id}%`}`),
    );
    expect(mentions).toBe(0);
    expect(await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, me.email))).toHaveLength(0);
    expect(await t.deps.storage.list(`${me.id}/`)).toEqual([]);

    // The other member keeps their account; the match and conversation are gone with Bea.
    const [theirs] = await t.database.db.select().from(profiles).where(eq(profiles.id, other.id));
    expect(theirs).toBeTruthy();
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookie: me.cookie })).json().user).toBeNull();
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: me.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(401);
  });

  it('a failure deletes nothing: rows and files stay, with the spec message', async () => {
    const { me } = await busyMember();
    const filesBefore = await t.deps.storage.list(`${me.id}/`);
    const { db } = t.database;
    // Make the last step (deleting the user row) fail inside the transaction.
    await db.execute(
      sql.raw(`create or replace function fancy_test_refuse_delete() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger fancy_test_refuse before delete on "user" for each row
        when (old.id = '${me.id}') execute function fancy_test_refuse_delete()`),
    );
    try {
      const res = await t.request({ method: 'DELETE', url: '/api/me', cookie: me.cookie });
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toBe('An error occurred while deleting your account. Please try again.');
    } finally {
      await db.execute(sql.raw('drop trigger fancy_test_refuse on "user"'));
      await db.execute(sql.raw('drop function fancy_test_refuse_delete()'));
    }
    expect(await db.select().from(contactMessages).where(eq(contactMessages.userId, me.id))).toHaveLength(1);
    const [{ n }] = rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from audit_log where action = 'mixer_reminder' and target like ${`%:${me.id}`}`),
    );
    expect(n).toBe(1);
    expect(await db.select().from(profiles).where(eq(profiles.id, me.id))).toHaveLength(1);
    expect(await t.deps.storage.list(`${me.id}/`)).toEqual(filesBefore);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookie: me.cookie })).json().user?.id).toBe(me.id);
  });
});

describe('recent re-authentication for deletion and the export (docs/decisions/006)', () => {
  /** A member whose sign-in was longer ago than the re-authentication window. */
  async function signedInLongAgo(name: string) {
    const m = await t.member(name);
    await t.database.db
      .update(session)
      .set({ createdAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(session.userId, m.id));
    return m;
  }
  const reauth = (cookie: string, password: string) =>
    t.request({ method: 'POST', url: '/api/me/reauthenticate', cookie, payload: { password } });

  it('the export asks for the password again, then downloads', async () => {
    const m = await signedInLongAgo('Exporter Later');
    const refused = await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'forbidden', message: SETTINGS_MESSAGES.reauthRequired });
    const wrong = await reauth(m.cookie, 'not-my-password-9');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toBe(SETTINGS_MESSAGES.currentPasswordWrong);
    expect((await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie })).statusCode).toBe(403);
    expect((await reauth(m.cookie, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie })).statusCode).toBe(200);
  });

  it('deleting the account asks for the password again; the mark is for this device only and expires', async () => {
    const m = await signedInLongAgo('Leaver Later');
    const other = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.88.0.1',
      payload: { email: m.email, password: TEST_PASSWORD },
    });
    const otherCookie = cookieHeader(other.headers['set-cookie']);
    await t.database.db
      .update(session)
      .set({ createdAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(session.userId, m.id));

    const refused = await t.request({ method: 'DELETE', url: '/api/me', cookie: m.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(SETTINGS_MESSAGES.reauthRequired);
    expect(await t.database.db.select().from(user).where(eq(user.id, m.id))).toHaveLength(1);

    expect((await reauth(otherCookie, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/api/me', cookie: m.cookie })).statusCode).toBe(403);
    // The other device's mark lapses after the window.
    await t.database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verification.identifier, 'reauth:%'));
    expect((await t.request({ method: 'DELETE', url: '/api/me', cookie: otherCookie })).statusCode).toBe(403);

    expect((await reauth(m.cookie, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/api/me', cookie: m.cookie })).statusCode).toBe(200);
    expect(await t.database.db.select().from(user).where(eq(user.id, m.id))).toEqual([]);
  });

  it('wrong passwords are limited per session: a stolen session blocks only itself; several together hit a per-member cap', async () => {
    const m = await t.member('Owner Blocked');
    let ip = 0;
    const signIn = async () =>
      cookieHeader(
        (
          await t.request({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: `10.89.0.${++ip}`,
            payload: { email: m.email, password: TEST_PASSWORD },
          })
        ).headers['set-cookie'],
      );
    const [thief, second, third] = [await signIn(), await signIn(), await signIn()];
    for (let i = 0; i < 10; i++) expect((await reauth(thief, `wrong-guess-${i}`)).statusCode).toBe(400);
    const blocked = await reauth(thief, TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('rate_limited');
    // The owner's other sessions are not blocked, for re-authenticating or for any other password check.
    expect((await reauth(m.cookie, TEST_PASSWORD)).statusCode).toBe(200);
    const enable = await t.request({
      method: 'POST',
      url: '/api/me/two-factor/enable',
      cookie: m.cookie,
      payload: { password: 'wrong-again-1' },
    });
    expect(enable.statusCode).toBe(400);
    // 30 failures across the member's sessions stop every session for a while.
    for (let i = 0; i < 10; i++) await reauth(second, `wrong-guess-b${i}`);
    for (let i = 0; i < 8; i++) await reauth(third, `wrong-guess-c${i}`);
    expect((await reauth(third, 'wrong-guess-c9')).statusCode).toBe(400);
    expect((await reauth(m.cookie, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('asks anonymous callers to log in', async () => {
    expect((await t.request({ method: 'POST', url: '/api/me/reauthenticate', payload: {} })).statusCode).toBe(401);
  });
});
