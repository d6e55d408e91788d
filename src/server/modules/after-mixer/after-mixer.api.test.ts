import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { AFTER_MIXER_MESSAGES, type AfterMixerView, type OpenPrompt } from '../../../shared/after-mixer';
import { AFTER_MIXER_PROMPT_MS } from '../../../shared/formation';
import type { ServerEvent } from '../../../shared/realtime/events';
import { type AttendanceOutcome, type ReliabilityView, reliabilityTier } from '../../../shared/reliability';
import { blocks, mixerAttendance, mixerMemberships, mixerMessages, mixers, profiles } from '../../db/schema';
import { advanceMixers } from '../mixers/lifecycle';
import { reliabilityTierSql } from '../reliability/priority';
import { afterMixerHook, getAfterMixer } from './service';

let t: TestApp;
const published: { room: string; event: ServerEvent }[] = [];
const MIN = 60_000;
const HOUR = 60 * MIN;

beforeAll(async () => {
  t = await createTestApp();
  const original = t.app.realtime.publish.bind(t.app.realtime);
  t.app.realtime.publish = (room, event) => {
    published.push({ room, event });
    return original(room, event);
  };
});
afterAll(async () => {
  await t?.close();
});

type Member = { id: string; email: string; cookie: string };

async function onboarded(name: string, prefs?: Record<string, unknown>): Promise<Member> {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1994-03-02', cityRegion: 'Leeds', ...(prefs ? { preferences: prefs } : {}) })
    .where(eq(profiles.id, m.id));
  return m;
}

async function mixer(values: Partial<typeof mixers.$inferInsert> = {}): Promise<string> {
  const now = Date.now();
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Sunday Walkers',
      topic: 'Hiking',
      status: 'live',
      startsAt: new Date(now - 2 * HOUR),
      endsAt: new Date(now - MIN),
      maxParticipants: 8,
      ...values,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const seat = (mixerId: string, userId: string, state = 'joined') =>
  t.database.db.insert(mixerMemberships).values({ mixerId, userId, state });
const say = (mixerId: string, senderId: string, body = 'Hello all!') =>
  t.database.db.insert(mixerMessages).values({ mixerId, senderId, kind: 'member', body });
const outcomes = async (mixerId: string) =>
  Object.fromEntries(
    (
      await t.database.db
        .select({ u: mixerAttendance.userId, o: mixerAttendance.outcome })
        .from(mixerAttendance)
        .where(eq(mixerAttendance.mixerId, mixerId))
    ).map((r) => [r.u, r.o]),
  );
const end = (now = new Date()) =>
  advanceMixers(t.database.db, now, (room, event) => t.app.realtime.publish(room, event), afterMixerHook(t.app));
const prompt = (id: string, m: Member) => t.request({ method: 'GET', url: `/api/mixers/${id}/after`, cookie: m.cookie });

describe('authorization', () => {
  it('answers 401 to anonymous callers and 403 to unverified members on every new route; an admin sees only their own', async () => {
    const id = await mixer({ status: 'ended' });
    const unverified = await t.member('Una Unverified', { verified: false });
    const admin = await t.member('Ada Admin', { admin: true });
    for (const url of ['/api/me/reliability', '/api/me/after-mixer', `/api/mixers/${id}/after`]) {
      expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await t.request({ method: 'GET', url, cookie: unverified.cookie })).statusCode, url).toBe(403);
    }
    // An admin is a member here: their own (empty) record, no prompt for a mixer they weren't in.
    expect((await t.request({ method: 'GET', url: '/api/me/reliability', cookie: admin.cookie })).json()).toEqual({
      of: 0,
      attended: 0,
      note: null,
    });
    expect((await t.request({ method: 'GET', url: `/api/mixers/${id}/after`, cookie: admin.cookie })).statusCode).toBe(404);
  });
});

