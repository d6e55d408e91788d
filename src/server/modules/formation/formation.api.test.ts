import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { dailyActivity, mixerMemberships, mixers, profiles, user } from '../../db/schema';
import { seedReferenceData } from '../../db/seed/reference';
import { rowsOf } from '../../lib/sql';
import { MAX_UPCOMING_MIXERS } from '../../../shared/schemas/mixers';
import { loadCandidates, runFormation } from './job';

const NOW = new Date('2026-11-25T12:00:00Z'); // Wednesday noon (GMT)
const FRIDAY_EVENING = '2026-11-27T19:30:00.000Z';

const t = setupTestApp();

interface Seed {
  verified?: boolean;
  banned?: boolean;
  active?: boolean;
  city?: string;
  availability?: string[];
  interests?: string[];
  lookingFor?: string[];
}

/** Onboarded members straight into the tables (the job reads only the database). */
async function seedMembers(count: number, o: Seed = {}): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID().replace(/-/g, ''));
  const db = t.database.db;
  await db.insert(user).values(
    ids.map((id) => ({
      id,
      name: `Member ${id.slice(0, 6)}`,
      email: `${id}@example.com`,
      emailVerified: o.verified ?? true,
      banned: o.banned ?? false,
      onboardingComplete: true,
    })),
  );
  await db.insert(profiles).values(
    ids.map((id, i) => ({
      id,
      fullName: `Member ${id.slice(0, 6)}`,
      onboardingCompleted: true,
      dob: `${1994 + (i % 4)}-05-10`,
      cityRegion: o.city ?? 'Camden',
      genderIdentities: ['Woman'],
      sexualOrientations: ['Straight'],
      lookingFor: o.lookingFor ?? ['Friends'],
      interests: o.interests ?? ['Board games'],
      availability: o.availability ?? ['fri-evening'],
    })),
  );
  if (o.active !== false) await db.insert(dailyActivity).values(ids.map((id) => ({ userId: id, day: '2026-11-24' })));
  return ids;
}

const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await t.database.db.execute(query))[0].n);

