import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { MixerDetail, MixerPage } from '../../../shared/schemas/mixers';
import { VERIFIED_ONLY_MIXER } from '../../../shared/verification';
import { profiles } from '../../db/schema';

/** Issue 21: a verified-only mixer holds on list, detail and join; admins set it. */
const t = setupTestApp();

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

  it('"Place me only with verified members" keeps For you to mixers where everyone is verified', async () => {
    const now = Date.now();
    const make = async (title: string) => {
      const [row] = (
        (await t.database.db.execute(sql`insert into mixers (title, topic, status, intent, starts_at, ends_at, max_participants, tags)
          values (${title}, 'Hiking', 'scheduled', 'Friends', ${new Date(now + 24 * 3_600_000).toISOString()}::timestamptz,
                  ${new Date(now + 25 * 3_600_000).toISOString()}::timestamptz, 8, '{Hiking}') returning id`)) as unknown as {
          rows: { id: string }[];
        }
      ).rows;
      return row.id;
    };
    const withPlain = await make('Walk with anyone');
    const allVerified = await make('Walk with verified people');
    const plain = await person(false);
    const verifiedOne = await person(true);
    expect((await t.request({ method: 'POST', url: `/api/mixers/${withPlain}/join`, cookie: plain.cookie, payload: {} })).statusCode).toBe(
      200,
    );
    expect(
      (await t.request({ method: 'POST', url: `/api/mixers/${allVerified}/join`, cookie: verifiedOne.cookie, payload: {} })).statusCode,
    ).toBe(200);

    const me = await person(true);
    await t.database.db
      .update(profiles)
      .set({ interests: ['Hiking'], lookingFor: ['Friends'] })
      .where(eq(profiles.id, me.id));
    const forYou = async () =>
      ((await t.request({ method: 'GET', url: '/api/mixers?section=foryou&limit=50', cookie: me.cookie })).json() as MixerPage).items.map(
        (i) => i.id,
      );
    const before = await forYou();
    expect(before).toContain(withPlain);
    expect(before).toContain(allVerified);

    const saved = await t.request({ method: 'PATCH', url: '/api/settings', cookie: me.cookie, payload: { onlyVerified: true } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.preferences.onlyVerified).toBe(true);
    const after = await forYou();
    expect(after).not.toContain(withPlain);
    expect(after).toContain(allVerified);
  });
});
