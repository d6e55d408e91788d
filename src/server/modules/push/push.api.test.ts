import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { type PushServiceStandIn, startPushService } from '../../../../tests/helpers/push-service';
import { cookieHeader, createTestApp, TEST_PASSWORD, type TestApp } from '../../../../tests/helpers/test-app';
import { PUSH_MESSAGES } from '../../../shared/schemas/push';
import { announceInvitations } from '../invitations/announce';
import { fancyReq, matchedPair, type Member, send, sharedPair } from '../../../../tests/helpers/mixer-fixtures';
import { totpCode } from '../../../../tests/helpers/profile-fixtures';
import { sendMixerPushReminders } from './reminders';
import { localMinutes } from './rules';
import { notify, pushIdle, removeEndedSubscriptions } from './service';

let t: TestApp;
let push: PushServiceStandIn;
beforeAll(async () => {
  t = await createTestApp();
  push = await startPushService();
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

const subscribe = async (m: Member, sub = push.subscription(), timeZone?: string) => {
  // Pushes a fixture set off (a match, an invitation) go before the device exists.
  await pushIdle(t.app);
  const res = await t.request({
    method: 'POST',
    url: '/api/push/devices',
    cookie: m.cookie,
    payload: { ...sub, ...(timeZone ? { timeZone } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { sub, device: res.json().device as { id: string }, path: new URL(sub.endpoint).pathname };
};
const settle = () => pushIdle(t.app);
const pushesTo = (path: string) => push.received.filter((r) => r.path === path).map((r) => r.payload);
const patch = (m: Member, id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: `/api/push/devices/${id}`, cookie: m.cookie, payload });

describe('push end to end through a push service stand-in', () => {
  it('a new message arrives VAPID-signed, encrypted and discreet, and opens the conversation', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Maya Okafor', 'Rhys Llewellyn']);
    const { path } = await subscribe(a);
    expect((await send(t, b, matchId, 'Fancy a pint at the Crown on Friday?')).statusCode).toBe(201);
    await settle();
    expect(push.rejected).toEqual([]);
    const key = (await t.request({ method: 'GET', url: '/api/push/key', cookie: a.cookie })).json().publicKey;
    const got = push.received.filter((r) => r.path === path);
    expect(got).toHaveLength(1);
    expect(got[0].vapidKey).toBe(key);
    expect(got[0].claims.sub).toBe('mailto:support@fancy.example');
    expect(got[0].payload).toEqual({
      title: 'Fancy',
      body: 'You have a new message',
      url: `/messages/${matchId}`,
      tag: `conversation:${matchId}`,
    });
    // Discreet: neither who nor what reaches the push service or the lock screen.
    expect(JSON.stringify(got[0].payload)).not.toMatch(/Rhys|pint/);

    // At most one per conversation per 10 minutes.
    await send(t, b, matchId, 'Or Saturday?');
    await settle();
    expect(pushesTo(path)).toHaveLength(1);
  });

  it('names and previews only when the device chose them', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Priya Shah', 'Tom Baker']);
    const { device, path } = await subscribe(a);
    expect((await patch(a, device.id, { showPreviews: true })).statusCode).toBe(200);
    await send(t, b, matchId, 'Loved your take on Aftersun');
    await settle();
    expect(pushesTo(path)).toEqual([
      { title: 'Tom', body: 'Loved your take on Aftersun', url: `/messages/${matchId}`, tag: `conversation:${matchId}` },
    ]);
  });

  it('a match pushes to both members and lands on the conversation', async () => {
    const { a, b, mixerId } = await sharedPair(t, ['Zara Khan', 'Owen Price']);
    const [pa, pb] = [await subscribe(a), await subscribe(b)];
    expect((await fancyReq(t, a, b, mixerId)).statusCode).toBe(200);
    await settle();
    // A one-sided fancy is private: nobody is told.
    expect([...pushesTo(pa.path), ...pushesTo(pb.path)]).toEqual([]);
    const matchId = (await fancyReq(t, b, a, mixerId)).json().matchId as string;
    await settle();
    const expected = { title: 'Fancy', body: 'You have a new match', url: `/messages/${matchId}`, tag: `conversation:${matchId}` };
    expect(pushesTo(pa.path)).toEqual([expected]);
    expect(pushesTo(pb.path)).toEqual([expected]);
  });

  it('an invitation pushes to the invited member and opens the mixer', async () => {
    const m = await t.member('Ada Invite');
    const { path, device } = await subscribe(m);
    await patch(m, device.id, { showPreviews: true });
    const [{ id: mixerId }] = (
      (await t.database.db.execute(sql`insert into mixers (title, status, starts_at, ends_at, origin)
        values ('Bouldering in Bristol', 'scheduled', now() + interval '26 hours', now() + interval '27 hours', 'auto') returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    const [{ id }] = (
      (await t.database.db.execute(sql`insert into mixer_invitations (mixer_id, user_id, side, expires_at)
        values (${mixerId}, ${m.id}, 'all', now() + interval '12 hours') returning id`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await announceInvitations(t.app, [id]);
    await settle();
    expect(pushesTo(path)).toEqual([
      {
        title: "You're invited",
        body: 'A seat is held for you in "Bouldering in Bristol".',
        url: `/mixers/${mixerId}`,
        tag: `invitation:${mixerId}`,
      },
    ]);
  });

  it('no push for a conversation open in one of the member’s tabs', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Ellie Ward', 'Sam Reid']);
    const { path } = await subscribe(a);
    const socket = { readyState: 1, OPEN: 1, send() {}, close() {} } as unknown as WebSocket;
    const client = t.app.realtime.add(socket, a.id, 'session-of-a-tab');
    expect(await t.app.realtime.subscribe(client, `conversation:${matchId}`)).toBe(true);
    await send(t, b, matchId, 'You there?');
    await settle();
    expect(pushesTo(path)).toEqual([]);
    // The tab closes: the next message is pushed.
    t.app.realtime.remove(client);
    await send(t, b, matchId, 'Hello?');
    await settle();
    expect(pushesTo(path)).toHaveLength(1);
  });

  it('categories turned off, quiet hours and blocks hold', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Grace Hall', 'Ben Ford']);
    const { device, path } = await subscribe(a);
    await patch(a, device.id, { categories: { message: false } });
    await send(t, b, matchId, 'One');
    await settle();
    expect(pushesTo(path)).toEqual([]);

    // Quiet from an hour ago to an hour from now in Auckland (the window may run across midnight).
    const here = localMinutes(new Date(), 'Pacific/Auckland');
    const quiet = { quietStart: (here + 1380) % 1440, quietEnd: (here + 60) % 1440, timeZone: 'Pacific/Auckland' };
    expect((await patch(a, device.id, { categories: { message: true }, ...quiet })).statusCode).toBe(200);
    await send(t, b, matchId, 'Two');
    await settle();
    expect(pushesTo(path)).toEqual([]);

    await patch(a, device.id, { quietStart: null, quietEnd: null });
    expect((await t.request({ method: 'POST', url: '/api/blocks', cookie: a.cookie, payload: { userId: b.id } })).statusCode).toBeLessThan(
      300,
    );
    notify(t.app, a.id, { category: 'message', url: `/messages/${matchId}`, key: 'blocked-test', fromUserId: b.id });
    await settle();
    expect(pushesTo(path)).toEqual([]);
  });

  it('a subscription the push service answers 410 (or 404) is removed', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Ivy Long', 'Max Cole']);
    const { path } = await subscribe(a);
    push.answer(path, 410);
    await send(t, b, matchId, 'Hi');
    await settle();
    const devices = (await t.request({ method: 'GET', url: '/api/push/devices', cookie: a.cookie })).json().devices;
    expect(devices).toEqual([]);
  });

  it('mixer starting in 15 minutes: one push per member, to the mixer page', async () => {
    const m = await t.member('Nia Moss');
    const { path } = await subscribe(m);
    const [{ id: mixerId }] = (
      (await t.database.db.execute(sql`insert into mixers (title, status, starts_at, ends_at)
        values ('Board game night', 'scheduled', now() + interval '10 minutes', now() + interval '100 minutes') returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    await t.database.db.execute(sql`insert into mixer_memberships (mixer_id, user_id, state) values (${mixerId}, ${m.id}, 'joined')`);
    expect(await sendMixerPushReminders(t.app, new Date())).toBeGreaterThanOrEqual(1);
    expect(await sendMixerPushReminders(t.app, new Date())).toBe(0);
    await settle();
    expect(pushesTo(path)).toEqual([
      { title: 'Fancy', body: 'A mixer you joined starts soon', url: `/mixers/${mixerId}`, tag: `mixer-soon:${mixerId}` },
    ]);
  });
});

describe('devices', () => {
  it('are listed and removed by their owner only; bad input is 4xx with a message', async () => {
    const a = await t.member('Device Owner');
    const other = await t.member('Someone Else');
    expect((await t.request({ method: 'POST', url: '/api/push/devices', payload: push.subscription() })).statusCode).toBe(401);
    const { sub, device } = await subscribe(a);
    const listed = await t.request({
      method: 'GET',
      url: `/api/push/devices?endpoint=${encodeURIComponent(sub.endpoint)}`,
      cookie: a.cookie,
    });
    expect(listed.json().devices).toMatchObject([{ id: device.id, current: true, showPreviews: false }]);
    expect(listed.json().devices[0].categories).toEqual({ mixerSoon: true, invitation: true, match: true, message: true, mention: true });

    expect((await t.request({ method: 'DELETE', url: `/api/push/devices/${device.id}`, cookie: other.cookie })).statusCode).toBe(404);
    expect((await patch(other, device.id, { showPreviews: true })).statusCode).toBe(404);
    const bad = await patch(a, device.id, { quietStart: 60 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(PUSH_MESSAGES.quietHours);
    expect((await patch(a, device.id, { timeZone: 'Mars/Olympus' })).statusCode).toBe(400);
    expect((await patch(a, 'not-a-uuid', {})).statusCode).toBe(400);

    for (const endpoint of [
      'http://10.0.0.1/push/x',
      'https://169.254.169.254/latest',
      'file:///etc/passwd',
      'https://user:pw@push.example.com/x',
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/push/devices',
        cookie: a.cookie,
        payload: { ...push.subscription(), endpoint },
      });
      expect(res.statusCode, endpoint).toBe(400);
    }
    expect((await t.request({ method: 'DELETE', url: `/api/push/devices/${device.id}`, cookie: a.cookie })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/push/devices', cookie: a.cookie })).json().devices).toEqual([]);
  });
});

/** The same member signed in again, from another device (its own session and address). */
let deviceCount = 0;
async function signInAgain(m: Member): Promise<Member> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: `10.32.0.${++deviceCount}`,
    payload: { email: m.email, password: TEST_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...m, cookie: cookieHeader(res.headers['set-cookie']) };
}
const devicesOf = async (m: Member) =>
  (await t.request({ method: 'GET', url: '/api/push/devices', cookie: m.cookie })).json().devices as { id: string }[];
let keyCount = 0;
/** A push to the member with a key of its own (no coalescing with any other). */
const ping = async (userId: string) => {
  notify(t.app, userId, { category: 'invitation', url: '/mixers', key: `session-test:${++keyCount}` });
  await settle();
};

describe('a push subscription ends with the session that registered it (issue 32)', () => {
  it('"sign out other devices" ends that device’s subscription: the stand-in receives nothing more', async () => {
    const { a, b, matchId } = await matchedPair(t, ['Hana Mori', 'Luca Bianchi']);
    const phone = a; // session S1: the device with notifications on
    const laptop = await signInAgain(a); // session S2
    const { device, path } = await subscribe(phone);
    expect((await patch(phone, device.id, { showPreviews: true })).statusCode).toBe(200);
    await ping(a.id);
    expect(pushesTo(path)).toHaveLength(1);

    const revoked = await t.request({ method: 'POST', url: '/api/me/sessions/revoke-others', cookie: laptop.cookie });
    expect(revoked.json()).toEqual({ ok: true, revoked: 1 });
    expect((await send(t, b, matchId, 'Still there? The Crown at 8')).statusCode).toBe(201);
    await ping(a.id);
    expect(pushesTo(path)).toHaveLength(1);
    expect(JSON.stringify(pushesTo(path))).not.toMatch(/Crown|Luca/);
    expect(await devicesOf(laptop)).toEqual([]);
  });

  it('revoking that one session, signing out on the device, or a password change ends it too', async () => {
    const m = await t.member('Noor Haddad');
    const laptop = await signInAgain(m);

    // Revoked from another device (Settings → Signed-in devices).
    const phone = await signInAgain(m);
    const one = await subscribe(phone);
    const sessions = (await t.request({ method: 'GET', url: '/api/me/sessions', cookie: phone.cookie })).json().sessions as {
      id: string;
      current: boolean;
    }[];
    const phoneSession = sessions.find((s) => s.current)?.id as string;
    expect((await t.request({ method: 'DELETE', url: `/api/me/sessions/${phoneSession}`, cookie: laptop.cookie })).statusCode).toBe(200);

    // Log out on the device itself.
    const tablet = await signInAgain(m);
    const two = await subscribe(tablet);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', cookie: tablet.cookie })).statusCode).toBeLessThan(300);

    // A password change signs every other device out.
    const shared = await signInAgain(m);
    const three = await subscribe(shared);
    const changed = await t.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: laptop.cookie,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'a-fresh-kestrel-meadow' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // better-auth gives the device that changed the password a new session cookie.
    const after = { ...laptop, cookie: cookieHeader(changed.headers['set-cookie']) || laptop.cookie };

    await ping(m.id);
    expect([...pushesTo(one.path), ...pushesTo(two.path), ...pushesTo(three.path)]).toEqual([]);
    expect(await devicesOf(after)).toEqual([]);
  });

  it('the device that changes its password keeps its notifications under its new session', async () => {
    const m = await t.member('Yara Saleh');
    const other = await signInAgain(m);
    const mine = await subscribe(m);
    const theirs = await subscribe(other);
    await patch(m, mine.device.id, { showPreviews: true });
    const changed = await t.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: m.cookie,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'a-fresh-kestrel-meadow' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = { ...m, cookie: cookieHeader(changed.headers['set-cookie']) };
    const listed = await t.request({
      method: 'GET',
      url: `/api/push/devices?endpoint=${encodeURIComponent(mine.sub.endpoint)}`,
      cookie: renewed.cookie,
    });
    expect(listed.json().devices).toMatchObject([{ id: mine.device.id, current: true, showPreviews: true }]);
    await ping(m.id);
    expect(pushesTo(mine.path)).toHaveLength(1);
    expect(pushesTo(theirs.path)).toEqual([]);
  });

  it('turning two-step verification on and off (a new session each time) keeps this device’s notifications', async () => {
    const m = await t.member('Zeynep Arslan');
    const { path } = await subscribe(m);
    const post = (url: string, cookie: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url, cookie, payload });
    const { secret } = (await post('/api/me/two-factor/enable', m.cookie, { password: TEST_PASSWORD })).json() as { secret: string };
    const on = await post('/api/me/two-factor/verify', m.cookie, { code: totpCode(secret) });
    expect(on.statusCode, on.body).toBe(200);
    const cookie = cookieHeader(on.headers['set-cookie']);
    expect(await devicesOf({ ...m, cookie })).toHaveLength(1);
    await ping(m.id);
    expect(pushesTo(path)).toHaveLength(1);
    const off = await post('/api/me/two-factor/disable', cookie, { password: TEST_PASSWORD });
    expect(off.statusCode, off.body).toBe(200);
    expect(await devicesOf({ ...m, cookie: cookieHeader(off.headers['set-cookie']) })).toHaveLength(1);
    await ping(m.id);
    expect(pushesTo(path)).toHaveLength(2);
  });

  it('a password reset ends every device’s subscription', async () => {
    const m = await t.member('Tariq Aziz');
    const { path } = await subscribe(m);
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: m.email } });
    const link = new URL(await t.lastLinkTo(m.email));
    const landing = await t.request({ method: 'GET', url: link.pathname + link.search });
    const token = new URL(landing.headers.location as string, 'http://localhost:3000').searchParams.get('token') as string;
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'a-brand-new-secret' } })).statusCode,
    ).toBe(200);
    await ping(m.id);
    expect(pushesTo(path)).toEqual([]);
  });

  it('an expired session gets nothing, is not listed, and the sweep removes its subscription', async () => {
    const m = await t.member('Ines Duarte');
    const other = await signInAgain(m);
    const { path, device } = await subscribe(m);
    await t.database.db.execute(sql`update session set expires_at = now() - interval '1 minute'
      where id = (select session_id from push_subscriptions where id = ${device.id})`);
    await ping(m.id);
    expect(pushesTo(path)).toEqual([]);
    expect(await devicesOf(other)).toEqual([]);
    expect(await removeEndedSubscriptions(t.app)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.execute(sql`select 1 from push_subscriptions where id = ${device.id}`);
    expect((left as unknown as { rows: unknown[] }).rows).toEqual([]);
  });
  it('a session that has just ended (even if this instance still has it cached) cannot register a device', async () => {
    const m = await t.member('Omar Farouk');
    await t.request({ method: 'GET', url: '/api/push/devices', cookie: m.cookie }); // cached now
    await t.database.db.execute(sql`delete from session where user_id = ${m.id}`);
    const res = await t.request({ method: 'POST', url: '/api/push/devices', cookie: m.cookie, payload: push.subscription() });
    expect(res.statusCode).toBe(401);
    const left = await t.database.db.execute(sql`select 1 from push_subscriptions where user_id = ${m.id}`);
    expect((left as unknown as { rows: unknown[] }).rows).toEqual([]);
  });
});

