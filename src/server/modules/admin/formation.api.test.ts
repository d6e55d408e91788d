import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { DEFAULT_FORMATION_SETTINGS } from '../../../shared/formation';
import { FORMATION_ADMIN_MESSAGES, type FormationDemand, type FormationOverview } from '../../../shared/schemas/formation-admin';
import { TEXT_MESSAGES } from '../../../shared/schemas/text';
import { auditLog, formationSettings, mixerInvitations, mixerMemberships, mixers, profiles, topicTemplates } from '../../db/schema';

/** Issue 14: the admin formation page's API — admin only, validated, every change audited. */
let t: TestApp;
let admin: { id: string; cookie: string };
let member: { id: string; cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.member('Formation Admin', { admin: true });
  member = await t.member('Plain Member');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  t.request({ method, url, cookie, ...(payload === undefined ? {} : { payload: payload as object }) });
const settings = { ...DEFAULT_FORMATION_SETTINGS };
const template = {
  title: 'Bouldering buddies',
  description: 'Chalk, problems and the odd fall.',
  theme: 'forest',
  icebreaker: 'Your proudest send?',
  active: true,
};

describe('guards', () => {
  it('answers 401 signed out and 403 to members on every formation route', async () => {
    const routes: ['GET' | 'PUT' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/formation'],
      ['GET', '/api/admin/formation/demand'],
      ['PUT', '/api/admin/formation/settings', settings],
      ['POST', '/api/admin/formation/templates', { ...template, topic: 'Bouldering' }],
      ['PUT', '/api/admin/formation/templates/00000000-0000-4000-8000-000000000000', template],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, undefined, body)).statusCode).toBe(401);
      expect((await call(method, url, member.cookie, body)).statusCode).toBe(403);
    }
  });
});

describe('settings', () => {
  it('pauses formation, audited with the admin as actor', async () => {
    const res = await call('PUT', '/api/admin/formation/settings', admin.cookie, { ...settings, paused: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ paused: true, groupSize: 8 });
    const [row] = await t.database.db.select().from(formationSettings);
    expect(row.paused).toBe(true);
    expect(row.updatedBy).toBe(admin.id);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'formation.paused'));
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBe(admin.id);
    const overview = (await call('GET', '/api/admin/formation', admin.cookie)).json() as FormationOverview;
    expect(overview.settings.paused).toBe(true);
    expect(overview.recent.map((r) => r.action)).toContain('formation.paused');
  });

  it('refuses thresholds out of bounds with messages, saving nothing', async () => {
    const bad = [
      [{ groupSize: 12 }, 'groupSize', FORMATION_ADMIN_MESSAGES.groupSize],
      [{ groupSize: 6, minSeats: 7 }, 'minSeats', FORMATION_ADMIN_MESSAGES.minSeats],
      [{ holdHours: 0 }, 'holdHours', FORMATION_ADMIN_MESSAGES.holdHours],
      [{ leadHours: 168, horizonDays: 7 }, 'horizonDays', FORMATION_ADMIN_MESSAGES.horizonBeforeLead],
      [{ maxInvitesPerWeek: 'lots' }, 'maxInvitesPerWeek', FORMATION_ADMIN_MESSAGES.maxInvitesPerWeek],
    ] as const;
    for (const [change, field, message] of bad) {
      const res = await call('PUT', '/api/admin/formation/settings', admin.cookie, { ...settings, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation');
      expect(JSON.stringify(res.json().error)).toContain(message);
      expect(JSON.stringify(res.json().error)).toContain(field);
    }
    const [row] = await t.database.db.select().from(formationSettings);
    expect(row.groupSize).toBe(8);
    expect(row.holdHours).toBe(12);
  });
});

