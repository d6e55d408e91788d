import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import type { MixerDetail, MixerPage, MixerSummary } from '../../../shared/schemas/mixers';
import { blocks, mixerMemberships, mixers, profiles } from '../../db/schema';

/** The list cards' seat counts, my state and faces (one statement per page). */
const t = setupTestApp();

const HOUR = 3_600_000;

async function onboarded(name: string, avatar?: string) {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', avatarUrl: avatar ?? null })
    .where(eq(profiles.id, m.id));
  return m;
}

describe('mixer cards', () => {
  it('counts seats and waitlist, shows my state, and shows me first then the earliest four unblocked faces', async () => {
    await t.database.db.update(mixers).set({ status: 'ended' }).where(sql`status in ('live', 'scheduled')`);
    const me = await onboarded('Mia Viewer', `me/avatar.webp`);
    const people = [];
    for (const name of ['Ann One', 'Ben Two', 'Cat Three', 'Dan Four', 'Eve Five', 'Fay Six'])
      people.push(await onboarded(name, `${name}/a.webp`));
    const [ann, ben, cat, dan, eve, fay] = people;
    const now = Date.now();
    const [full] = await t.database.db
      .insert(mixers)
      .values({ title: 'Full One', status: 'live', startsAt: new Date(now - HOUR), endsAt: new Date(now + HOUR), maxParticipants: 6 })
      .returning({ id: mixers.id });
    const [other] = await t.database.db
      .insert(mixers)
      .values({ title: 'Other One', status: 'live', startsAt: new Date(now - 2 * HOUR), endsAt: new Date(now + HOUR) })
      .returning({ id: mixers.id });
    const at = (s: number) => new Date(now - 600_000 + s * 1000);
    await t.database.db.insert(mixerMemberships).values([
      // Joining order: ben, ann (blocked by me), cat, dan (blocks me), eve, then me; fay waits.
      { mixerId: full.id, userId: ben.id, joinedAt: at(1) },
      { mixerId: full.id, userId: ann.id, joinedAt: at(2) },
      { mixerId: full.id, userId: cat.id, joinedAt: at(3) },
      { mixerId: full.id, userId: dan.id, joinedAt: at(4) },
      { mixerId: full.id, userId: eve.id, joinedAt: at(5) },
      { mixerId: full.id, userId: me.id, joinedAt: at(6) },
      { mixerId: full.id, userId: fay.id, state: 'waitlisted', joinedAt: at(7) },
      { mixerId: other.id, userId: me.id, state: 'left', joinedAt: at(1) },
      { mixerId: other.id, userId: fay.id, state: 'waitlisted', joinedAt: at(2) },
      { mixerId: other.id, userId: ann.id, joinedAt: at(3) },
    ]);
    await t.database.db.insert(blocks).values([
      { blockerId: me.id, blockedId: ann.id },
      { blockerId: dan.id, blockedId: me.id },
    ]);

    const page = (await t.request({ method: 'GET', url: '/api/mixers', cookie: me.cookie })).json() as MixerPage;
    const card = (id: string) => page.items.find((m) => m.id === id) as MixerSummary;
    expect(page.items.map((m) => m.title)).toEqual(['Full One', 'Other One']);
    expect(card(full.id)).toMatchObject({ participantCount: 6, waitlistCount: 1, myState: 'joined' });
    expect(card(full.id).preview.map((p) => p.firstName)).toEqual(['Mia', 'Ben', 'Cat', 'Eve']);
    expect(card(full.id).preview.every((p) => p.avatarUrl?.startsWith('/api/files/'))).toBe(true);
    // Having left counts as not being in it; a blocked member is hidden even when alone.
    expect(card(other.id)).toMatchObject({ participantCount: 1, waitlistCount: 1, myState: null, preview: [] });

    // The waiting member sees the same seats and their own state, but only the faces of members
    // who show their profile to all members (waiting is not sharing the mixer); the blocked
    // ones see each other's faces only.
    const fayCard = async () =>
      ((await t.request({ method: 'GET', url: '/api/mixers', cookie: fay.cookie })).json() as MixerPage).items.find(
        (m) => m.id === full.id,
      ) as MixerSummary;
    expect(await fayCard()).toMatchObject({ participantCount: 6, waitlistCount: 1, myState: 'waitlisted', preview: [] });
    await t.database.db
      .update(profiles)
      .set({ preferences: { profileVisibility: 'all' } })
      .where(sql`${profiles.id} in (${ann.id}, ${cat.id}, ${eve.id})`);
    expect((await fayCard()).preview.map((p) => p.firstName)).toEqual(['Ann', 'Cat', 'Eve']);
    const danDetail = (await t.request({ method: 'GET', url: `/api/mixers/${full.id}`, cookie: dan.cookie })).json() as MixerDetail;
    expect(danDetail.preview.map((p) => p.firstName)).toEqual(['Dan', 'Ben', 'Ann', 'Cat']);
    expect(danDetail.participants.map((p) => p.firstName)).toEqual(['Dan', 'Ben', 'Ann', 'Cat', 'Eve']);
    expect(danDetail).toMatchObject({ participantCount: 6, waitlistCount: 1, myState: 'joined' });
  });
});
