import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { blocks, fancies, mixerInvitations, mixerMemberships, mixers, profiles, user } from '../../db/schema';
import { MIXER_SECTIONS } from '../../../shared/schemas/mixers';
import { completeProfile, sharedHistory } from '../../../../tests/helpers/profile-fixtures';

const t = setupTestApp();

const getSettings = (cookie: string) => t.request({ method: 'GET', url: '/api/settings', cookie });
const patch = (cookie: string, payload: Record<string, unknown>) => t.request({ method: 'PATCH', url: '/api/settings', cookie, payload });

describe('who may use the settings API', () => {
  const routes = [
    { method: 'GET' as const, url: '/api/settings' },
    { method: 'PATCH' as const, url: '/api/settings', payload: { notifyMatch: false } },
    { method: 'GET' as const, url: '/api/me/sessions' },
    { method: 'POST' as const, url: '/api/me/sessions/revoke-others' },
    { method: 'DELETE' as const, url: '/api/me/sessions/abc' },
    { method: 'POST' as const, url: '/api/me/password', payload: { currentPassword: 'x', newPassword: 'long-enough-pass' } },
    { method: 'POST' as const, url: '/api/me/email', payload: { newEmail: 'new@example.com', password: 'x' } },
    { method: 'POST' as const, url: '/api/me/two-factor/enable', payload: { password: 'x' } },
    { method: 'POST' as const, url: '/api/me/two-factor/verify', payload: { code: '123456' } },
    { method: 'POST' as const, url: '/api/me/two-factor/disable', payload: { password: 'x' } },
    { method: 'POST' as const, url: '/api/me/two-factor/backup-codes', payload: { password: 'x' } },
    { method: 'PATCH' as const, url: '/api/me/profile', payload: { bio: 'x' } },
    { method: 'PUT' as const, url: '/api/me/profile/photos', payload: { order: [] } },
    { method: 'POST' as const, url: '/api/me/profile/photos/main', payload: { key: 'x/photos/y.webp' } },
  ];

  it('anonymous callers get 401 everywhere, including the export', async () => {
    for (const r of [...routes, { method: 'GET' as const, url: '/api/me/export' }]) {
      const res = await t.request(r);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('unverified members get 403 (the export stays open to them: it is their data)', async () => {
    const m = await t.member('Una Verified', { verified: false });
    for (const r of routes) {
      const res = await t.request({ ...r, cookie: m.cookie });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
    const exp = await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie });
    expect(exp.statusCode).toBe(200);
  });

  it('an admin uses it like any member, for their own account only', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const res = await getSettings(admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().settings.email).toBe(admin.email);
  });
});

describe('privacy and notification preferences', () => {
  it('defaults: city shared, every mail on, profile visible to members who shared a mixer', async () => {
    const m = await t.member('Dee Fault');
    const res = await getSettings(m.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().settings).toEqual({
      email: m.email,
      emailVerified: true,
      twoFactorEnabled: false,
      shareCityRegion: true,
      preferences: {
        notifyMatch: true,
        notifyMessage: true,
        notifyMixerSoon: true,
        notifyInvitations: true,
        notifyAfterMixer: true,
        notifyReports: true,
        profileVisibility: 'shared_mixer',
        onlyVerified: false,
      },
    });
  });

  it('saves only the given choices, in the jsonb keys other modules read, keeping unknown keys', async () => {
    const m = await t.member('Pat Prefs');
    await t.database.db
      .update(profiles)
      .set({ preferences: { somethingElse: 1 } })
      .where(eq(profiles.id, m.id));
    let res = await patch(m.cookie, { notifyMessage: false, profileVisibility: 'all' });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings.preferences).toEqual({
      notifyMatch: true,
      notifyMessage: false,
      notifyMixerSoon: true,
      notifyInvitations: true,
      notifyAfterMixer: true,
      notifyReports: true,
      profileVisibility: 'all',
      onlyVerified: false,
    });
    res = await patch(m.cookie, { shareCityRegion: false, notifyMixerSoon: false });
    expect(res.json().settings).toMatchObject({ shareCityRegion: false, preferences: { notifyMessage: false, notifyMixerSoon: false } });
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, m.id));
    expect(row.shareCityRegion).toBe(false);
    expect(row.preferences).toEqual({ somethingElse: 1, notifyMessage: false, profileVisibility: 'all', notifyMixerSoon: false });
  });

  it('rejects bad values with a message and changes nothing', async () => {
    const m = await t.member('Val Idate');
    for (const payload of [{ notifyMatch: 'yes' }, { profileVisibility: 'everyone' }, {}, { shareCityRegion: null }]) {
      const res = await patch(m.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation');
      expect(res.json().error.message).toBeTruthy();
    }
    const garbage = await t.request({
      method: 'PATCH',
      url: '/api/settings',
      cookie: m.cookie,
      payload: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.statusCode).toBe(400);
    expect((await getSettings(m.cookie)).json().settings.preferences.notifyMatch).toBe(true);
  });
});