describe('topic templates', () => {
  it('edits a template, validated on the server and audited', async () => {
    const [row] = await t.database.db
      .insert(topicTemplates)
      .values({ topic: 'Hiking', title: 'Hill walkers', icebreaker: 'Best view so far?' })
      .onConflictDoNothing()
      .returning({ id: topicTemplates.id });
    const id = row?.id ?? (await t.database.db.select().from(topicTemplates).where(eq(topicTemplates.topic, 'Hiking')))[0].id;
    const res = await call('PUT', `/api/admin/formation/templates/${id}`, admin.cookie, {
      ...template,
      title: '  Hill and dale  ',
      active: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, topic: 'Hiking', title: 'Hill and dale', active: false, theme: 'forest' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.target, id));
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([['formation.template', admin.id]]);

    const badTheme = await call('PUT', `/api/admin/formation/templates/${id}`, admin.cookie, { ...template, theme: 'neon' });
    expect(badTheme.statusCode).toBe(400);
    expect(JSON.stringify(badTheme.json())).toContain(FORMATION_ADMIN_MESSAGES.theme);
    const noIce = await call('PUT', `/api/admin/formation/templates/${id}`, admin.cookie, { ...template, icebreaker: '   ' });
    expect(noIce.statusCode).toBe(400);
    expect(JSON.stringify(noIce.json())).toContain(FORMATION_ADMIN_MESSAGES.icebreakerRequired);
    const hidden = await call('PUT', `/api/admin/formation/templates/${id}`, admin.cookie, { ...template, title: 'Hill \u0007and dale' });
    expect(hidden.statusCode).toBe(400);
    expect(JSON.stringify(hidden.json())).toContain(TEXT_MESSAGES.control);
    const [saved] = await t.database.db.select().from(topicTemplates).where(eq(topicTemplates.id, id));
    expect(saved.title).toBe('Hill and dale');

    const missing = await call('PUT', '/api/admin/formation/templates/00000000-0000-4000-8000-000000000000', admin.cookie, template);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(FORMATION_ADMIN_MESSAGES.templateNotFound);
  });

  it('adds one for a predefined interest without a template, once', async () => {
    await t.database.db.delete(topicTemplates).where(eq(topicTemplates.topic, 'Chess'));
    const created = await call('POST', '/api/admin/formation/templates', admin.cookie, { ...template, topic: 'Chess' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ topic: 'Chess', title: template.title });
    const again = await call('POST', '/api/admin/formation/templates', admin.cookie, { ...template, topic: 'Chess' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(FORMATION_ADMIN_MESSAGES.topicTaken);
    const unknown = await call('POST', '/api/admin/formation/templates', admin.cookie, { ...template, topic: 'Underwater basket weaving' });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain(FORMATION_ADMIN_MESSAGES.topicUnknown);
    const overview = (await call('GET', '/api/admin/formation', admin.cookie)).json() as FormationOverview;
    expect(overview.templates.map((x) => x.topic)).toContain('Chess');
    expect(overview.topicsWithoutTemplate).not.toContain('Chess');
  });
});

describe('demand and formed mixers', () => {
  it('counts members with availability by topic × region × intent, asks and interests apart', async () => {
    const people = [
      { city: 'Leeds', asks: ['Bouldering'], interests: ['Bouldering', 'Chess'], looking: ['Friends'], slots: ['thu-evening'] },
      { city: 'Leeds', asks: ['Bouldering'], interests: ['Hiking'], looking: ['Friends', 'Dating'], slots: ['sat-morning'] },
      { city: 'Brighton', asks: [], interests: ['Bouldering'], looking: ['Friends'], slots: ['sun-afternoon'] },
      // No availability: not counted.
      { city: 'Leeds', asks: ['Bouldering'], interests: ['Bouldering'], looking: ['Friends'], slots: [] },
    ];
    for (const [i, p] of people.entries()) {
      const m = await t.member(`Demand Person${i}`);
      await t.database.db
        .update(profiles)
        .set({
          onboardingCompleted: true,
          cityRegion: p.city,
          topicAsks: p.asks,
          interests: p.interests,
          lookingFor: p.looking,
          availability: p.slots,
        })
        .where(eq(profiles.id, m.id));
    }
    const res = await call('GET', '/api/admin/formation/demand', admin.cookie);
    expect(res.statusCode).toBe(200);
    const demand = res.json() as FormationDemand;
    expect(demand.membersWithAvailability).toBe(3);
    const row = (topic: string, region: string, intent: string) =>
      demand.rows.find((r) => r.topic === topic && r.region === region && r.intent === intent);
    expect(row('Bouldering', 'Yorkshire and the Humber', 'Friends')).toEqual({
      topic: 'Bouldering',
      region: 'Yorkshire and the Humber',
      intent: 'Friends',
      asks: 2,
      interests: 1,
    });
    expect(row('Bouldering', 'Yorkshire and the Humber', 'Dating')).toMatchObject({ asks: 1, interests: 0 });
    expect(row('Bouldering', 'South East', 'Friends')).toMatchObject({ asks: 0, interests: 1 });

    const filtered = (
      await call('GET', '/api/admin/formation/demand?region=South%20East&intent=Friends', admin.cookie)
    ).json() as FormationDemand;
    expect(filtered.rows.every((r) => r.region === 'South East' && r.intent === 'Friends')).toBe(true);
    expect(filtered.rows.length).toBeGreaterThan(0);
    expect((await call('GET', '/api/admin/formation/demand?intent=Everything', admin.cookie)).statusCode).toBe(400);
  });

  it('lists automatically formed mixers with seats, invitations by status and fill rate, with totals', async () => {
    const [m] = await t.database.db
      .insert(mixers)
      .values({
        title: 'Formed: Bouldering',
        topic: 'Bouldering',
        origin: 'auto',
        status: 'scheduled',
        intent: 'Friends',
        startsAt: new Date(Date.now() + 30 * 3_600_000),
        endsAt: new Date(Date.now() + 31 * 3_600_000),
        maxParticipants: 4,
      })
      .returning({ id: mixers.id });
    await t.database.db.insert(mixers).values({
      title: 'Typed by an admin',
      status: 'scheduled',
      intent: 'Friends',
      startsAt: new Date(Date.now() + 30 * 3_600_000),
      endsAt: new Date(Date.now() + 31 * 3_600_000),
    });
    const a = await t.member('Formed One');
    const b = await t.member('Formed Two');
    const c = await t.member('Formed Three');
    await t.database.db.insert(mixerMemberships).values({ mixerId: m.id, userId: a.id, state: 'joined' });
    const expires = new Date(Date.now() + 3_600_000);
    await t.database.db.insert(mixerInvitations).values([
      { mixerId: m.id, userId: a.id, status: 'accepted', expiresAt: expires },
      { mixerId: m.id, userId: b.id, status: 'declined', expiresAt: expires },
      { mixerId: m.id, userId: c.id, status: 'pending', expiresAt: expires },
    ]);
    const overview = (await call('GET', '/api/admin/formation', admin.cookie)).json() as FormationOverview;
    expect(overview.mixers.map((x) => x.title)).toEqual(['Formed: Bouldering']);
    expect(overview.mixers[0]).toMatchObject({
      capacity: 4,
      joined: 1,
      fillRate: 0.25,
      invitations: { pending: 1, accepted: 1, declined: 1, expired: 0, withdrawn: 0 },
    });
    expect(overview.totals).toMatchObject({ mixers: 1, capacity: 4, joined: 1, fillRate: 0.25 });
  });
});
