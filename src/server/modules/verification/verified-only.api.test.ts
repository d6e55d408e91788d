import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { MixerDetail, MixerPage } from '../../../shared/schemas/mixers';
import { VERIFIED_ONLY_MIXER } from '../../../shared/verification';
import { profiles } from '../../db/schema';

/** Issue 21: a verified-only mixer holds on list, detail and join; admins set it. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let count = 0;
async function person(verified: boolean) {
  const name = `Vera${++count} Test`;
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Friends'] })
    .where(eq(profiles.id, m.id));
  if (verified) {
    await t.database.db.execute(sql`insert into member_verifications (user_id, status, method, model_version, verified_at)
      values (${m.id}, 'verified', 'test', 'test', now())`);
  }
  return m;
}

const listed = async (cookie: string) =>
  ((await t.request({ method: 'GET', url: '/api/mixers?section=upcoming&limit=50', cookie })).json() as MixerPage).items.map((i) => i.id);

describe('Verified members only', () => {
  it('admins mark it; members without the badge are kept out with a way to get verified; verified members see and join it', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/mixers',
      cookie: admin.cookie,
      payload: {
        title: 'Verified board games',
        topic: 'Board games',
        theme: 'sunset',
        intent: 'Friends',
        startsAt: new Date(Date.now() + 48 * 3_600_000).toISOString(),
        durationMinutes: 60,
        maxParticipants: 8,
        verifiedOnly: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const mixer = created.json().mixer ?? created.json();
    expect(mixer.verifiedOnly).toBe(true);
    const id: string = mixer.id;

    const plain = await person(false);
    expect(await listed(plain.cookie)).not.toContain(id);
    const detail = await t.request({ method: 'GET', url: `/api/mixers/${id}`, cookie: plain.cookie });
    expect(detail.statusCode).toBe(403);
    expect(detail.json().error).toEqual({ code: 'verified_only', message: VERIFIED_ONLY_MIXER });
    const join = await t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: plain.cookie, payload: {} });
    expect(join.statusCode).toBe(403);
    expect(join.json().error.code).toBe('verified_only');

    const verified = await person(true);
    expect(await listed(verified.cookie)).toContain(id);
    const seen = await t.request({ method: 'GET', url: `/api/mixers/${id}`, cookie: verified.cookie });
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as MixerDetail).verifiedOnly).toBe(true);
    const joined = await t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: verified.cookie, payload: {} });
    expect(joined.statusCode).toBe(200);
    const after = (await t.request({ method: 'GET', url: `/api/mixers/${id}`, cookie: verified.cookie })).json() as MixerDetail;
    expect(after.participants.find((p) => p.id === verified.id)?.verified).toBe(true);
  });
});
