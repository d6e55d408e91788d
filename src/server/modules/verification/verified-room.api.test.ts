import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { face } from '../../../../tests/fixtures/faces';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app';
import { parseServerEvent, type ServerEvent } from '../../../shared/realtime/events';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { mixerMemberships, mixers, profiles } from '../../db/schema';
import { uploadMainPhoto, verifiedMember } from '../../../../tests/helpers/verification-fixtures';

/**
 * Issue 21: a verified-only mixer holds at the socket, like on list, detail and join. A member
 * without the badge cannot listen to its room, receive its lines or send to it; a member who
 * loses the badge (a main photo of someone else) loses their place and is taken out of the room
 * at once (decision 022).
 */
let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/realtime`;
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;

async function plainMember(name: string) {
  const m = await t.member(name);
  await t.database.db
    .update(profiles)
    .set({ fullName: name, onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Friends'] })
    .where(eq(profiles.id, m.id));
  return m;
}

async function liveVerifiedOnlyMixer(maxParticipants = 8) {
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Verified socket mixer',
      topic: 'Testing',
      status: 'live',
      verifiedOnly: true,
      startsAt: new Date(Date.now() - HOUR / 2),
      endsAt: new Date(Date.now() + HOUR),
      maxParticipants,
    })
    .returning({ id: mixers.id });
  return row.id;
}

const join = (cookie: string, id: string) => t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie, payload: {} });

async function connect(cookie: string) {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie } });
  const events: ServerEvent[] = [];
  const waiters: { pred: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (raw) => {
    const e = parseServerEvent(raw.toString());
    if (!e) return;
    events.push(e);
    for (const w of [...waiters]) {
      if (!w.pred(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  /** The first event from `from` on (default: any so far) that matches. */
  const next = (pred: (e: ServerEvent) => boolean, from = 0) =>
    new Promise<ServerEvent>((resolve, reject) => {
      const found = events.slice(from).find(pred);
      if (found) return resolve(found);
      waiters.push({ pred, resolve });
      setTimeout(() => reject(new Error('timed out waiting for an event')), 5000);
    });
  await next((e) => e.type === 'ready');
  const subscribe = (room: string) => {
    const from = events.length;
    socket.send(JSON.stringify({ type: 'subscribe', room }));
    return next((e) => (e.type === 'subscribed' || e.type === 'error') && 'room' in e && e.room === room, from);
  };
  const sendLine = (room: string, body: string, ref: string) => {
    socket.send(JSON.stringify({ type: 'send', room, body, ref }));
    return next((e) => (e.type === 'sent' || e.type === 'send-failed') && e.ref === ref);
  };
  /** Everything sent to this socket before now has arrived (the server answers pings in order). */
  const settle = async () => {
    const from = events.length;
    socket.send(JSON.stringify({ type: 'ping' }));
    await next((e) => e.type === 'pong', from);
  };
  const lines = () => events.filter((e) => e.type === 'mixer.message').map((e) => (e.type === 'mixer.message' ? e.message.body : ''));
  return { socket, events, subscribe, sendLine, settle, lines };
}

describe('verified-only mixers at the socket', () => {
  it('a member without the badge cannot subscribe, receive or send; a verified member in the mixer can', async () => {
    const id = await liveVerifiedOnlyMixer();
    const room = `mixer:${id}`;
    const vera = await verifiedMember(t, 'Vera Verified', { main: 'A3', selfie: 'A1' });
    const una = await plainMember('Una Unverified');
    expect((await join(vera.cookie, id)).statusCode).toBe(200);
    expect((await join(una.cookie, id)).json().error.code).toBe('verified_only');

    const cv = await connect(vera.cookie);
    const cu = await connect(una.cookie);
    expect(await cv.subscribe(room)).toMatchObject({ type: 'subscribed', room });
    expect(await cu.subscribe(room)).toMatchObject({ type: 'error', room });
    expect(await cu.sendLine(room, 'let me in', 'u1')).toMatchObject({
      type: 'send-failed',
      code: 'forbidden',
      message: MIXER_MESSAGES.chatMembersOnly,
    });
    expect(await cv.sendLine(room, 'Hello, verified people', 'v1')).toMatchObject({ type: 'sent' });
    await cu.settle();
    expect(cu.lines()).toEqual([]);
    expect(cv.lines()).toEqual(['Hello, verified people']);

    // Even holding a seat (e.g. taken before the mixer was made verified-only), no badge, no room.
    await t.database.db.insert(mixerMemberships).values({ mixerId: id, userId: una.id, state: 'joined' });
    expect(await cu.subscribe(room)).toMatchObject({ type: 'error', room });
    cv.socket.close();
    cu.socket.close();
  });

  it('losing the badge takes the member out: the seat goes to the next verified member waiting, the socket stops receiving, sends fail', async () => {
    const id = await liveVerifiedOnlyMixer(2);
    const room = `mixer:${id}`;
    const ann = await verifiedMember(t, 'Ann Anchor', { main: 'A3', selfie: 'A1' });
    const sam = await verifiedMember(t, 'Sam Swapper', { main: 'A3', selfie: 'A1' });
    const wes = await verifiedMember(t, 'Wes Waiting', { main: 'A3', selfie: 'A1' });
    expect((await join(ann.cookie, id)).statusCode).toBe(200);
    expect((await join(sam.cookie, id)).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'POST', url: `/api/mixers/${id}/join`, cookie: wes.cookie, payload: { waitlist: true } })).statusCode,
    ).toBe(200);
    const ca = await connect(ann.cookie);
    const cs = await connect(sam.cookie);
    await ca.subscribe(room);
    await cs.subscribe(room);
    expect(await ca.sendLine(room, 'before', 'a1')).toMatchObject({ type: 'sent' });
    await cs.settle();
    expect(cs.lines()).toEqual(['before']);

    // Sam makes a photo of someone else his main photo: the badge goes, and with it his seat.
    const swap = await uploadMainPhoto(t, sam.cookie, await face('C'));
    expect(swap.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/verification', cookie: sam.cookie })).json().status).toMatchObject({
      state: 'unverified',
      revoked: true,
    });
    const state = async (userId: string) =>
      (
        await t.database.db
          .select({ state: mixerMemberships.state })
          .from(mixerMemberships)
          .where(and(eq(mixerMemberships.mixerId, id), eq(mixerMemberships.userId, userId)))
      )[0]?.state;
    expect(await state(sam.id)).toBe('left');
    expect(await state(wes.id)).toBe('joined');

    expect(await ca.sendLine(room, 'after', 'a2')).toMatchObject({ type: 'sent' });
    await cs.settle();
    expect(cs.lines()).toEqual(['before']);
    expect(await cs.sendLine(room, 'still here?', 's1')).toMatchObject({ type: 'send-failed', code: 'forbidden' });
    expect(await cs.subscribe(room)).toMatchObject({ type: 'error', room });
    // Nor can he walk back in without verifying again.
    expect((await join(sam.cookie, id)).json().error.code).toBe('verified_only');
    ca.socket.close();
    cs.socket.close();
  });
});
