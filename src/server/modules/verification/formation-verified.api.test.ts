import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { dailyActivity, profiles, user } from '../../db/schema';
import { runFormation } from '../formation/job';
import { rowsOf } from '../../lib/sql';

/** Issue 21: "Place me only with verified members" and the formation job's invitations. */
const NOW = new Date('2026-11-25T12:00:00Z');

const t = setupTestApp();

async function seed(count: number, o: { verified: boolean; onlyVerified?: boolean }): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID().replace(/-/g, ''));
  const db = t.database.db;
  await db.insert(user).values(
    ids.map((id) => ({
      id,
      name: `Member ${id.slice(0, 6)}`,
      email: `${id}@example.com`,
      emailVerified: true,
      onboardingComplete: true,
    })),
  );
  await db.insert(profiles).values(
    ids.map((id, i) => ({
      id,
      fullName: `Member ${id.slice(0, 6)}`,
      onboardingCompleted: true,
      dob: `${1994 + (i % 4)}-05-10`,
      cityRegion: 'Camden',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Straight'],
      lookingFor: ['Friends'],
      interests: ['Board games'],
      availability: ['fri-evening'],
      preferences: o.onlyVerified ? { onlyVerified: true } : {},
    })),
  );
  await db.insert(dailyActivity).values(ids.map((id) => ({ userId: id, day: '2026-11-24' })));
  if (o.verified) {
    for (const id of ids) {
      await db.execute(sql`insert into member_verifications (user_id, status, method, model_version, verified_at)
        values (${id}, 'verified', 'test', 'test', now())`);
    }
  }
  return ids;
}

describe('formation and "only with verified members"', () => {
  const invitations = async () =>
    rowsOf<{ mixer_id: string; user_id: string; verified_only: boolean }>(
      await t.database.db.execute(
        sql`select i.mixer_id, i.user_id, m.verified_only from mixer_invitations i join mixers m on m.id = i.mixer_id`,
      ),
    );

  it('a group of verified members with one who asked for it forms a verified-only mixer', async () => {
    const [picky] = await seed(1, { verified: true, onlyVerified: true });
    const verified = await seed(7, { verified: true });
    const run = await runFormation(t.app, NOW);
    expect(run.skipped).toBeUndefined();
    const rows = await invitations();
    const mine = rows.find((r) => r.user_id === picky);
    expect(mine?.verified_only).toBe(true);
    const company = rows.filter((r) => r.mixer_id === mine?.mixer_id).map((r) => r.user_id);
    expect(company.sort()).toEqual([picky, ...verified].sort());
  });

  it('never invites that member together with someone unverified; other mixers stay open to everyone', async () => {
    const before = new Set((await invitations()).map((r) => r.mixer_id));
    const [picky] = await seed(1, { verified: true, onlyVerified: true });
    const verified = await seed(2, { verified: true });
    const plain = await seed(7, { verified: false });
    await runFormation(t.app, NOW);
    const rows = (await invitations()).filter((r) => !before.has(r.mixer_id));
    expect(rows.length).toBeGreaterThan(0);
    const mine = rows.find((r) => r.user_id === picky);
    if (mine) {
      const company = rows.filter((r) => r.mixer_id === mine.mixer_id).map((r) => r.user_id);
      for (const id of company) expect([picky, ...verified]).toContain(id);
    }
    for (const r of rows.filter((x) => x.mixer_id !== mine?.mixer_id)) {
      expect(r.verified_only).toBe(false);
      expect(r.user_id).not.toBe(picky);
    }
    expect(rows.some((r) => plain.includes(r.user_id))).toBe(true);
  });
});
