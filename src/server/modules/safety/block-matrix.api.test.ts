import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textFrames } from '../../../../tests/helpers/fake-socket';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { ServerEvent } from '../../../shared/realtime/events';
import { profiles } from '../../db/schema';
import { matchedPair, type Member, send, stats } from '../../../../tests/helpers/mixer-fixtures';
import { completeProfile } from '../../../../tests/helpers/profile-fixtures';

/**
 * Issue 12: a block holds everywhere, both ways. After A blocks B, each of them (the viewer)
 * asks every member-facing GET route, read from the running app so a new route is covered
 * without editing this file, and listens on every socket room; the other then changes their
 * photo and city and acts (chat line, message, fancy, card view). The viewer must receive
 * nothing new: no current photo, no city, no line, no counter move, no socket event.
 */

let t: TestApp;
/** Every event published, by room. */
const published: { room: string; event: ServerEvent }[] = [];

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

/** `METHOD /path` for every route, from Fastify's route tree (as route-authorization.api.test.ts reads it). */
function routesOf(app: TestApp['app']): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = line.match(/^((?:│ {3}| {4})*)[├└]── (\S+) \(([^)]+)\)$/);
    if (!m) continue;
    const depth = m[1].length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + m[2];
    parents[depth] = path;
    for (const method of m[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.filter((r) => r.split(' ')[1].startsWith('/api/'));
}

/** Not member-facing data about others: admin area, sign-in flow, files (tested below), the socket. */
const NOT_MEMBER_FACING = /^\/api\/(admin\/|auth\/|files\/|realtime$|health$|catalog\/)|^\/api\/dev\//;

interface Pair {
  a: Member;
  b: Member;
  mixerId: string;
  matchId: string;
}

/** A and B shared a live mixer, matched, wrote to each other, show their profile to everyone; then A blocks B. */
async function blockedPair(names: [string, string]): Promise<Pair> {
  const { a, b, mixerId, matchId } = await matchedPair(t, names);
  for (const m of [a, b]) {
    await completeProfile(t.database.db, m.id, {
      preferences: { profileVisibility: 'all' },
      avatarUrl: `${m.id}/photos/before.webp`,
      cityRegion: `Oldtown ${m.id}`,
    });
    await t.deps.storage.put(`${m.id}/photos/before.webp`, Buffer.from('old picture'), 'image/webp');
  }
  expect((await send(t, a, matchId, 'hello before')).statusCode).toBe(201);
  expect((await send(t, b, matchId, 'hello back')).statusCode).toBe(201);
  expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: a.cookie, payload: { userId: b.id } })).statusCode).toBeLessThan(
    300,
  );
  return { a, b, mixerId, matchId };
}

/** A fake socket of `viewer` in the hub, recording what it is sent. */
function listen(viewer: Member) {
  const received: ServerEvent[] = [];
  const socket = { readyState: 1, OPEN: 1, send: textFrames((d) => received.push(JSON.parse(d))), close() {} } as never;
  return { client: t.app.realtime.add(socket, viewer.id, `s-${viewer.id}`), received };
}

/** URL for a route as `viewer` asking about `other` in this pair. */
function urlFor(path: string, p: Pair, other: Member): string {
  const filled = path
    .replace(/^\/api\/(conversations|matches)\/:id/, (_, s) => `/api/${s}/${p.matchId}`)
    .replace(/^\/api\/mixers\/:id/, `/api/mixers/${p.mixerId}`)
    .replace(/:[A-Za-z]+/g, other.id);
  return filled === '/api/fancies' ? `${filled}?mixerId=${p.mixerId}` : filled;
}

