import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { createMixer, joinMixer, type Member, matchedPair, send } from '../../../../tests/helpers/mixer-fixtures';
import { LINE_PRIVACY_MESSAGES } from '../../../shared/schemas/line-privacy';

/** Issue 30: hide a line and mute a member in a mixer — for yourself only, undoable, kept on the server. */
const t = setupTestApp();

const req = (m: Member, method: 'GET' | 'PUT' | 'DELETE', url: string) => t.request({ method, url, cookie: m.cookie });
const privacy = async (m: Member, q: string) => (await req(m, 'GET', `/api/line-privacy?${q}`)).json();
async function line(m: Member, mixerId: string, body: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie, payload: { body } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe('hide a line', () => {
  it('in a mixer: private to the member who hid it, undoable; history still has it for everyone', async () => {
    const [a, b, c] = [await t.member('Hana Hider'), await t.member('Bea Writer'), await t.member('Cal Other')];
    const mixerId = await createMixer(t);
    await joinMixer(t, mixerId, [a.id, b.id, c.id]);
    const id = await line(b, mixerId, 'a line to hide');

    expect((await req(a, 'PUT', `/api/hidden-lines/mixer/${id}`)).json()).toEqual({ hidden: true });
    expect((await req(a, 'PUT', `/api/hidden-lines/mixer/${id}`)).statusCode).toBe(200);
    expect(await privacy(a, `mixerId=${mixerId}`)).toEqual({ hiddenLineIds: [id], mutedMemberIds: [] });
    for (const m of [b, c]) expect(await privacy(m, `mixerId=${mixerId}`)).toEqual({ hiddenLineIds: [], mutedMemberIds: [] });

    expect((await req(a, 'DELETE', `/api/hidden-lines/mixer/${id}`)).json()).toEqual({ hidden: false });
    expect((await privacy(a, `mixerId=${mixerId}`)).hiddenLineIds).toEqual([]);
  });

  it('refuses a line the member cannot see, of another kind, or malformed: 4xx, never 500', async () => {
    const [a, b, outsider] = [await t.member('Ira Inside'), await t.member('Jo Inside'), await t.member('Kit Outside')];
    const mixerId = await createMixer(t);
    await joinMixer(t, mixerId, [a.id, b.id]);
    const id = await line(b, mixerId, 'members only');
    const refused = await req(outsider, 'PUT', `/api/hidden-lines/mixer/${id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toBe(LINE_PRIVACY_MESSAGES.lineNotFound);
    expect((await req(a, 'PUT', `/api/hidden-lines/dm/${id}`)).statusCode).toBe(404);
    expect((await req(a, 'PUT', '/api/hidden-lines/mixer/not-a-uuid')).statusCode).toBe(400);
    expect((await req(a, 'PUT', `/api/hidden-lines/banana/${id}`)).statusCode).toBe(400);
    expect((await req(a, 'GET', '/api/line-privacy')).statusCode).toBe(400);
    expect((await t.request({ method: 'PUT', url: `/api/hidden-lines/mixer/${id}` })).statusCode).toBe(401);
  });

  it('in a private chat: only while the member may see the conversation', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const id = (await send(t, b, matchId, 'hide me')).json().message.id;
    expect((await req(a, 'PUT', `/api/hidden-lines/dm/${id}`)).statusCode).toBe(200);
    expect(await privacy(a, `matchId=${matchId}`)).toEqual({ hiddenLineIds: [id], mutedMemberIds: [] });
    expect((await privacy(b, `matchId=${matchId}`)).hiddenLineIds).toEqual([]);
    // B unmatches: the conversation is gone for A, and so is anything A could hide in it.
    await t.request({ method: 'POST', url: `/api/matches/${matchId}/unmatch`, cookie: b.cookie });
    expect((await req(a, 'PUT', `/api/hidden-lines/dm/${id}`)).statusCode).toBe(404);
  });
});

describe('mute a member in a mixer', () => {
  it('private to the member who muted, per mixer, undoable', async () => {
    const [a, b, c] = [await t.member('Mo Muter'), await t.member('Ned Noisy'), await t.member('Oz Other')];
    const mixerId = await createMixer(t);
    const elsewhere = await createMixer(t);
    await joinMixer(t, mixerId, [a.id, b.id, c.id]);
    await joinMixer(t, elsewhere, [a.id, b.id]);

    expect((await req(a, 'PUT', `/api/mixers/${mixerId}/mutes/${b.id}`)).json()).toEqual({ muted: true });
    expect(await privacy(a, `mixerId=${mixerId}`)).toEqual({ hiddenLineIds: [], mutedMemberIds: [b.id] });
    expect((await privacy(a, `mixerId=${elsewhere}`)).mutedMemberIds).toEqual([]);
    for (const m of [b, c]) expect((await privacy(m, `mixerId=${mixerId}`)).mutedMemberIds).toEqual([]);
    // B's lines still reach everyone, A included (A's client collapses them).
    const id = await line(b, mixerId, 'still said');
    const history = (await req(a, 'GET', `/api/mixers/${mixerId}/messages`)).json();
    expect(JSON.stringify(history)).toContain(id);

    expect((await req(a, 'DELETE', `/api/mixers/${mixerId}/mutes/${b.id}`)).json()).toEqual({ muted: false });
    expect((await privacy(a, `mixerId=${mixerId}`)).mutedMemberIds).toEqual([]);
  });

  it('refuses yourself, members not in the mixer, mixers you are not in, and members hidden from you', async () => {
    const [a, b, outsider] = [await t.member('Pia Muter'), await t.member('Quin Seated'), await t.member('Ray Outside')];
    const mixerId = await createMixer(t);
    await joinMixer(t, mixerId, [a.id, b.id]);
    const self = await req(a, 'PUT', `/api/mixers/${mixerId}/mutes/${a.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(LINE_PRIVACY_MESSAGES.muteSelf);
    const notIn = await req(a, 'PUT', `/api/mixers/${mixerId}/mutes/${outsider.id}`);
    expect(notIn.statusCode).toBe(404);
    expect(notIn.json().error.message).toBe(LINE_PRIVACY_MESSAGES.memberNotInMixer);
    expect((await req(outsider, 'PUT', `/api/mixers/${mixerId}/mutes/${b.id}`)).statusCode).toBe(404);
    expect((await req(a, 'PUT', `/api/mixers/not-a-mixer/mutes/${b.id}`)).statusCode).toBe(400);
    await t.request({ method: 'POST', url: '/api/blocks', cookie: b.cookie, payload: { userId: a.id } });
    expect((await req(a, 'PUT', `/api/mixers/${mixerId}/mutes/${b.id}`)).statusCode).toBe(404);
  });
});