describe('attendance when a mixer ends', () => {
  it('records attended, no_show and left_late, once, and the real outcome of a late leaver who came back', async () => {
    const talker = await onboarded('Tara Talker');
    const quiet = await onboarded('Quinn Quiet');
    const back = await onboarded('Bo Back');
    const late = await onboarded('Lola Late');
    const early = await onboarded('Ed Early');

    // Lola and Bo leave a scheduled mixer 30 minutes before its start; Ed leaves 3 hours before another.
    const soon = await mixer({ status: 'scheduled', startsAt: new Date(Date.now() + 30 * MIN), endsAt: new Date(Date.now() + 90 * MIN) });
    const later = await mixer({ status: 'scheduled', startsAt: new Date(Date.now() + 3 * HOUR), endsAt: new Date(Date.now() + 4 * HOUR) });
    for (const m of [talker, quiet, back, late]) await seat(soon, m.id);
    await seat(later, early.id);
    for (const [m, id] of [
      [late, soon],
      [back, soon],
      [early, later],
    ] as const) {
      const res = await t.request({ method: 'POST', url: `/api/mixers/${id}/leave`, cookie: m.cookie, payload: {} });
      expect(res.statusCode).toBe(200);
    }
    const [left] = await t.database.db
      .select({ leftAt: mixerMemberships.leftAt, state: mixerMemberships.state })
      .from(mixerMemberships)
      .where(and(eq(mixerMemberships.mixerId, later), eq(mixerMemberships.userId, early.id)));
    expect(left.state).toBe('left');
    expect(left.leftAt).toBeInstanceOf(Date);
    expect(await outcomes(soon)).toEqual({ [late.id]: 'left_late', [back.id]: 'left_late' });
    expect(await outcomes(later)).toEqual({});

    // Bo comes back; the mixer runs; Tara and Bo talk, Quinn only reads.
    await t.database.db
      .update(mixerMemberships)
      .set({ state: 'joined' })
      .where(and(eq(mixerMemberships.mixerId, soon), eq(mixerMemberships.userId, back.id)));
    await t.database.db.update(mixers).set({ status: 'live' }).where(eq(mixers.id, soon));
    await say(soon, talker.id);
    await say(soon, back.id, 'Sorry, I am here after all');
    await t.database.db.insert(mixerMessages).values({ mixerId: soon, senderId: null, kind: 'system', body: 'x' });

    const endAt = new Date(Date.now() + 91 * MIN);
    const runs = await Promise.all([end(endAt), end(endAt)]);
    expect(runs.flatMap((r) => r.ended).filter((id) => id === soon)).toEqual([soon]);
    await end(new Date(endAt.getTime() + MIN)); // a third run changes nothing
    expect(await outcomes(soon)).toEqual({
      [talker.id]: 'attended',
      [quiet.id]: 'no_show',
      [back.id]: 'attended',
      [late.id]: 'left_late',
    });
    const rows = await t.database.db.select().from(mixerAttendance).where(eq(mixerAttendance.mixerId, soon));
    expect(rows).toHaveLength(4);

    // Everyone still in it is told once, in the app and by mail; Lola, who left, is not.
    for (const m of [talker, quiet, back]) {
      const notices = published.filter((p) => p.room === `user:${m.id}` && p.event.type === 'notice');
      expect(notices.map((n) => n.event)).toEqual([expect.objectContaining({ type: 'notice', title: AFTER_MIXER_MESSAGES.noticeTitle })]);
      const mails = (await t.mailsTo(m.email)).filter((x) => x.subject.startsWith('Who did you click with'));
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain(`/mixers/${soon}/after`);
    }
    expect(published.some((p) => p.room === `user:${late.id}` && p.event.type === 'notice')).toBe(false);
    expect((await t.mailsTo(late.email)).some((x) => x.subject.startsWith('Who did you click with'))).toBe(false);
  });

  it('keeps the record of members who leave once it has started: attended if they wrote and stayed half of it, else no_show', async () => {
    const wrote = await onboarded('Wren Wrote');
    const silent = await onboarded('Sid Silent');
    // 60 minutes, 40 of them gone; both were there from the start.
    const startsAt = new Date(Date.now() - 40 * MIN);
    const running = await mixer({ startsAt, endsAt: new Date(Date.now() + 20 * MIN) });
    for (const m of [wrote, silent])
      await t.database.db.insert(mixerMemberships).values({ mixerId: running, userId: m.id, joinedAt: startsAt });
    await say(running, wrote.id, 'Lovely to meet you all, I have to run!');
    for (const m of [wrote, silent]) {
      const res = await t.request({ method: 'POST', url: `/api/mixers/${running}/leave`, cookie: m.cookie, payload: {} });
      expect(res.statusCode).toBe(200);
    }
    await end(new Date(Date.now() + 21 * MIN));
    expect(await outcomes(running)).toEqual({ [wrote.id]: 'attended', [silent.id]: 'no_show' });
  });

  it('joining a live mixer and writing one line is not attending: there from the first quarter to the end, or for half of it (issue 32)', async () => {
    const names = ['Ari Early', 'Hal Half', 'Pip Padder', 'Bri Brief', 'Sol Silent'] as const;
    const [early, half, padder, brief, silent] = await Promise.all(names.map((n) => onboarded(n)));
    // 60 minutes, 40 of them gone when the padder joins.
    const startsAt = new Date(Date.now() - 40 * MIN);
    const at = (minutes: number) => new Date(startsAt.getTime() + minutes * MIN);
    const running = await mixer({ startsAt, endsAt: at(60) });
    const stays: [Member, Date, Date | null][] = [
      [early, at(10), null], // from within the first quarter to the end
      [half, at(20), null], // after the first quarter, but 40 of 60 minutes
      [padder, new Date(), null], // the last 20 minutes
      [brief, at(0), at(12)], // from the start, gone after 12 minutes
      [silent, at(0), null], // all of it, not a word
    ];
    for (const [m, joinedAt, leftAt] of stays)
      await t.database.db
        .insert(mixerMemberships)
        .values({ mixerId: running, userId: m.id, joinedAt, state: leftAt ? 'left' : 'joined', leftAt });
    for (const m of [early, half, padder, brief]) await say(running, m.id, 'Hi all!');
    await end(at(61));
    expect(await outcomes(running)).toEqual({
      [early.id]: 'attended',
      [half.id]: 'attended',
      [padder.id]: 'no_show',
      [brief.id]: 'no_show',
      [silent.id]: 'no_show',
    });
  });

  it('sends no mail to a member who turned "After a mixer" off, but still the notice', async () => {
    const a = await onboarded('Mo Mailless', { notifyAfterMixer: false });
    const b = await onboarded('Nia Mailful');
    const id = await mixer({ title: 'Quiet Readers' });
    await seat(id, a.id);
    await seat(id, b.id);
    await end();
    expect((await t.mailsTo(a.email)).filter((x) => x.subject.includes('Quiet Readers'))).toHaveLength(0);
    expect((await t.mailsTo(b.email)).filter((x) => x.subject.includes('Quiet Readers'))).toHaveLength(1);
    expect(published.some((p) => p.room === `user:${a.id}` && p.event.type === 'notice')).toBe(true);
  });
});

