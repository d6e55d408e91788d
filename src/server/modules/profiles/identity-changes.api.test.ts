import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { IdentityChange } from '../../../shared/schemas/admin';
import { IDENTITY_AUDIT_ACTIONS, IDENTITY_CHANGE_LIMIT, IDENTITY_MESSAGES } from '../../../shared/schemas/profile';
import { auditLog, profiles } from '../../db/schema';

/**
 * Issue 32: after onboarding, gender identity and orientation/looking-for each change at most
 * twice in 30 days; every change is in the audit log and on the member's admin view, and
 * nowhere else.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Member = { id: string; email: string; cookie: string };
let count = 0;
async function member(onboardingCompleted = true): Promise<Member> {
  const name = `Ida${++count} Identity`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({
      fullName: name,
      onboardingCompleted,
      dob: '1993-09-09',
      cityRegion: 'Leeds',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Straight'],
      lookingFor: ['Dating'],
    })
    .where(eq(profiles.id, m.id));
  return m;
}
const edit = (m: Member, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: '/api/me/profile', cookie: m.cookie, payload });
const draft = (m: Member, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload });
async function profileOf(id: string) {
  const [row] = await t.database.db
    .select({ g: profiles.genderIdentities, o: profiles.sexualOrientations, l: profiles.lookingFor })
    .from(profiles)
    .where(eq(profiles.id, id));
  return row;
}
const auditOf = (id: string, action: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target, id), eq(auditLog.action, action)));

describe('identity changes', () => {
  it(`allows ${IDENTITY_CHANGE_LIMIT.changes} gender identity changes in ${IDENTITY_CHANGE_LIMIT.days} days, then refuses with a clear 429`, async () => {
    const m = await member();
    expect((await edit(m, { genderIdentities: ['Man'] })).statusCode).toBe(200);
    // The same value again is no change.
    expect((await edit(m, { genderIdentities: ['Man'] })).statusCode).toBe(200);
    expect((await edit(m, { genderIdentities: ['Woman'] })).statusCode).toBe(200);
    const refused = await edit(m, { genderIdentities: ['Man'], bio: 'A new bio' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(IDENTITY_MESSAGES.genderLimit);
    expect(refused.json().error.fields).toEqual({ genderIdentities: IDENTITY_MESSAGES.genderLimit });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing of the refused write was kept; the other routes that write the profile refuse too.
    expect((await profileOf(m.id)).g).toEqual(['Woman']);
    expect((await draft(m, { genderIdentities: ['Man'] })).statusCode).toBe(429);
    expect((await profileOf(m.id)).g).toEqual(['Woman']);
    // Orientation and looking-for have their own allowance (together).
    expect((await edit(m, { sexualOrientations: ['Bisexual'] })).statusCode).toBe(200);
    expect((await edit(m, { lookingFor: ['Dating', 'Friends'] })).statusCode).toBe(200);
    const third = await edit(m, { sexualOrientations: ['Straight'] });
    expect(third.statusCode).toBe(429);
    expect(third.json().error.message).toBe(IDENTITY_MESSAGES.orientationLimit);
    // Other fields still save.
    expect((await edit(m, { bio: 'Still editable' })).statusCode).toBe(200);
  });

  it('records each change in the audit log, and counts only the last 30 days', async () => {
    const m = await member();
    expect((await edit(m, { genderIdentities: ['Man'] })).statusCode).toBe(200);
    expect((await edit(m, { genderIdentities: ['Non-binary'] })).statusCode).toBe(200);
    const rows = await auditOf(m.id, IDENTITY_AUDIT_ACTIONS.gender);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.actorId === m.id)).toBe(true);
    const details = rows.map((r) => JSON.parse(r.details ?? '{}'));
    expect(details).toContainEqual({ from: { genderIdentities: ['Woman'] }, to: { genderIdentities: ['Man'] } });
    expect(details).toContainEqual({ from: { genderIdentities: ['Man'] }, to: { genderIdentities: ['Non-binary'] } });
    expect((await edit(m, { genderIdentities: ['Woman'] })).statusCode).toBe(429);
    // A change older than the window no longer counts.
    await t.database.db.execute(
      sql`update audit_log set created_at = now() - make_interval(days => ${IDENTITY_CHANGE_LIMIT.days + 1})
           where id = ${rows[0].id}`,
    );
    expect((await edit(m, { genderIdentities: ['Woman'] })).statusCode).toBe(200);
  });

  it('does not count choices made during onboarding', async () => {
    const m = await member(false);
    for (const g of [['Man'], ['Woman'], ['Man'], ['Woman']]) expect((await draft(m, { genderIdentities: g })).statusCode).toBe(200);
    expect(await auditOf(m.id, IDENTITY_AUDIT_ACTIONS.gender)).toHaveLength(0);
  });

  it('shows the changes to admins on the member, and to no other member', async () => {
    const m = await member();
    expect((await edit(m, { genderIdentities: ['Man'] })).statusCode).toBe(200);
    expect((await edit(m, { sexualOrientations: ['Gay'] })).statusCode).toBe(200);
    const admin = await t.member('Ada Admin', { admin: true });
    const res = await t.request({ method: 'GET', url: `/api/admin/members/${m.id}/identity-changes`, cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    const changes = res.json().changes as IdentityChange[];
    expect(changes).toEqual([
      expect.objectContaining({ kind: 'orientation', from: 'Straight · Dating', to: 'Gay · Dating' }),
      expect.objectContaining({ kind: 'gender', from: 'Woman', to: 'Man' }),
    ]);
    const other = await member();
    const forbidden = await t.request({ method: 'GET', url: `/api/admin/members/${m.id}/identity-changes`, cookie: other.cookie });
    expect(forbidden.statusCode).toBe(403);
    // The member's own card and its own views say nothing of it.
    const own = await t.request({ method: 'GET', url: '/api/profile', cookie: m.cookie });
    expect(own.body).not.toContain(IDENTITY_AUDIT_ACTIONS.gender);
  });

  it('lists the reported member’s identity changes on the admin report', async () => {
    const m = await member();
    const reporter = await member();
    expect((await edit(m, { genderIdentities: ['Man'] })).statusCode).toBe(200);
    const report = await t.request({
      method: 'POST',
      url: '/api/reports',
      cookie: reporter.cookie,
      payload: { userId: m.id, reason: 'Fake profile', details: 'Changes who they are to get into rooms.' },
    });
    expect(report.statusCode).toBeLessThan(300);
    const admin = await t.member('Ari Admin', { admin: true });
    const list = await t.request({ method: 'GET', url: '/api/admin/reports?status=open', cookie: admin.cookie });
    const item = (list.json().items as { reported: { id: string; identityChanges: IdentityChange[] } | null }[]).find(
      (r) => r.reported?.id === m.id,
    );
    expect(item?.reported?.identityChanges).toEqual([expect.objectContaining({ kind: 'gender', from: 'Woman', to: 'Man' })]);
  });
});