describe('the formation job', () => {
  let mixerId: string;
  let invited: string[];
  const left: string[] = [];

  it('forms a mixer from members who share a slot and a topic, with pending invitations and audit rows', async () => {
    invited = await seedMembers(8);
    const [unverified] = await seedMembers(1, { verified: false });
    const [banned] = await seedMembers(1, { banned: true });
    const [inactive] = await seedMembers(1, { active: false });
    left.push(unverified, banned, inactive);

    const run = await runFormation(t.app, NOW);
    expect(run.skipped).toBeUndefined();
    expect(run.mixers).toHaveLength(1);
    expect(run.invitations).toHaveLength(8);
    mixerId = run.mixers[0];

    const [m] = rowsOf<Record<string, unknown>>(
      await t.database.db.execute(sql`
        select title, topic, intent, origin, formation_key, audience_region, age_min, age_max, seat_plan, max_participants, icebreaker, theme,
               status, to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as starts_at,
               extract(epoch from ends_at - starts_at) as seconds
          from mixers where id = ${mixerId}`),
    );
    expect(m).toMatchObject({
      title: 'Board Game Natter',
      topic: 'Board games',
      intent: 'Friends',
      origin: 'auto',
      audience_region: 'Greater London',
      max_participants: 8,
      status: 'scheduled',
      starts_at: FRIDAY_EVENING,
      theme: 'berry',
    });
    expect(Number(m.seconds)).toBe(3600);
    expect(m.seat_plan).toEqual([]);
    expect(m.icebreaker).toMatch(/board game/);
    expect(m.formation_key).toMatch(/^Board games\|Greater London\|Friends\|open\|/);
    expect(Number(m.age_min)).toBeLessThanOrEqual(26);
    expect(Number(m.age_max)).toBeGreaterThanOrEqual(32);

    const invitations = rowsOf<{ user_id: string; status: string; side: string; expires_at: string }>(
      await t.database.db.execute(sql`
        select user_id, status, side, to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as expires_at
          from mixer_invitations where mixer_id = ${mixerId}`),
    );
    expect(invitations.map((i) => i.user_id).sort()).toEqual([...invited].sort());
    expect(new Set(invitations.map((i) => `${i.status} ${i.side} ${i.expires_at}`))).toEqual(new Set(['pending all 2026-11-26T00:00Z']));

    const audit = rowsOf<{ action: string; actor_id: string | null; target: string; details: string }>(
      await t.database.db.execute(sql`select action, actor_id, target, details from audit_log where action like 'formation.%'`),
    );
    expect(audit.filter((a) => a.action === 'formation.mixer_created')).toHaveLength(1);
    expect(audit.filter((a) => a.action === 'formation.invited')).toHaveLength(8);
    expect(audit.every((a) => a.actor_id === null && a.target === mixerId)).toBe(true);
    expect(JSON.parse(audit.find((a) => a.action === 'formation.mixer_created')!.details)).toMatchObject({
      topic: 'Board games',
      invited: 8,
    });
  });

  it('creates nothing new when run again', async () => {
    const again = await runFormation(t.app, new Date(NOW.getTime() + 60_000));
    expect(again.mixers).toEqual([]);
    expect(again.invitations).toEqual([]);
    expect(await count(sql`select count(*) as n from mixers where origin = 'auto'`)).toBe(1);
    expect(await count(sql`select count(*) as n from mixer_invitations`)).toBe(8);
  });

  it('forms no second mixer for them on another evening they are free while the first is unanswered or coming up', async () => {
    const { db } = t.database;
    const ids = sql.join(
      invited.map((id) => sql`${id}`),
      sql`, `,
    );
    await db.execute(sql`update profiles set availability = '{fri-evening,sat-evening,sun-evening}' where id in (${ids})`);
    const later = await runFormation(t.app, new Date(NOW.getTime() + 10 * 60_000));
    expect(later.mixers).toEqual([]);
    expect(later.invitations).toEqual([]);
    // Answered (accepted): still no second Board games mixer for them on another evening.
    await db.execute(sql`update mixer_invitations set status = 'accepted' where mixer_id = ${mixerId}`);
    const after = await runFormation(t.app, new Date(NOW.getTime() + 20 * 60_000));
    expect(after.mixers).toEqual([]);
    await db.execute(sql`update mixer_invitations set status = 'pending' where mixer_id = ${mixerId}`);
    await db.execute(sql`update profiles set availability = '{fri-evening}' where id in (${ids})`);
  });

  it('does nothing while paused', async () => {
    await seedMembers(8, { availability: ['sat-afternoon'], interests: ['Hiking'] });
    await t.database.db.execute(sql`update formation_settings set paused = true where id = 1`);
    const paused = await runFormation(t.app, NOW);
    expect(paused.skipped).toBe('paused');
    expect(await count(sql`select count(*) as n from mixers where origin = 'auto'`)).toBe(1);
    await t.database.db.execute(sql`update formation_settings set paused = false where id = 1`);
  });

  it('skips topics whose template is inactive, and forms them once active again', async () => {
    await t.database.db.execute(sql`update topic_templates set active = false where topic = 'Hiking'`);
    const off = await runFormation(t.app, NOW);
    expect(off.mixers).toEqual([]);
    await t.database.db.execute(sql`update topic_templates set active = true where topic = 'Hiking'`);
    const on = await runFormation(t.app, NOW);
    expect(on.mixers).toHaveLength(1);
    const [m] = rowsOf<{ topic: string; title: string }>(
      await t.database.db.execute(sql`select topic, title from mixers where id = ${on.mixers[0]}`),
    );
    expect(m).toEqual({ topic: 'Hiking', title: 'Hike Planning Huddle' });
    // Never invited: unverified, suspended or inactive members.
    expect(await count(sql`select count(*) as n from mixer_invitations where user_id in (${sql.join(left, sql`, `)})`)).toBe(0);
  });

  it('tops up a released seat with the next compatible member, never re-inviting', async () => {
    const [decliner] = invited;
    await t.database.db.execute(
      sql`update mixer_invitations set status = 'declined', responded_at = ${NOW.toISOString()}::timestamptz where mixer_id = ${mixerId} and user_id = ${decliner}`,
    );
    const [newcomer] = await seedMembers(1);
    const run = await runFormation(t.app, new Date(NOW.getTime() + 3_600_000));
    expect(run.toppedUp).toBe(1);
    const pending = rowsOf<{ user_id: string }>(
      await t.database.db.execute(sql`select user_id from mixer_invitations where mixer_id = ${mixerId} and status = 'pending'`),
    ).map((r) => r.user_id);
    expect(pending).toContain(newcomer);
    expect(pending).not.toContain(decliner);
    expect(pending).toHaveLength(8);
    const [audit] = rowsOf<{ details: string }>(
      await t.database.db.execute(
        sql`select details from audit_log where action = 'formation.invited' and details like ${`%${newcomer}%`}`,
      ),
    );
    expect(JSON.parse(audit.details)).toMatchObject({ userId: newcomer, topUp: true });
  });

  it('keeps an admin’s edits to a template when reference data is seeded again', async () => {
    await t.database.db.execute(sql`update topic_templates set title = 'Edited by an admin' where topic = 'Baking'`);
    await seedReferenceData(t.database.db);
    const [row] = rowsOf<{ title: string }>(await t.database.db.execute(sql`select title from topic_templates where topic = 'Baking'`));
    expect(row.title).toBe('Edited by an admin');
    expect(await count(sql`select count(*) as n from topic_templates`)).toBe(
      await count(sql`select count(*) as n from predefined_interests`),
    );
  });
});

describe('members who hold the most upcoming mixers (issue 32)', () => {
  it('are not invited to another one', async () => {
    const [busy, free] = await seedMembers(2, { availability: ['sat-morning'] });
    for (let i = 0; i < MAX_UPCOMING_MIXERS; i++) {
      const startsAt = new Date(NOW.getTime() + (2 + i) * 86_400_000);
      const [m] = await t.database.db
        .insert(mixers)
        .values({
          title: `Held ${i}`,
          topic: 'Board games',
          status: 'scheduled',
          startsAt,
          endsAt: new Date(startsAt.getTime() + 3_600_000),
        })
        .returning({ id: mixers.id });
      await t.database.db.insert(mixerMemberships).values({ mixerId: m.id, userId: busy, state: 'joined' });
    }
    const ids = (await loadCandidates(t.database.db, NOW)).candidates.map((c) => c.id);
    expect(ids).toContain(free);
    expect(ids).not.toContain(busy);
  });
});
