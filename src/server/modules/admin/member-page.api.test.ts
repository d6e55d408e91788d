import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { ADMIN_MEMBER_MESSAGES, type AdminMemberDetail, type AdminMemberSearch } from '../../../shared/schemas/admin-members';
import { memberVerifications, moderationActions, profiles, reports } from '../../db/schema';

/** Issue 32: the admin member pages — search, and one member's account, identity changes and history. */
let t: TestApp;
let admin: { id: string; cookie: string };
let member: { id: string; email: string; cookie: string };
let reporter: { id: string; cookie: string };
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.member('Ada Admin', { admin: true });
  member = await t.member('Zora Quintessa');
  reporter = await t.member('Rita Reporter');
  await t.database.db
    .update(profiles)
    .set({
      fullName: 'Zora Quintessa',
      onboardingCompleted: true,
      dob: '1993-09-09',
      cityRegion: 'Leeds',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Straight'],
      lookingFor: ['Dating'],
    })
    .where(eq(profiles.id, member.id));
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) => t.request({ method: 'GET', url, cookie });

describe('admin member search', () => {
  it('finds members by part of the name or e-mail, any case, and says when nothing matches', async () => {
    const byName = await get('/api/admin/members?q=zORA%20quin', admin.cookie);
    expect(byName.statusCode).toBe(200);
    expect(byName.headers['cache-control']).toBe('no-store');
    const found = byName.json() as AdminMemberSearch;
    expect(found.members.map((m) => m.id)).toEqual([member.id]);
    expect(found.members[0]).toMatchObject({ name: 'Zora Quintessa', email: member.email, role: 'user', restricted: false });

    const byEmail = (await get(`/api/admin/members?q=${encodeURIComponent(member.email.toUpperCase())}`, admin.cookie)).json();
    expect(byEmail.members[0].id).toBe(member.id);

    // LIKE wildcards are taken literally.
    expect((await get('/api/admin/members?q=%25%25', admin.cookie)).json().members).toEqual([]);
    expect((await get('/api/admin/members?q=nobody-like-this', admin.cookie)).json()).toEqual({ members: [], more: false });
  });

  it('lists at most `limit` and says there are more', async () => {
    // Every test member's address has the same domain.
    const domain = encodeURIComponent(`@${member.email.split('@')[1]}`);
    const page = (await get(`/api/admin/members?q=${domain}&limit=1`, admin.cookie)).json() as AdminMemberSearch;
    expect(page.members).toHaveLength(1);
    expect(page.more).toBe(true);
  });

  it('refuses a query shorter than 2 characters, a missing one, control characters or a bad limit with 400', async () => {
    const short = await get('/api/admin/members?q=%20z%20', admin.cookie);
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.q).toBe(ADMIN_MEMBER_MESSAGES.searchShort);
    expect((await get('/api/admin/members', admin.cookie)).statusCode).toBe(400);
    expect((await get('/api/admin/members?q=zora&limit=0', admin.cookie)).statusCode).toBe(400);
    // A control character (NUL: PostgreSQL refuses it in text) is a clear 400, never a 500.
    expect((await get('/api/admin/members?q=zo%00ra', admin.cookie)).statusCode).toBe(400);
    expect((await get('/api/admin/members?q=zora&limit=abc', admin.cookie)).statusCode).toBe(400);
    expect((await get('/api/admin/members?q=zora&q=zora', admin.cookie)).statusCode).toBe(400);
  });
});

describe('admin member page', () => {
  it('shows the account, the verification, restrictions, identity changes (newest first) and moderation history', async () => {
    const edit = (payload: Record<string, unknown>) =>
      t.request({ method: 'PATCH', url: '/api/me/profile', cookie: member.cookie, payload });
    expect((await edit({ genderIdentities: ['Man'] })).statusCode).toBe(200);
    expect((await edit({ sexualOrientations: ['Gay'] })).statusCode).toBe(200);

    const db = t.database.db;
    await db.insert(memberVerifications).values({
      userId: member.id,
      status: 'verified',
      method: 'selfie',
      modelVersion: 'face-test-1',
      verifiedAt: new Date(),
    });
    const [report] = await db
      .insert(reports)
      .values({ reporterId: reporter.id, reportedId: member.id, reason: 'Spam or scam', details: 'Links' })
      .returning({ id: reports.id });
    await db.insert(reports).values({ reporterId: member.id, reportedId: reporter.id, reason: 'Rude' });
    await db.insert(moderationActions).values([
      {
        memberId: member.id,
        reportId: report.id,
        action: 'warn',
        rule: 'scams',
        actorId: admin.id,
        createdAt: new Date(Date.now() - 2 * DAY),
      },
      {
        memberId: member.id,
        reportId: report.id,
        action: 'mute',
        rule: 'contact',
        days: 7,
        endsAt: new Date(Date.now() + 7 * DAY),
        actorId: admin.id,
      },
      {
        memberId: member.id,
        action: 'suspend',
        rule: 'scams',
        days: 1,
        endsAt: new Date(Date.now() + DAY),
        reversedAt: new Date(),
        createdAt: new Date(Date.now() - DAY),
      },
    ]);

    const res = await get(`/api/admin/members/${member.id}`, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const d = res.json() as AdminMemberDetail;
    expect(d).toMatchObject({ id: member.id, name: 'Zora Quintessa', email: member.email, role: 'user' });
    expect(d.verification).toMatchObject({ status: 'verified', method: 'selfie', modelVersion: 'face-test-1' });
    expect(d.identityChanges.map((c) => c.kind)).toEqual(['orientation', 'gender']);
    expect(d.identityChanges[1]).toMatchObject({ from: 'Woman', to: 'Man' });
    expect(d.identityChanges[0].from).toContain('Straight');
    expect(d.identityChanges[0].to).toContain('Gay');
    expect(Date.parse(d.identityChanges[0].at)).toBeGreaterThanOrEqual(Date.parse(d.identityChanges[1].at));
    // Newest first; the reversed suspension is history, the running mute a restriction.
    expect(d.actions.map((a) => a.action)).toEqual(['mute', 'suspend', 'warn']);
    expect(d.actions.find((a) => a.action === 'suspend')?.reversedAt).not.toBeNull();
    expect(d.actions.find((a) => a.action === 'warn')).toMatchObject({ by: 'Ada Admin', reportId: report.id, rule: 'scams' });
    expect(d.restrictions).toEqual([expect.objectContaining({ kind: 'mute', rule: 'contact' })]);
    expect(d.restrictions[0].endsAt).not.toBeNull();
    expect(d.reports).toMatchObject({ total: 1, open: 1, made: 1 });
    expect(d.reports.latest[0]).toMatchObject({ id: report.id, reason: 'Spam or scam', status: 'open', reporter: 'Rita Reporter' });

    // The search shows the verified badge.
    const hit = (await get('/api/admin/members?q=quintessa', admin.cookie)).json() as AdminMemberSearch;
    expect(hit.members[0].verified).toBe(true);
  });

  it('answers 404 for an unknown member', async () => {
    const res = await get('/api/admin/members/no-such-member', admin.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(ADMIN_MEMBER_MESSAGES.notFound);
  });

  it('is for admins only: 401 signed out, 403 to members (their own page included)', async () => {
    for (const url of ['/api/admin/members?q=zora', `/api/admin/members/${member.id}`, '/api/admin/members?q=z']) {
      expect((await get(url)).statusCode).toBe(401);
      const asMember = await get(url, member.cookie);
      expect(asMember.statusCode).toBe(403);
      expect(asMember.json().error.code).toBe('forbidden');
    }
  });
});
