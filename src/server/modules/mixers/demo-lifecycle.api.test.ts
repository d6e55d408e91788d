import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { refreshDemoMixers, seedDemoData } from '../../db/seed/demo';
import { cookieHeader } from '../../../../tests/helpers/test-app';
import type { MixerPage } from '../../../shared/schemas/mixers';
import { DEMO_ACCOUNT_KEYS, DEMO_MIXERS, DEMO_PASSWORD } from '../../db/seed/demo-data';
import { thumbKey } from '../profiles/service';
import { advanceMixers } from './lifecycle';
import { rowsOf } from '../../lib/sql';

/** The embedded demo over a simulated week: every seeded mixer goes live once and ends once. */
let t: TestApp;
let seededAt: number;
beforeAll(async () => {
  t = await createTestApp();
  seededAt = Date.now();
  await seedDemoData({ database: t.database, storage: t.deps.storage });
});
afterAll(async () => {
  await t?.close();
});

interface MixerState {
  title: string;
  status: string;
  icebreakers: number;
  closings: number;
}

async function states(): Promise<Map<string, MixerState>> {
  const rows = rowsOf<MixerState & { title: string }>(
    await t.database.db.execute(sql`
      select m.title, m.status,
        (select count(*)::int from mixer_messages x where x.mixer_id = m.id and x.kind = 'icebreaker') as icebreakers,
        (select count(*)::int from mixer_messages x where x.mixer_id = m.id and x.kind = 'system') as closings
      from mixers m`),
  );
  return new Map(rows.map((r) => [r.title, r]));
}

describe('demo members', () => {
  it('each have a profile picture and its thumbnail in storage, as an upload would leave them', async () => {
    const rows = rowsOf<{ avatar_url: string }>(await t.database.db.execute(sql`select avatar_url from profiles`));
    expect(rows.length).toBeGreaterThan(30);
    for (const { avatar_url: key } of rows) {
      expect(await t.deps.storage.get(key), key).not.toBeNull();
      expect(await t.deps.storage.get(thumbKey(key)), key).not.toBeNull();
    }
  });
});

describe('demo members and issue 14', () => {
  it('mostly say when they are free and ask for topics from their own interests', async () => {
    const rows = rowsOf<{ availability: string[]; topic_asks: string[]; interests: string[] }>(
      await t.database.db.execute(sql`select availability, topic_asks, interests from profiles`),
    );
    const free = rows.filter((r) => r.availability.length);
    expect(free.length / rows.length).toBeGreaterThan(0.7);
    for (const r of rows) for (const ask of r.topic_asks) expect(r.interests).toContain(ask);
  });

  it('have the ended demo mixers on their private record: attended when they wrote a line, else no-show', async () => {
    const rows = rowsOf<{ email: string; title: string; outcome: string }>(
      await t.database.db.execute(sql`
        select u.email, m.title, a.outcome from mixer_attendance a
          join "user" u on u.id = a.user_id join mixers m on m.id = a.mixer_id`),
    );
    const maya = rows.filter((r) => r.email === 'maya-okafor@demo.fancy.test');
    expect(maya.map((r) => r.outcome)).toEqual(['attended']);
    const ended = DEMO_MIXERS.filter((mx) => mx.startOffsetMinutes + mx.durationMinutes <= 0);
    expect(rows.length).toBe(ended.reduce((n, mx) => n + mx.memberKeys.length, 0));
  });
});

describe('demo accounts and For you (issue 13)', () => {
  it('shows each demo account a few mixers with reasons, and the live mixer they share stays theirs', async () => {
    for (const key of DEMO_ACCOUNT_KEYS) {
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `${key}@demo.fancy.test`, password: DEMO_PASSWORD },
      });
      expect(login.statusCode, key).toBe(200);
      const cookie = cookieHeader(login.headers['set-cookie']);
      const page = (await t.request({ method: 'GET', url: '/api/mixers?section=foryou', cookie })).json() as MixerPage;
      expect(page.items.length, key).toBeGreaterThanOrEqual(3);
      for (const item of page.items) expect(item.reasons?.length, `${key} ${item.title}`).toBeGreaterThanOrEqual(2);
      const mine = (await t.request({ method: 'GET', url: '/api/mixers?section=live', cookie })).json() as MixerPage;
      const boardGames = mine.items.find((i) => i.title === 'Board Game Night: Catan & Co.');
      expect(boardGames?.myState, key).toBe('joined');
      expect(boardGames?.audience.seatPlan, key).toEqual([{ side: 'everyone', seats: 8 }]);
    }
  });
});

describe('demo mixers and the lifecycle', () => {
  it('starts consistent: live ones have their icebreaker, ended ones their closing line', async () => {
    const s = await states();
    expect(s.size).toBe(DEMO_MIXERS.length);
    const live = [...s.values()].filter((m) => m.status === 'live');
    expect(live).toHaveLength(4);
    for (const m of s.values()) {
      expect(m.icebreakers, m.title).toBe(m.status === 'scheduled' ? 0 : 1);
      expect(m.closings, m.title).toBe(m.status === 'ended' ? 1 : 0);
    }
    // Nothing is due right now.
    const run = await advanceMixers(t.database.db, new Date(seededAt), () => {});
    expect(run).toEqual({ started: [], ended: [] });
  });

  it('moves every seeded mixer through live to ended over the week, each exactly once', async () => {
    // Every demo mixer lasts at least 45 minutes, so a 30-minute tick always catches it live.
    const step = 30 * 60_000;
    const wentLive = new Set<string>();
    for (let at = seededAt + step; at <= seededAt + 7 * 86_400_000; at += step) {
      const run = await advanceMixers(t.database.db, new Date(at), () => {});
      for (const id of run.started) {
        expect(wentLive.has(id)).toBe(false);
        wentLive.add(id);
      }
    }
    const upcoming = DEMO_MIXERS.filter((m) => m.startOffsetMinutes > 0).length;
    expect(wentLive.size).toBe(upcoming);
    for (const m of (await states()).values()) {
      expect(m.status, m.title).toBe('ended');
      expect(m.icebreakers, m.title).toBe(1);
      expect(m.closings, m.title).toBe(1);
    }
  });

  it('schedules a fresh round of demo mixers once all are over, and only then', async () => {
    const later = seededAt + 8 * 86_400_000;
    expect(await refreshDemoMixers(t.database, later)).toBe(true);
    expect(await refreshDemoMixers(t.database, later)).toBe(false);
    const rows = rowsOf<{ status: string; n: number }>(
      await t.database.db.execute(
        sql`select status, count(*)::int as n from mixers where ends_at > ${new Date(later).toISOString()}::timestamptz group by status`,
      ),
    );
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual({ live: 4, scheduled: 15 });
  });
});