describe('field-level authorization', () => {
  it('a member cannot set role, onboarding flags, id or anything of another member through settings', async () => {
    const m = await t.member('Mallory Member');
    const other = await t.member('Olive Other');
    const attempts = [
      { role: 'admin' },
      { onboardingCompleted: true },
      { onboarding_completed: true },
      { onboardingComplete: true },
      { id: other.id, notifyMatch: false },
      { userId: other.id, shareCityRegion: false },
      { emailVerified: true },
      { email: 'taken@example.com' },
      { preferences: { notifyMatch: false } },
      { twoFactorEnabled: true },
    ];
    for (const payload of attempts) {
      const res = await patch(m.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe('Only privacy and notification settings can be changed here');
    }
    const [mine] = await t.database.db.select().from(user).where(eq(user.id, m.id));
    expect(mine).toMatchObject({ role: 'user', onboardingComplete: false, email: m.email });
    const [theirs] = await t.database.db.select().from(profiles).where(eq(profiles.id, other.id));
    expect(theirs).toMatchObject({ shareCityRegion: true, preferences: {}, onboardingCompleted: false });
    // The member's own choices only ever touch their own row.
    await patch(m.cookie, { shareCityRegion: false, notifyMatch: false });
    const [after] = await t.database.db.select().from(profiles).where(eq(profiles.id, other.id));
    expect(after).toMatchObject({ shareCityRegion: true, preferences: {} });
  });
});

/** "/api/mixers/:id" → ["", "api", "mixers", ":id"] joined back; from Fastify's route tree. */
function getRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    const full = (depth > 0 ? stack[depth - 1] : '') + m[2];
    stack[depth] = full;
    if (m[3].split(', ').includes('GET')) out.push(full);
  }
  return out;
}

