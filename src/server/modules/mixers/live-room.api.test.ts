import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, type LiveSocket } from '../../../../tests/helpers/live-socket';
import { createMixer, joinMixer, type Member, stats } from '../../../../tests/helpers/mixer-fixtures';
import { type PushServiceStandIn, startPushService } from '../../../../tests/helpers/push-service';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { MENTION_MESSAGES } from '../../../shared/schemas/chat-live';
import { blocks, moderationActions } from '../../db/schema';
import { pushIdle } from '../push/service';

/** The live room (issue 29): typing, presence, mentions and read state, over HTTP and the socket. */
let t: TestApp;
let wsUrl: string;
let push: PushServiceStandIn;
beforeAll(async () => {
  t = await createTestApp();
  push = await startPushService();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

type Conn = LiveSocket;
const connect = (cookie: string, room?: string) => connectLive(wsUrl, cookie, room);

async function room(names: string[]) {
  const people: Member[] = [];
  for (const n of names) people.push(await t.member(n));
  const mixerId = await createMixer(t, { title: 'Board games & brunch' });
  await joinMixer(
    t,
    mixerId,
    people.map((p) => p.id),
  );
  return { people, mixerId, room: `mixer:${mixerId}` };
}

const post = (m: Member, mixerId: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie, payload });

const closeAll = (...conns: Conn[]) => {
  for (const c of conns) c.socket.close();
};

describe('typing', () => {
  it('reaches the others in the room, never outsiders, and is never stored', async () => {
    const { people, mixerId, room: r } = await room(['Maya Typer', 'Rhys Reader']);
    const [maya, rhys] = people;
    const outsider = await t.member('Olly Outside');
    const cm = await connect(maya.cookie, r);
    const cr = await connect(rhys.cookie, r);
    const co = await connect(outsider.cookie);
    const mark = cr.events.length;
    cm.typing(r);
    expect(await cr.next(cr.is('typing'), mark)).toEqual({ type: 'typing', room: r, userId: maya.id, typing: true });
    cm.typing(r, false);
    expect(
      await cr.next(
        cr.is('typing', (e) => !e.typing),
        mark,
      ),
    ).toMatchObject({ userId: maya.id, typing: false });

    // Not in the room: refused, and nothing reaches the room.
    const before = cr.events.length;
    const om = co.events.length;
    co.typing(r);
    expect(await co.next(co.is('error'), om)).toEqual({ type: 'error', code: 'forbidden', message: 'You are not in this room.' });
    await cr.drain();
    expect(cr.events.slice(before).some((e) => e.type === 'typing')).toBe(false);

    // Never stored: no table has the event (the only writes are lines).
    const [{ n }] = (
      (await t.database.db.execute(sql`select count(*)::int as n from mixer_messages where mixer_id = ${mixerId}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(n).toBe(0);
    closeAll(cm, cr, co);
  });

  it('is invisible across a block, both ways, while the others still see it', async () => {
    const { people, room: r } = await room(['Ada Blocker', 'Ben Blocked', 'Cal Bystander']);
    const [ada, ben, cal] = people;
    await t.database.db.insert(blocks).values({ blockerId: ada.id, blockedId: ben.id });
    await t.app.realtime.visibilityChanged([ada.id, ben.id]);
    const [ca, cb, cc] = [await connect(ada.cookie, r), await connect(ben.cookie, r), await connect(cal.cookie, r)];
    const marks = [ca.events.length, cb.events.length, cc.events.length];
    cb.typing(r);
    await cc.next(
      cc.is('typing', (e) => e.userId === ben.id),
      marks[2],
    );
    ca.typing(r);
    await cc.next(
      cc.is('typing', (e) => e.userId === ada.id),
      marks[2],
    );
    await ca.drain();
    await cb.drain();
    expect(ca.events.slice(marks[0]).filter((e) => e.type === 'typing')).toEqual([]);
    expect(cb.events.slice(marks[1]).filter((e) => e.type === 'typing')).toEqual([]);
    closeAll(ca, cb, cc);
  });

  it('a block made while both are in the room hides typing from then on', async () => {
    const { people, room: r } = await room(['Dee Later', 'Eli Later']);
    const [dee, eli] = people;
    const [cd, ce] = [await connect(dee.cookie, r), await connect(eli.cookie, r)];
    let mark = cd.events.length;
    ce.typing(r);
    await cd.next(cd.is('typing'), mark);
    expect(
      (await t.request({ method: 'POST', url: '/api/blocks', cookie: dee.cookie, payload: { userId: eli.id } })).statusCode,
    ).toBeLessThan(300);
    mark = cd.events.length;
    ce.typing(r, false);
    ce.typing(r);
    await ce.drain();
    await cd.drain();
    expect(cd.events.slice(mark).filter((e) => e.type === 'typing')).toEqual([]);
    closeAll(cd, ce);
  });

  it('a member a moderator muted shows no typing: they cannot write there', async () => {
    const { people, room: r } = await room(['Hal Muted', 'Ivy Watching']);
    const [hal, ivy] = people;
    await t.database.db
      .insert(moderationActions)
      .values({ memberId: hal.id, action: 'mute', rule: 'hate', days: 1, endsAt: new Date(Date.now() + 86_400_000) });
    const [ch, ci] = [await connect(hal.cookie, r), await connect(ivy.cookie, r)];
    const mark = ci.events.length;
    ch.typing(r);
    // Ivy's own typing still reaches Hal: the room works, only Hal's is held back.
    ci.typing(r);
    await ch.next(ch.is('typing', (e) => e.userId === ivy.id));
    await ch.drain();
    await ci.drain();
    expect(ci.events.slice(mark).filter((e) => e.type === 'typing')).toEqual([]);
    closeAll(ch, ci);
  });
});

describe('presence', () => {
  it('a member joining shows to the room; closing the tab or losing the connection ends it', async () => {
    const { people, room: r } = await room(['Fay Present', 'Gus Present']);
    const [fay, gus] = people;
    const cf = await connect(fay.cookie, r);
    const snapshot = cf.events.find(cf.is('presence'));
    expect(snapshot?.userIds).toEqual([fay.id]);

    let mark = cf.events.length;
    const cg = await connect(gus.cookie, r);
    expect(await cf.next(cf.is('presence.changed'), mark)).toEqual({ type: 'presence.changed', room: r, userId: gus.id, online: true });
    expect(cg.events.find(cg.is('presence'))?.userIds.sort()).toEqual([fay.id, gus.id].sort());

    // A second tab and then closing one: still here.
    const cg2 = await connect(gus.cookie, r);
    mark = cf.events.length;
    cg2.socket.close();
    await new Promise((res) => cg2.socket.once('close', res));
    await cf.drain();
    expect(cf.events.slice(mark).filter((e) => e.type === 'presence.changed')).toEqual([]);

    // Closing the last tab ends it.
    mark = cf.events.length;
    cg.socket.close();
    expect(await cf.next(cf.is('presence.changed'), mark)).toEqual({ type: 'presence.changed', room: r, userId: gus.id, online: false });

    // A connection cut without a close frame ends it too.
    const cg3 = await connect(gus.cookie, r);
    await cf.next(
      cf.is('presence.changed', (e) => e.online),
      mark,
    );
    mark = cf.events.length;
    cg3.socket.terminate();
    expect(await cf.next(cf.is('presence.changed'), mark)).toMatchObject({ userId: gus.id, online: false });
    closeAll(cf);
  });

  it('leaving the mixer ends presence; a blocked member is never shown as here', async () => {
    const { people, mixerId, room: r } = await room(['Hal Here', 'Ivy Hidden', 'Jo Leaver']);
    const [hal, ivy, jo] = people;
    await t.database.db.insert(blocks).values({ blockerId: ivy.id, blockedId: hal.id });
    await t.app.realtime.visibilityChanged([hal.id, ivy.id]);
    const ch = await connect(hal.cookie, r);
    const mark = ch.events.length;
    const ci = await connect(ivy.cookie, r);
    expect(ci.events.find(ci.is('presence'))?.userIds).not.toContain(hal.id);
    const cj = await connect(jo.cookie, r);
    await ch.next(
      ch.is('presence.changed', (e) => e.userId === jo.id && e.online),
      mark,
    );
    await ch.drain();
    expect(ch.events.slice(mark).some((e) => e.type === 'presence.changed' && e.userId === ivy.id)).toBe(false);

    const left = ch.events.length;
    expect((await t.request({ method: 'POST', url: `/api/mixers/${mixerId}/leave`, cookie: jo.cookie, payload: {} })).statusCode).toBe(200);
    expect(
      await ch.next(
        ch.is('presence.changed', (e) => e.userId === jo.id),
        left,
      ),
    ).toMatchObject({ online: false });
    closeAll(ch, ci, cj);
  });

  it('a block made while both are in the room: neither sees the other leave', async () => {
    const { people, room: r } = await room(['Kit Blocker', 'Lou Blocked', 'Max Bystander']);
    const [kit, lou, max] = people;
    const [ck, cl, cm] = [await connect(kit.cookie, r), await connect(lou.cookie, r), await connect(max.cookie, r)];
    await ck.next(ck.is('presence.changed', (e) => e.userId === max.id && e.online));
    await cl.next(cl.is('presence.changed', (e) => e.userId === max.id && e.online));
    expect(
      (await t.request({ method: 'POST', url: '/api/blocks', cookie: kit.cookie, payload: { userId: lou.id } })).statusCode,
    ).toBeLessThan(300);
    const [mk, mm] = [ck.events.length, cm.events.length];
    cl.socket.close();
    // The bystander still sees Lou go; Kit does not.
    await cm.next(
      cm.is('presence.changed', (e) => e.userId === lou.id && !e.online),
      mm,
    );
    await ck.drain();
    expect(ck.events.slice(mk).filter((e) => e.type === 'presence.changed' && e.userId === lou.id)).toEqual([]);

    // And the other way round: Lou, back in the room, never sees Kit leave.
    const cl2 = await connect(lou.cookie, r);
    expect(cl2.events.find(cl2.is('presence'))?.userIds).not.toContain(kit.id);
    const ml = cl2.events.length;
    ck.socket.close();
    await cm.next(
      cm.is('presence.changed', (e) => e.userId === kit.id && !e.online),
      mm,
    );
    await cl2.drain();
    expect(cl2.events.slice(ml).filter((e) => e.type === 'presence.changed' && e.userId === kit.id)).toEqual([]);
    closeAll(cl2, cm);
  });
});

describe('mentions', () => {
  it('only participants can be mentioned: a clear 400 over HTTP and the socket, nothing saved', async () => {
    const { people, mixerId, room: r } = await room(['Kit Mentioner', 'Lou Mentioned']);
    const [kit] = people;
    const outsider = await t.member('Max Outsider');
    for (const mentions of [[outsider.id], ['not-a-member'], [kit.id]]) {
      const res = await post(kit, mixerId, { body: '@Max hello', mentions });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toBe(MENTION_MESSAGES.notParticipant);
    }
    const ck = await connect(kit.cookie, r);
    ck.socket.send(JSON.stringify({ type: 'send', room: r, body: '@Max hi', ref: 'm1', mentions: [outsider.id] }));
    expect(await ck.next(ck.is('send-failed'))).toEqual({
      type: 'send-failed',
      ref: 'm1',
      code: 'validation',
      message: MENTION_MESSAGES.notParticipant,
    });
    const history = await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/messages`, cookie: kit.cookie });
    expect(history.json().items).toEqual([]);
    closeAll(ck);
  });

  it('a mention of a blocked participant is refused like a non-participant', async () => {
    const { people, mixerId } = await room(['Nia Blocked', 'Oz Blocker']);
    const [nia, oz] = people;
    await t.database.db.insert(blocks).values({ blockerId: oz.id, blockedId: nia.id });
    const res = await post(nia, mixerId, { body: '@Oz hi', mentions: [oz.id] });
    expect(res.statusCode).toBe(400);
  });

  it('is stored with the line, shown in history and counts on the mentioned member’s badge until read', async () => {
    const { people, mixerId } = await room(['Pia Sender', 'Quin Target', 'Ray Other']);
    const [pia, quin, ray] = people;
    const res = await post(pia, mixerId, { body: '@Quin have you played Wingspan?', mentions: [quin.id] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mentions).toEqual([quin.id]);
    const history = await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/messages`, cookie: ray.cookie });
    expect(history.json().items[0].mentions).toEqual([quin.id]);
    expect((await stats(t, quin)).mixerMentions).toBe(1);
    expect((await stats(t, ray)).mixerMentions).toBe(0);
    const read = await t.request({
      method: 'PUT',
      url: `/api/mixers/${mixerId}/read`,
      cookie: quin.cookie,
      payload: { messageId: res.json().id },
    });
    expect(read.json()).toMatchObject({ unread: 0, mentions: 0 });
    expect((await stats(t, quin)).mixerMentions).toBe(0);
  });

  it('pushes to the mentioned member per their settings: on by default, discreet, off when turned off', async () => {
    const { people, mixerId } = await room(['Sid Pusher', 'Tia Pushed']);
    const [sid, tia] = people;
    const sub = push.subscription();
    const res = await t.request({ method: 'POST', url: '/api/push/devices', cookie: tia.cookie, payload: sub });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.json().device as { id: string; categories: Record<string, boolean> };
    expect(device.categories.mention).toBe(true);
    const path = new URL(sub.endpoint).pathname;

    expect((await post(sid, mixerId, { body: '@Tia which one is your favourite?', mentions: [tia.id] })).statusCode).toBe(201);
    await pushIdle(t.app);
    const got = push.received.filter((p) => p.path === path).map((p) => p.payload);
    expect(got).toEqual([{ title: 'Fancy', body: 'You were mentioned in a mixer', url: `/mixers/${mixerId}`, tag: `mention:${mixerId}` }]);
    expect(JSON.stringify(got)).not.toMatch(/Sid|favourite/);

    // Turned off: nothing, even after the 10-minute coalescing window.
    const off = await t.request({
      method: 'PATCH',
      url: `/api/push/devices/${device.id}`,
      cookie: tia.cookie,
      payload: { categories: { mention: false } },
    });
    expect(off.json().device.categories.mention).toBe(false);
    await t.database.db.execute(sql`delete from push_coalesce where user_id = ${tia.id}`);
    expect((await post(sid, mixerId, { body: '@Tia still there?', mentions: [tia.id] })).statusCode).toBe(201);
    await pushIdle(t.app);
    expect(push.received.filter((p) => p.path === path)).toHaveLength(1);
  });
});

describe('read state', () => {
  it('remembers where each member stopped, only forward, for members only', async () => {
    const { people, mixerId } = await room(['Uma Reader', 'Vic Writer']);
    const [uma, vic] = people;
    const outsider = await t.member('Wes Outside');
    const ids: string[] = [];
    for (const body of ['one', 'two', 'three']) ids.push((await post(vic, mixerId, { body })).json().id);
    const get = (m: Member) => t.request({ method: 'GET', url: `/api/mixers/${mixerId}/read`, cookie: m.cookie });
    const put = (m: Member, messageId: string) =>
      t.request({ method: 'PUT', url: `/api/mixers/${mixerId}/read`, cookie: m.cookie, payload: { messageId } });

    expect((await get(uma)).json()).toEqual({ readAt: null, unread: 3, mentions: 0 });
    const first = await put(uma, ids[0]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ unread: 2 });
    expect(first.json().readAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await put(uma, ids[2])).json()).toMatchObject({ unread: 0 });
    // Never backwards.
    expect((await put(uma, ids[1])).json()).toMatchObject({ unread: 0 });
    // My own lines are never unread for me.
    expect((await get(vic)).json()).toMatchObject({ unread: 0 });

    expect((await get(outsider)).statusCode).toBe(403);
    expect((await put(outsider, ids[0])).statusCode).toBe(403);
    expect((await put(uma, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await put(uma, 'nope')).statusCode).toBe(400);
    const anon = await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/read` });
    expect(anon.statusCode).toBe(401);
  });
});
