/** Test-only helpers for the fancies / matches / messages / safety API tests. */
import { sql } from 'drizzle-orm';
import type { TestApp } from './test-app';
import { mixerMemberships, mixers } from '../../src/server/db/schema';
import { pushIdle } from '../../src/server/modules/push/service';

export type Member = Awaited<ReturnType<TestApp['member']>>;

/** A mixer row; live (started 10 minutes ago) unless told otherwise. */
export async function createMixer(
  t: TestApp,
  opts: { status?: 'scheduled' | 'live' | 'ended' | 'cancelled'; startsInMinutes?: number; title?: string } = {},
): Promise<string> {
  const startsAt = new Date(Date.now() + (opts.startsInMinutes ?? -10) * 60_000);
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: opts.title ?? 'Indie Film Club: Aftersun Debrief',
      topic: 'Indie films',
      status: opts.status ?? 'live',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 90 * 60_000),
    })
    .returning({ id: mixers.id });
  return row.id;
}

export async function joinMixer(t: TestApp, mixerId: string, userIds: string[], state = 'joined') {
  await t.database.db.insert(mixerMemberships).values(userIds.map((userId) => ({ mixerId, userId, state })));
}

/** Two members who shared a live mixer. */
export async function sharedPair(t: TestApp, names: [string, string] = ['Maya Okafor', 'Rhys Llewellyn']) {
  const a = await t.member(names[0]);
  const b = await t.member(names[1]);
  const mixerId = await createMixer(t);
  await joinMixer(t, mixerId, [a.id, b.id]);
  return { a, b, mixerId };
}

export const fancyReq = (t: TestApp, from: Member, to: { id: string }, mixerId: string) =>
  t.request({ method: 'PUT', url: `/api/fancies/${to.id}`, cookie: from.cookie, payload: { mixerId } });

/** Two members who fancied each other: returns the match id. */
export async function matchedPair(t: TestApp, names?: [string, string]) {
  const pair = await sharedPair(t, names);
  await fancyReq(t, pair.a, pair.b, pair.mixerId);
  const res = await fancyReq(t, pair.b, pair.a, pair.mixerId);
  const matchId = res.json().matchId as string;
  if (!matchId) throw new Error(`no match: ${res.body}`);
  // The match's own push is sent before the pair is handed over: it looks up the member's devices
  // when it goes, so one still in flight could reach a device the test subscribes next.
  await pushIdle(t.app);
  return { ...pair, matchId };
}

export const send = (t: TestApp, from: Member, matchId: string, body: unknown) =>
  t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages`, cookie: from.cookie, payload: { body } });

export async function stats(t: TestApp, m: Member): Promise<Record<string, number>> {
  return (await t.request({ method: 'GET', url: '/api/stats', cookie: m.cookie })).json();
}

export async function matchRow(t: TestApp, matchId: string) {
  const result = (await t.database.db.execute(sql`select * from matches where id = ${matchId}`)) as unknown as {
    rows: { status: string; ended_at: Date | null; profile1_id: string; profile2_id: string }[];
  };
  return result.rows[0];
}

export async function setPreferences(t: TestApp, userId: string, preferences: Record<string, unknown>) {
  await t.database.db.execute(sql`update profiles set preferences = ${JSON.stringify(preferences)}::jsonb where id = ${userId}`);
}