describe.each([
  ['the blocked member asks about the blocker', 'b', 'a'],
  ['the blocker asks about the blocked member', 'a', 'b'],
] as const)('a block, both ways: %s', (_, viewerKey, otherKey) => {
  let p: Pair;
  let viewer: Member;
  let other: Member;

  beforeAll(async () => {
    p = await blockedPair(viewerKey === 'b' ? ['Ada Blocker', 'Bob Blocked'] : ['Ann Blocker', 'Ben Blocked']);
    viewer = p[viewerKey];
    other = p[otherKey];
  });

  it('every member-facing GET route: no current photo, no city, no new line about the other', async () => {
    const sub = listen(viewer);
    expect(await t.app.realtime.subscribe(sub.client, `mixer:${p.mixerId}`)).toBe(true);
    // The other changes their picture and city and writes in the mixer they share.
    await t.database.db
      .update(profiles)
      .set({ avatarUrl: `${other.id}/photos/after.webp`, cityRegion: `Newcastle ${other.id}` })
      .where(eq(profiles.id, other.id));
    const line = await t.request({
      method: 'POST',
      url: `/api/mixers/${p.mixerId}/messages`,
      cookie: other.cookie,
      payload: { body: 'a new line' },
    });
    expect(line.statusCode).toBe(201);

    const routes = routesOf(t.app).filter((r) => r.startsWith('GET ') && !NOT_MEMBER_FACING.test(r.slice(4)));
    expect(routes.length).toBeGreaterThan(15);
    for (const r of ['GET /api/conversations/:id', 'GET /api/members/:id', 'GET /api/mixers/:id/messages', 'GET /api/matches'])
      expect(routes).toContain(r);
    const leaks: string[] = [];
    for (const route of routes) {
      const url = urlFor(route.slice(4), p, other);
      const res = await t.request({ method: 'GET', url, cookie: viewer.cookie });
      if (res.statusCode >= 500) leaks.push(`${url} → ${res.statusCode}`);
      for (const secret of [`${other.id}/photos/`, `Oldtown ${other.id}`, `Newcastle ${other.id}`, 'a new line'])
        if (res.body.includes(secret)) leaks.push(`${url} shows ${secret}`);
    }
    expect(leaks.join('\n')).toBe('');
    expect(sub.received.filter((e) => e.type === 'mixer.message')).toEqual([]);
    t.app.realtime.remove(sub.client);
  });

  it('the conversation: read-only header without photo or city for the blocker, 404 for the blocked; no send, no read state, no socket room', async () => {
    const blocker = p.a;
    const header = await t.request({ method: 'GET', url: `/api/conversations/${p.matchId}`, cookie: viewer.cookie });
    if (viewer === blocker) {
      expect(header.statusCode).toBe(200);
      expect(header.json().other).toMatchObject({ id: other.id, avatarUrl: null, city: null });
      expect(header.json().canSend).toBe(false);
    } else expect(header.statusCode).toBe(404);

    const sub = listen(viewer);
    expect(await t.app.realtime.subscribe(sub.client, `conversation:${p.matchId}`)).toBe(false);
    for (const m of [viewer, other]) expect((await send(t, m, p.matchId, 'after the block')).statusCode).toBe(m === blocker ? 409 : 404);
    // Reading the other's messages marks nothing: the other learns nothing ("Seen").
    published.length = 0;
    const read = await t.request({ method: 'POST', url: `/api/conversations/${p.matchId}/read`, cookie: other.cookie });
    expect(read.statusCode).toBe(other === blocker ? 200 : 404);
    if (other === blocker) expect(read.json()).toEqual({ read: 0 });
    const history = await t.request({ method: 'GET', url: `/api/conversations/${p.matchId}/messages`, cookie: blocker.cookie });
    expect(history.json().messages.every((m: { isRead: boolean }) => !m.isRead)).toBe(true);
    expect(published.filter((x) => x.room === `conversation:${p.matchId}` || x.room === `user:${viewer.id}`)).toEqual([]);
    t.app.realtime.remove(sub.client);
  });

  it("the other's actions move none of the viewer's counters and send them no event", async () => {
    const before = await stats(t, viewer);
    published.length = 0;
    const card = await t.request({ method: 'GET', url: `/api/members/${viewer.id}`, cookie: other.cookie });
    expect(card.statusCode).toBe(404);
    const fancy = await t.request({
      method: 'PUT',
      url: `/api/fancies/${viewer.id}`,
      cookie: other.cookie,
      payload: { mixerId: p.mixerId },
    });
    expect(fancy.statusCode).toBe(403);
    await send(t, other, p.matchId, 'anyone there?');
    await t.request({ method: 'POST', url: `/api/mixers/${p.mixerId}/messages`, cookie: other.cookie, payload: { body: 'another line' } });
    expect(published.filter((x) => x.room === `user:${viewer.id}`)).toEqual([]);
    expect(await stats(t, viewer)).toEqual(before);
  });

  it('photo URLs of the other stop working at once, even ones handed out before the block', async () => {
    const oldUrl = t.deps.signer.url(`${other.id}/photos/before.webp`);
    const res = await t.request({ method: 'GET', url: oldUrl, cookie: viewer.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('old picture');
    // The owner still sees their own photo.
    expect((await t.request({ method: 'GET', url: oldUrl, cookie: other.cookie })).statusCode).toBe(200);
  });
});

describe('a block and sockets already listening', () => {
  it('takes both out of the conversation room they were in', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Lia Listening', 'Leo Listening']);
    const la = listen(a);
    const lb = listen(b);
    for (const l of [la, lb]) expect(await t.app.realtime.subscribe(l.client, `conversation:${matchId}`)).toBe(true);
    expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: a.cookie, payload: { userId: b.id } })).statusCode).toBeLessThan(
      300,
    );
    await t.app.realtime.publish(`conversation:${matchId}`, { type: 'dm.read', matchId, readerId: a.id });
    expect([...la.received, ...lb.received].filter((e) => e.type === 'dm.read')).toEqual([]);
    for (const l of [la, lb]) t.app.realtime.remove(l.client);
  });
});
