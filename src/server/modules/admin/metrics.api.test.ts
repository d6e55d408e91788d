import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { type AdminOverview, addDays, type Metrics, todayUtc } from '../../../shared/schemas/admin';
import {
  appeals,
  dailyActivity,
  directMessages,
  matches,
  mixerMemberships,
  mixerMessages,
  mixers,
  moderationActions,
  profiles,
  reports,
  user,
} from '../../db/schema';

/**
 * The admin figures must equal counts computed here, independently, from the seeded rows.
 * Everything is seeded on days before today, so the admin's own sign-up and activity (today)
 * stay outside the checked range.
 */
let t: TestApp;
let admin: { id: string; cookie: string };

const today = todayUtc();
const at = (daysAgo: number, time = '12:00:00') => new Date(`${addDays(today, -daysAgo)}T${time}Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const FROM = addDays(today, -20);
const TO = addDays(today, -1);
const inRange = (d: Date) => dayOf(d) >= FROM && dayOf(d) <= TO;

interface SeedUser {
  id: string;
  createdAt: Date;
  verified: boolean;
  step: number;
  completed: boolean;
  source: string | null;
  campaign: string | null;
  code: string | null;
}

const users: SeedUser[] = [
  // On the range's first instant and just before it.
  {
    id: 'seed-a',
    createdAt: at(20, '00:00:00'),
    verified: true,
    step: 10,
    completed: true,
    source: 'poster',
    campaign: 'freshers',
    code: 'LDN1',
  },
  { id: 'seed-b', createdAt: at(21, '23:59:59'), verified: true, step: 3, completed: false, source: 'poster', campaign: null, code: null },
  { id: 'seed-c', createdAt: at(15), verified: true, step: 6, completed: false, source: 'Instagram', campaign: 'spring', code: 'IG2' },
  { id: 'seed-d', createdAt: at(15, '18:30:00'), verified: false, step: 0, completed: false, source: null, campaign: null, code: null },
  { id: 'seed-e', createdAt: at(10), verified: true, step: 1, completed: false, source: 'instagram ', campaign: 'spring', code: 'IG2' },
  { id: 'seed-f', createdAt: at(3), verified: true, step: 9, completed: false, source: '', campaign: '', code: '' },
  {
    id: 'seed-g',
    createdAt: at(1, '23:59:59'),
    verified: true,
    step: 10,
    completed: true,
    source: 'tiktok',
    campaign: 'launch',
    code: 'TT',
  },
  { id: 'seed-h', createdAt: at(30), verified: true, step: 10, completed: true, source: 'poster', campaign: null, code: null },
];

const mixerSeeds = [
  { createdAt: at(19), title: 'Quiz' },
  { createdAt: at(19, '20:00:00'), title: 'Walk' },
  { createdAt: at(5), title: 'Brunch' },
  { createdAt: at(25), title: 'Old' },
];
const memberships = [
  { mixer: 0, user: 'seed-a', state: 'joined', joinedAt: at(18) },
  { mixer: 0, user: 'seed-c', state: 'joined', joinedAt: at(18, '09:00:00') },
  { mixer: 0, user: 'seed-e', state: 'waitlisted', joinedAt: at(18) },
  { mixer: 1, user: 'seed-a', state: 'left', joinedAt: at(17) },
  { mixer: 2, user: 'seed-g', state: 'joined', joinedAt: at(2) },
  { mixer: 3, user: 'seed-h', state: 'joined', joinedAt: at(24) },
];
const chat = [
  { mixer: 0, sender: 'seed-a', kind: 'member', createdAt: at(18) },
  { mixer: 0, sender: 'seed-c', kind: 'member', createdAt: at(18, '13:00:00') },
  { mixer: 0, sender: null, kind: 'icebreaker', createdAt: at(18) },
  { mixer: 2, sender: 'seed-g', kind: 'member', createdAt: at(2) },
  { mixer: 3, sender: 'seed-h', kind: 'member', createdAt: at(24) },
];
const matchSeeds = [
  { pair: ['seed-a', 'seed-c'], createdAt: at(18), status: 'matched' },
  { pair: ['seed-a', 'seed-g'], createdAt: at(2), status: 'unmatched' },
  { pair: ['seed-c', 'seed-h'], createdAt: at(23), status: 'matched' },
];
const dmSeeds = [
  { match: 0, from: 'seed-a', createdAt: at(18) },
  { match: 0, from: 'seed-c', createdAt: at(17) },
  { match: 0, from: 'seed-a', createdAt: at(17, '22:00:00') },
  { match: 2, from: 'seed-h', createdAt: at(23) },
];
const activity = [
  { user: 'seed-a', day: addDays(today, -18) },
  { user: 'seed-c', day: addDays(today, -18) },
  { user: 'seed-a', day: addDays(today, -17) },
  { user: 'seed-g', day: addDays(today, -2) },
  { user: 'seed-h', day: addDays(today, -24) },
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.member('Meg Metrics', { admin: true });
  const db = t.database.db;
  for (const u of users) {
    await db.insert(user).values({
      id: u.id,
      name: u.id,
      email: `${u.id}@example.com`,
      emailVerified: u.verified,
      createdAt: u.createdAt,
      utmSource: u.source,
      utmCampaign: u.campaign,
      campaignCode: u.code,
    });
    await db.insert(profiles).values({ id: u.id, fullName: u.id, onboardingStep: u.step, onboardingCompleted: u.completed });
  }
  const mixerIds: string[] = [];
  for (const m of mixerSeeds) {
    const [row] = await db
      .insert(mixers)
      .values({ title: m.title, status: 'ended', startsAt: m.createdAt, endsAt: m.createdAt, createdAt: m.createdAt })
      .returning({ id: mixers.id });
    mixerIds.push(row.id);
  }
  for (const m of memberships) {
    await db.insert(mixerMemberships).values({ mixerId: mixerIds[m.mixer], userId: m.user, state: m.state, joinedAt: m.joinedAt });
  }
  for (const c of chat) {
    await db
      .insert(mixerMessages)
      .values({ mixerId: mixerIds[c.mixer], senderId: c.sender, kind: c.kind, body: 'hi', createdAt: c.createdAt });
  }
  const matchIds: string[] = [];
  for (const m of matchSeeds) {
    const [row] = await db
      .insert(matches)
      .values({ profile1Id: m.pair[0], profile2Id: m.pair[1], status: m.status, createdAt: m.createdAt })
      .returning({ id: matches.id });
    matchIds.push(row.id);
  }
  for (const d of dmSeeds) {
    const pair = matchSeeds[d.match].pair;
    await db.insert(directMessages).values({
      matchId: matchIds[d.match],
      senderId: d.from,
      recipientId: pair.find((p) => p !== d.from) ?? '',
      body: 'hello',
      createdAt: d.createdAt,
    });
  }
  for (const a of activity) await db.insert(dailyActivity).values({ userId: a.user, day: a.day });
  await db.insert(reports).values([
    { reporterId: 'seed-a', reportedId: 'seed-c', reason: 'Spam or scam', createdAt: at(4) },
    { reporterId: 'seed-a', reportedId: 'seed-g', reason: 'Spam or scam', createdAt: at(2), status: 'dismissed' },
  ]);
});
afterAll(async () => {
  await t?.close();
});

const rangeDays = () => {
  const days: string[] = [];
  for (let d = FROM; d <= TO; d = addDays(d, 1)) days.push(d);
  return days;
};
const countOn = <T>(rows: T[], day: string, date: (r: T) => Date, where: (r: T) => boolean = () => true) =>
  rows.filter((r) => dayOf(date(r)) === day && where(r)).length;

describe('GET /api/admin/metrics', () => {
  it('returns every day of the range with counts equal to the seeded rows', async () => {
    const res = await t.request({ method: 'GET', url: `/api/admin/metrics?from=${FROM}&to=${TO}`, cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    const m = res.json() as Metrics;
    expect(m.from).toBe(FROM);
    expect(m.to).toBe(TO);
    const days = rangeDays();
    expect(m.days.map((d) => d.day)).toEqual(days);
    const expected = days.map((day) => ({
      day,
      signups: countOn(users, day, (u) => u.createdAt),
      mixersCreated: countOn(mixerSeeds, day, (x) => x.createdAt),
      mixerJoins: countOn(
        memberships,
        day,
        (x) => x.joinedAt,
        (x) => x.state === 'joined',
      ),
      chatMessages: countOn(
        chat,
        day,
        (x) => x.createdAt,
        (x) => x.kind === 'member',
      ),
      matches: countOn(matchSeeds, day, (x) => x.createdAt),
      directMessages: countOn(dmSeeds, day, (x) => x.createdAt),
      activeMembers: activity.filter((a) => a.day === day).length,
    }));
    expect(m.days).toEqual(expected);
    // Sanity: the seeds do put figures in the range, and zeros fill the rest.
    expect(m.days.reduce((s, d) => s + d.signups, 0)).toBe(users.filter((u) => inRange(u.createdAt)).length);
    expect(
      m.days.filter((d) =>
        Object.values(d)
          .slice(1)
          .every((v) => v === 0),
      ).length,
    ).toBeGreaterThan(5);
  });

  it('splits sign-ups by source, campaign or code (trimmed, case-insensitive, none for empty)', async () => {
    const key = (v: string | null) => (v ?? '').trim().toLowerCase() || '(none)';
    for (const [split, field] of [
      ['source', 'source'],
      ['campaign', 'campaign'],
      ['code', 'code'],
    ] as const) {
      const m = (
        await t.request({ method: 'GET', url: `/api/admin/metrics?from=${FROM}&to=${TO}&split=${split}`, cookie: admin.cookie })
      ).json() as Metrics;
      expect(m.split).toBe(split);
      const inside = users.filter((u) => inRange(u.createdAt));
      const totals = new Map<string, number>();
      for (const u of inside) totals.set(key(u[field]), (totals.get(key(u[field])) ?? 0) + 1);
      expect(Object.fromEntries(m.signupsByCampaign.campaigns.map((c) => [c.key, c.total]))).toEqual(Object.fromEntries(totals));
      for (const d of m.signupsByCampaign.days) {
        m.signupsByCampaign.campaigns.forEach((c, i) => {
          expect(d.counts[i], `${split} ${c.key} ${d.day}`).toBe(
            inside.filter((u) => dayOf(u.createdAt) === d.day && key(u[field]) === c.key).length,
          );
        });
      }
    }
  });

  it('computes the onboarding funnel of the members who registered in the range', async () => {
    const m = (await t.request({ method: 'GET', url: `/api/admin/metrics?from=${FROM}&to=${TO}`, cookie: admin.cookie })).json() as Metrics;
    const cohort = users.filter((u) => inRange(u.createdAt));
    const reached = (u: SeedUser) => Math.max(u.step, u.completed ? 10 : 0);
    expect(m.funnel.map((f) => f.count)).toEqual([
      cohort.length,
      cohort.filter((u) => u.verified).length,
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => cohort.filter((u) => reached(u) >= k).length),
      cohort.filter((u) => u.completed).length,
    ]);
    expect(m.funnel[0]).toEqual({ key: 'registered', label: 'Registered', count: cohort.length });
    expect(m.funnel.at(-1)?.label).toBe('Completed profile');
  });

  it('defaults to the last 30 days and refuses bad ranges', async () => {
    const m = (await t.request({ method: 'GET', url: '/api/admin/metrics', cookie: admin.cookie })).json() as Metrics;
    expect(m.days).toHaveLength(30);
    expect(m.to).toBe(today);
    expect(m.days[0].day).toBe(addDays(today, -29));
    const bad = async (qs: string) =>
      (await t.request({ method: 'GET', url: `/api/admin/metrics?${qs}`, cookie: admin.cookie })).statusCode;
    expect(await bad(`from=${TO}&to=${FROM}`)).toBe(400);
    expect(await bad('from=2024-02-30')).toBe(400);
    expect(await bad('from=2020-01-01&to=2022-01-01')).toBe(400);
    expect(await bad('split=city')).toBe(400);
  });
});

describe('moderation metrics', () => {
  it('counts reports per day and, per severity, the median and 90th percentile time to first action and the share overdue', async () => {
    // Three days well before the other seeds, every report closed (the overview counts open ones).
    const day0 = addDays(today, -45);
    const day2 = addDays(today, -43);
    const MIN = 60_000;
    // [severity, created, minutes to the first action, how it was recorded]: an action row (the
    // earliest of several counts), or only the report's resolved_at (reports handled before issue 30).
    const seeds: [0 | 1, string, number, 'action' | 'resolved'][] = [
      [0, `${day0}T10:00:00Z`, 10, 'action'],
      [0, `${day0}T11:00:00Z`, 30, 'resolved'],
      [0, `${day0}T23:00:00Z`, 50, 'action'],
      [0, `${day2}T10:00:00Z`, 90, 'action'],
      [0, `${day2}T10:30:00Z`, 200, 'resolved'],
      [1, `${day2}T12:00:00Z`, 60, 'action'],
      [1, `${day2}T13:00:00Z`, 1500, 'action'],
    ];
    const db = t.database.db;
    const actionIds: string[] = [];
    for (const [severity, created, minutes, how] of seeds) {
      const createdAt = new Date(created);
      const first = new Date(createdAt.getTime() + minutes * MIN);
      const [r] = await db
        .insert(reports)
        .values({
          reason: severity === 0 ? 'Threats of violence' : 'Spam or scam',
          severity,
          status: 'warned',
          createdAt,
          resolvedAt: how === 'resolved' ? first : new Date(first.getTime() + 999 * MIN),
        })
        .returning({ id: reports.id });
      if (how === 'action') {
        const [a] = await db
          .insert(moderationActions)
          .values([
            { reportId: r.id, action: 'warn', rule: 'hate', createdAt: first },
            { reportId: r.id, action: 'mute', rule: 'hate', days: 1, createdAt: new Date(first.getTime() + 300 * MIN) },
          ])
          .returning({ id: moderationActions.id });
        actionIds.push(a.id);
      }
    }
    // Three appeals filed in the range: one reversed, one upheld, one still open.
    await db.insert(appeals).values([
      { actionId: actionIds[0], text: 'Please look again.', status: 'reversed', createdAt: new Date(`${day2}T09:00:00Z`) },
      { actionId: actionIds[1], text: 'Please look again.', status: 'upheld', createdAt: new Date(`${day2}T09:00:00Z`) },
      { actionId: actionIds[2], text: 'Please look again.', status: 'open', createdAt: new Date(`${day2}T09:00:00Z`) },
    ]);

    const res = await t.request({ method: 'GET', url: `/api/admin/metrics?from=${day0}&to=${day2}`, cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Metrics).moderation).toEqual({
      reportsPerDay: [
        { day: day0, n: 3 },
        { day: addDays(day0, 1), n: 0 },
        { day: day2, n: 4 },
      ],
      timeToFirstAction: [
        // 10, 30, 50, 90, 200 minutes; target 60: two overdue.
        { severity: 0, reports: 5, medianMinutes: 50, p90Minutes: 156, overdueShare: 0.4 },
        // 60 and 1500 minutes; target 1440: one overdue.
        { severity: 1, reports: 2, medianMinutes: 780, p90Minutes: 1356, overdueShare: 0.5 },
      ],
      overdueShare: 3 / 7,
      appeals: 3,
      reversalRate: 0.5,
    });
  });
});

describe('GET /api/admin/overview', () => {
  it('equals counts computed from the seeded rows', async () => {
    const o = (await t.request({ method: 'GET', url: '/api/admin/overview', cookie: admin.cookie })).json() as AdminOverview;
    const now = Date.now();
    const all = [...users, { createdAt: new Date(), verified: true, completed: false }];
    const week = (d: Date) => now - d.getTime() < 7 * 86_400_000;
    expect(o.members).toEqual({
      total: all.length,
      verified: all.filter((u) => u.verified).length,
      onboarded: users.filter((u) => u.completed).length,
      suspended: 0,
    });
    expect(o.signups).toEqual({
      today: all.filter((u) => dayOf(u.createdAt) === today).length,
      last7Days: all.filter((u) => week(u.createdAt)).length,
    });
    expect(o.mixers).toEqual({ live: 0, upcoming: 0 });
    expect(o.last7Days).toEqual({
      matches: matchSeeds.filter((x) => week(x.createdAt)).length,
      directMessages: dmSeeds.filter((x) => week(x.createdAt)).length,
      chatMessages: chat.filter((x) => x.kind === 'member' && week(x.createdAt)).length,
    });
    expect(o.reports.open).toBe(1);
    expect(o.reports.oldestOpenAt).toBe(at(4).toISOString());
    expect(o.suggestions.pending).toBe(0);
  });
});
