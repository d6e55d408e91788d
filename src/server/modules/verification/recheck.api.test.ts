import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { face } from '../../../../tests/fixtures/faces';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { uploadMainPhoto, verificationRow, verifiedMember } from '../../../../tests/helpers/verification-fixtures';
import { mixerMemberships, mixers } from '../../db/schema';
import { badgeLost } from '../../lib/badge-lost';
import { MATCH_AT_065_METHOD, MATCH_BY_DISTANCE_METHOD, METHOD, recheckEarlierMatches } from './service';

/**
 * Issue 31: badges earned with today's liveness and an earlier match (0.65, then 0.78, by Human's
 * euclidean similarity) are re-checked in the background against today's match, from the kept face and the main photo it was checked against
 * (decision 031). Real faces (tests/fixtures/faces): B's kept face reads under today's bar against
 * A3's photo.
 */
const t = setupTestApp();

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const row = (userId: string) => verificationRow(t, userId);
const audits = async (userId: string) =>
  rows<{ action: string }>(await t.database.db.execute(sql`select action from audit_log where target = ${userId} order by id`)).map(
    (a) => a.action,
  );
const status = async (cookie: string) => (await t.request({ method: 'GET', url: '/api/verification', cookie })).json().status;
const earlierMatch = (userId: string, method = MATCH_AT_065_METHOD) =>
  t.database.db.execute(sql`update member_verifications set method = ${method} where user_id = ${userId}`);

describe('badges from before the raised match bar', () => {
  it('keeps a badge whose kept face matches the main photo by today’s bar, removes one that does not, and leaves the rest', async () => {
    const close = await verifiedMember(t, 'Kit Kept', { main: 'A3' });
    const under = await verifiedMember(t, 'Una Under', { main: 'A3', selfie: 'B' });
    const today = await verifiedMember(t, 'Tod Today', { main: 'A3', selfie: 'A1' });
    const moved = await verifiedMember(t, 'Mo Moved', { main: 'A3', selfie: 'A1' });
    const closeByDistance = await verifiedMember(t, 'Dee Distance', { main: 'A3' });
    const underByDistance = await verifiedMember(t, 'Dan Distance', { main: 'A3', selfie: 'B' });
    for (const m of [close, under, moved]) await earlierMatch(m.id);
    for (const m of [closeByDistance, underByDistance]) await earlierMatch(m.id, MATCH_BY_DISTANCE_METHOD);
    // The main photo changed since the badge was checked: the main-photo re-check's, not this one's.
    await t.database.db.execute(sql`update member_verifications set photo_key = 'elsewhere.webp' where user_id = ${moved.id}`);
    await t.database.db.execute(sql`update member_verifications set method = ${METHOD} where user_id = ${today.id}`);
    // Under's seat in a verified-only mixer goes with the badge.
    const [mixer] = await t.database.db
      .insert(mixers)
      .values({
        title: 'Verified only',
        topic: 'Testing',
        verifiedOnly: true,
        startsAt: new Date(Date.now() + 86_400_000),
        endsAt: new Date(Date.now() + 90_000_000),
        maxParticipants: 8,
      })
      .returning({ id: mixers.id });
    expect((await t.request({ method: 'POST', url: `/api/mixers/${mixer.id}/join`, cookie: under.cookie, payload: {} })).statusCode).toBe(
      200,
    );

    const removed = await recheckEarlierMatches(t.deps, t.app.faces);
    expect(removed.sort()).toEqual([under.id, underByDistance.id].sort());
    for (const id of removed) await badgeLost(t.app, id);

    for (const kept of [close, closeByDistance]) {
      expect(await row(kept.id)).toMatchObject({ status: 'verified', method: METHOD });
      expect(await audits(kept.id)).toContain('verification.recheck');
    }
    expect(await row(underByDistance.id)).toMatchObject({ status: 'revoked', revoked_reason: 'match_rechecked' });
    expect(await row(under.id)).toMatchObject({ status: 'revoked', revoked_reason: 'match_rechecked' });
    expect(await audits(under.id)).toContain('verification.revoke');
    expect(await status(under.cookie)).toMatchObject({ state: 'unverified', revoked: true, revokedReason: 'match_rechecked' });
    const [seat] = await t.database.db
      .select({ state: mixerMemberships.state })
      .from(mixerMemberships)
      .where(and(eq(mixerMemberships.mixerId, mixer.id), eq(mixerMemberships.userId, under.id)));
    expect(seat?.state ?? 'gone').not.toBe('joined');
    // Today's badge is not looked at; a changed main photo stays for its own re-check.
    expect(await row(today.id)).toMatchObject({ status: 'verified', method: METHOD });
    expect(await row(moved.id)).toMatchObject({ status: 'verified', method: MATCH_AT_065_METHOD });

    // A second run (another instance, or the next period) changes nothing.
    expect(await recheckEarlierMatches(t.deps, t.app.faces)).toEqual([]);
    expect(await row(close.id)).toMatchObject({ status: 'verified', method: METHOD });
  });

  it('a badge from the lower bar is not listed as an earlier check, and a new main photo of its face is compared, not refused', async () => {
    const m = await verifiedMember(t, 'Lou Lower', { main: 'A3' });
    await earlierMatch(m.id);
    const admin = await t.member('Abe Admin', { admin: true });
    const earlier = (await t.request({ method: 'GET', url: '/api/admin/verification/reviews', cookie: admin.cookie })).json().earlier;
    expect(earlier.map((e: { member: { id: string } }) => e.member.id)).not.toContain(m.id);
    expect((await uploadMainPhoto(t, m.cookie, await face('A3', { recrop: true }))).statusCode).toBe(200);
    expect((await status(m.cookie)).state).toBe('verified');
  });
});