describe('"Show my city to others" off hides the city from other members everywhere', () => {
  const CITY = 'Llandudno';
  /** GET routes that never show other members (own data, public reference data, files, admin staff tools). */
  const NOT_ABOUT_OTHERS = [
    /^\/api\/(health|ready|catalog|settings|profile|realtime|files|push)\b/,
    // Crawler files: the same text for everyone (docs/decisions/021).
    /^\/(robots\.txt|sitemap\.xml|\.well-known\/security\.txt)$/,
    /^\/api\/me\b/,
    /^\/api\/auth\//,
    /^\/api\/admin\//,
    /^\/dev\//,
    /^\*$/,
  ];

  it('in every member-facing endpoint; and shows it when on (the check can see it)', async () => {
    const viewer = await t.member('Vera Viewer');
    const privateOne = await t.member('Priya Private');
    const blocked = await t.member('Bram Blocked');
    await completeProfile(t.database.db, viewer.id, { cityRegion: 'Bristol' });
    for (const m of [privateOne, blocked]) await completeProfile(t.database.db, m.id, { cityRegion: CITY });
    const { db } = t.database;
    const { mixerId, matchId } = await sharedHistory(db, viewer.id, privateOne.id);
    await db.insert(fancies).values({ fromUserId: viewer.id, toUserId: privateOne.id, mixerId });
    await db.insert(blocks).values({ blockerId: viewer.id, blockedId: blocked.id });
    await db.execute(
      sql`insert into mixer_messages (mixer_id, sender_id, body) values (${mixerId}, ${privateOne.id}, 'Hi all, lovely to meet you!')`,
    );
    // A mixer the two were in that just ended (its "Who did you click with?" page), and a formed
    // one Priya sits in that Vera is invited to (issue 14).
    const [ended] = await db
      .insert(mixers)
      .values({
        title: 'Ended Roast',
        status: 'ended',
        startsAt: new Date(Date.now() - 7_200_000),
        endsAt: new Date(Date.now() - 3_600_000),
      })
      .returning({ id: mixers.id });
    const [formed] = await db
      .insert(mixers)
      .values({
        title: 'Formed Roast',
        origin: 'auto',
        startsAt: new Date(Date.now() + 86_400_000),
        endsAt: new Date(Date.now() + 90_000_000),
      })
      .returning({ id: mixers.id });
    for (const mixer of [ended.id, formed.id]) {
      await db.insert(mixerMemberships).values([privateOne, blocked].map((m) => ({ mixerId: mixer, userId: m.id })));
    }
    await db.insert(mixerMemberships).values({ mixerId: ended.id, userId: viewer.id });
    await db.insert(mixerInvitations).values({ mixerId: formed.id, userId: viewer.id, expiresAt: new Date(Date.now() + 3_600_000) });

    const urls: Record<string, string[]> = {
      '/api/conversations': ['/api/conversations'],
      '/api/conversations/:id': [`/api/conversations/${matchId}`],
      '/api/conversations/:id/messages': [`/api/conversations/${matchId}/messages`],
      '/api/mixers': MIXER_SECTIONS.map((section) => `/api/mixers?section=${section}`),
      '/api/mixers/topics': ['/api/mixers/topics'],
      '/api/mixers/:id': [`/api/mixers/${mixerId}`],
      '/api/mixers/:id/messages': [`/api/mixers/${mixerId}/messages`],
      '/api/matches': ['/api/matches'],
      '/api/fancies': [`/api/fancies?mixerId=${mixerId}`],
      '/api/blocks': ['/api/blocks'],
      '/api/stats': ['/api/stats'],
      '/api/members/:id': [`/api/members/${privateOne.id}`, `/api/members/${blocked.id}`],
      '/api/mixers/:id/after': [`/api/mixers/${ended.id}/after`],
      '/api/invitations': ['/api/invitations'],
      '/api/verification': ['/api/verification'],
      '/api/mixers/:id/read': [`/api/mixers/${mixerId}/read`],
      '/api/mixers/:id/host': [`/api/mixers/${mixerId}/host`],
      '/api/line-privacy': [`/api/line-privacy?mixerId=${mixerId}`, `/api/line-privacy?matchId=${matchId}`],
      '/api/moderation/mine': ['/api/moderation/mine'],
      '/api/appeals/link': ['/api/appeals/link?token=not-a-real-appeal-token'],
    };
    const memberRoutes = getRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => !NOT_ABOUT_OTHERS.some((re) => re.test(r)));
    expect(memberRoutes).toContain('/api/mixers/:id');
    const uncovered = memberRoutes.filter((r) => !urls[r]);
    expect(uncovered, 'a new GET endpoint may show members: add it to this test').toEqual([]);

    const bodies = async () => {
      const out: Record<string, string> = {};
      for (const list of Object.values(urls)) {
        for (const url of list) {
          const res = await t.request({ method: 'GET', url, cookie: viewer.cookie });
          expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
          out[url] = res.body;
        }
      }
      return out;
    };

    // Shared: the mixer detail and the match list name the city.
    const shared = await bodies();
    expect(shared[`/api/mixers/${mixerId}`]).toContain(CITY);
    expect(shared['/api/matches']).toContain(CITY);
    expect(shared[`/api/members/${privateOne.id}`]).toContain(CITY);

    // Turned off through the settings API: no response to another member names it.
    for (const m of [privateOne, blocked]) expect((await patch(m.cookie, { shareCityRegion: false })).statusCode).toBe(200);
    const hidden = await bodies();
    for (const [url, body] of Object.entries(hidden)) expect(body, url).not.toContain(CITY);
    // The member still sees their own city.
    const own = await t.request({ method: 'GET', url: '/api/profile', cookie: privateOne.cookie });
    expect(own.json().profile.cityRegion).toBe(CITY);
  });
});