describe('endpoint takeover (issue 32)', () => {
  it('another member posting my endpoint without its keys is refused; with the same keys (same browser) it moves', async () => {
    const a = await t.member('Ada Owner');
    const b = await t.member('Bea Other');
    const { sub, path } = await subscribe(a);
    const stranger = push.subscription(); // other keys
    const takeover = await t.request({
      method: 'POST',
      url: '/api/push/devices',
      cookie: b.cookie,
      payload: { endpoint: sub.endpoint, keys: stranger.keys },
    });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json().error.message).toBe(PUSH_MESSAGES.otherAccount);
    // Half the keys is not the same browser either.
    const half = await t.request({
      method: 'POST',
      url: '/api/push/devices',
      cookie: b.cookie,
      payload: { endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh, auth: stranger.keys.auth } },
    });
    expect(half.statusCode).toBe(409);
    expect(await devicesOf(a)).toHaveLength(1);
    expect(await devicesOf(b)).toEqual([]);
    await ping(a.id);
    expect(pushesTo(path)).toHaveLength(1);

    // A shared phone: A signed out, B signed in on the same browser, which keeps its subscription.
    await t.request({ method: 'POST', url: '/api/auth/logout', cookie: a.cookie });
    const again = await t.request({ method: 'POST', url: '/api/push/devices', cookie: b.cookie, payload: sub });
    expect(again.statusCode, again.body).toBe(200);
    expect(await devicesOf(b)).toHaveLength(1);
    await ping(b.id);
    expect(pushesTo(path)).toHaveLength(2);
  });

  it('the same keys may move a live subscription to another member (one browser, two accounts in turn)', async () => {
    const a = await t.member('Cleo Shared');
    const b = await t.member('Dev Shared');
    const a2 = await signInAgain(a);
    const { sub } = await subscribe(a);
    const moved = await t.request({ method: 'POST', url: '/api/push/devices', cookie: b.cookie, payload: sub });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await devicesOf(a2)).toEqual([]);
    expect(await devicesOf(b)).toHaveLength(1);
  });
});