describe('the "Who did you click with?" prompt', () => {
  it('opens only for members who were in the mixer when it ended, and lists the others they may see', async () => {
    const me = await onboarded('Maya Prompt');
    const ria = await onboarded('Ria Other');
    const blocker = await onboarded('Bex Blocker');
    const leaver = await onboarded('Lee Leaver');
    const waiting = await onboarded('Wyn Waiting');
    const outsider = await onboarded('Otto Outside');
    const id = await mixer({ title: 'Bouldering Buddies', topic: 'Bouldering' });
    for (const m of [me, ria, blocker]) await seat(id, m.id);
    await seat(id, leaver.id, 'left');
    await seat(id, waiting.id, 'waitlisted');
    await t.database.db.insert(blocks).values({ blockerId: blocker.id, blockedId: me.id });

    // Before it ends: not yet.
    const early = await prompt(id, me);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(AFTER_MIXER_MESSAGES.notEnded);

    await end();
    const res = await prompt(id, me);
    expect(res.statusCode).toBe(200);
    const view = res.json() as AfterMixerView;
    expect(view.mixer).toMatchObject({ id, title: 'Bouldering Buddies', topic: 'Bouldering' });
    expect(view.open).toBe(true);
    // Not me, not the member who blocked me, not who left or only waited.
    expect(view.people.map((p) => p.firstName)).toEqual(['Ria']);
    expect(view.people[0]).toMatchObject({ id: ria.id, fancied: false, matchId: null });

    for (const m of [leaver, waiting, outsider]) expect((await prompt(id, m)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/mixers/${id}/after` })).statusCode).toBe(401);
    const unverified = await t.member('Una Verified', { verified: false });
    expect((await prompt(id, unverified)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/mixers/not-a-uuid/after', cookie: me.cookie })).statusCode).toBe(400);
    expect((await prompt('00000000-0000-4000-8000-000000000000', me)).statusCode).toBe(404);

    // Fancies through the existing routes: private until mutual, then the match shows.
    const fancy = (from: Member, to: Member) =>
      t.request({ method: 'PUT', url: `/api/fancies/${to.id}`, cookie: from.cookie, payload: { mixerId: id } });
    expect((await fancy(ria, me)).json()).toMatchObject({ fancied: true, matchId: null });
    expect(((await prompt(id, me)).json() as AfterMixerView).people[0]).toMatchObject({ fancied: false, matchId: null });
    const mutual = (await fancy(me, ria)).json();
    expect(mutual).toMatchObject({ fancied: true, newMatch: true });
    expect(((await prompt(id, me)).json() as AfterMixerView).people[0]).toMatchObject({ fancied: true, matchId: mutual.matchId });

    // The Home list: this prompt for me, nothing for someone who wasn't there.
    const mine = (await t.request({ method: 'GET', url: '/api/me/after-mixer', cookie: me.cookie })).json() as { prompts: OpenPrompt[] };
    expect(mine.prompts.map((p) => p.mixerId)).toContain(id);
    expect(mine.prompts.find((p) => p.mixerId === id)?.others).toBe(1);
    const theirs = (await t.request({ method: 'GET', url: '/api/me/after-mixer', cookie: outsider.cookie })).json() as {
      prompts: OpenPrompt[];
    };
    expect(theirs.prompts).toEqual([]);
  });

  it('closes 48 hours after the end: the page says so and lists nobody, and Home drops it', async () => {
    const me = await onboarded('Cleo Closed');
    const other = await onboarded('Dan Closed');
    const id = await mixer({ title: 'Board Game Night' });
    await seat(id, me.id);
    await seat(id, other.id);
    await end();
    const [row] = await t.database.db.select({ endsAt: mixers.endsAt }).from(mixers).where(eq(mixers.id, id));
    const endsMs = row.endsAt.getTime();

    const justBefore = await getAfterMixer(t.deps, me.id, id, new Date(endsMs + AFTER_MIXER_PROMPT_MS - 1));
    expect(justBefore.open).toBe(true);
    expect(justBefore.people).toHaveLength(1);
    const after = await getAfterMixer(t.deps, me.id, id, new Date(endsMs + AFTER_MIXER_PROMPT_MS));
    expect(after).toMatchObject({ open: false, people: [] });

    // Through the API, with the end moved back past the window.
    await t.database.db.execute(sql`update mixers set ends_at = now() - interval '49 hours' where id = ${id}`);
    const view = (await prompt(id, me)).json() as AfterMixerView;
    expect(view).toMatchObject({ open: false, people: [] });
    const home = (await t.request({ method: 'GET', url: '/api/me/after-mixer', cookie: me.cookie })).json() as { prompts: OpenPrompt[] };
    expect(home.prompts.map((p) => p.mixerId)).not.toContain(id);
  });
});

describe('reliability', () => {
  it('answers only with my own record, kindly, and nothing when there is none', async () => {
    const me = await onboarded('Rae Reliable');
    const other = await onboarded('Sam Someone');
    const get = (m: Member) => t.request({ method: 'GET', url: '/api/me/reliability', cookie: m.cookie });
    expect((await get(me)).json()).toEqual({ of: 0, attended: 0, note: null });
    expect((await t.request({ method: 'GET', url: '/api/me/reliability' })).statusCode).toBe(401);

    const now = Date.now();
    const mine: AttendanceOutcome[] = ['attended', 'attended', 'no_show', 'attended', 'attended', 'attended'];
    for (const [i, outcome] of mine.entries()) {
      const id = await mixer({ status: 'ended' });
      await t.database.db.insert(mixerAttendance).values({ mixerId: id, userId: me.id, outcome, recordedAt: new Date(now - i * HOUR) });
      await t.database.db
        .insert(mixerAttendance)
        .values({ mixerId: id, userId: other.id, outcome: 'no_show', recordedAt: new Date(now - i * HOUR) });
    }
    const view = (await get(me)).json() as ReliabilityView;
    expect(view).toEqual({ of: 6, attended: 5, note: 'You came to 5 of your last 6 mixers.' });
    // The other member's misses are theirs alone.
    expect(((await get(other)).json() as ReliabilityView).attended).toBe(0);
    // No query parameter reaches anyone else's record.
    const sneaky = (await t.request({ method: 'GET', url: `/api/me/reliability?userId=${other.id}`, cookie: me.cookie })).json();
    expect(sneaky).toEqual(view);
  });

  it('reliabilityTierSql agrees with reliabilityTier', async () => {
    const patterns: AttendanceOutcome[][] = [
      [],
      ['no_show', 'no_show'],
      ['attended', 'attended', 'attended'],
      ['attended', 'attended', 'no_show', 'attended', 'attended'],
      ['attended', 'no_show', 'left_late', 'attended'],
      ['no_show', 'attended', 'no_show', 'left_late'],
      ['attended', 'attended', 'attended', 'no_show', 'no_show', 'no_show'],
      // 12 records: only the newest 10 count (newest first: 8 attended of 10 → reliable).
      [
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
        'no_show',
        'no_show',
        'no_show',
        'no_show',
      ],
      [
        'no_show',
        'no_show',
        'no_show',
        'no_show',
        'no_show',
        'no_show',
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
        'attended',
      ],
    ];
    const ids: Member[] = [];
    const now = Date.now();
    const mixerIds: string[] = [];
    for (let i = 0; i < 12; i++) mixerIds.push(await mixer({ status: 'ended' }));
    for (const [n, pattern] of patterns.entries()) {
      const m = await t.member(`Tier Member ${n}`);
      ids.push(m);
      for (const [i, outcome] of pattern.entries()) {
        await t.database.db
          .insert(mixerAttendance)
          .values({ mixerId: mixerIds[i], userId: m.id, outcome, recordedAt: new Date(now - i * HOUR) });
      }
    }
    for (const [n, pattern] of patterns.entries()) {
      const result = (await t.database.db.execute(sql`select ${reliabilityTierSql(sql`${ids[n].id}`)} as tier`)) as unknown as {
        rows: { tier: number | string }[];
      };
      expect(Number(result.rows[0].tier), pattern.join(',')).toBe(reliabilityTier(pattern));
    }
    // The patterns cover every tier.
    expect(new Set(patterns.map((p) => reliabilityTier(p)))).toEqual(new Set([0, 1, 2]));
  });
});
