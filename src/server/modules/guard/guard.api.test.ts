import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMixer, joinMixer, matchedPair, type Member } from '../../../../tests/helpers/mixer-fixtures';
import { completeProfile } from '../../../../tests/helpers/profile-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { GUARD_MESSAGES, HIDDEN_WORDS_MAX } from '../../../shared/schemas/guard';
import { rowsOf } from '../../lib/sql';

const t = setupTestApp();

const say = (m: Member, mixerId: string, body: string, extra: Record<string, unknown> = {}) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie, payload: { body, ...extra } });
const dm = (m: Member, matchId: string, body: string, extra: Record<string, unknown> = {}) =>
  t.request({ method: 'POST', url: `/api/conversations/${matchId}/messages`, cookie: m.cookie, payload: { body, ...extra } });
const history = async (m: Member, mixerId: string) =>
  (await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie })).json().items as {
    body: string;
    flag: string | null;
  }[];
const thread = async (m: Member, matchId: string) =>
  (await t.request({ method: 'GET', url: `/api/conversations/${matchId}/messages`, cookie: m.cookie })).json().messages as {
    body: string;
    flag: string | null;
  }[];
const count = async (table: 'mixer_messages' | 'direct_messages') =>
  Number(rowsOf<{ n: number }>(await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n);

async function room() {
  const a = await t.member('Maya Okafor');
  const b = await t.member('Rhys Llewellyn');
  const mixerId = await createMixer(t);
  await joinMixer(t, mixerId, [a.id, b.id]);
  return { a, b, mixerId };
}

describe('a mixer line with contact details or money', () => {
  it('is not sent: 422 with the reason, nothing saved', async () => {
    const { a, b, mixerId } = await room();
    const before = await count('mixer_messages');
    const phone = await say(a, mixerId, 'text me on 07700 900123');
    expect(phone.statusCode).toBe(422);
    expect(phone.json().error).toEqual({ code: 'held', message: GUARD_MESSAGES.heldContact });
    const scam = await say(a, mixerId, 'my bank account is frozen, can you send me £200');
    expect(scam.statusCode).toBe(422);
    expect(scam.json().error.message).toBe(GUARD_MESSAGES.heldScam);
    // Even with "send anyway": holding is not a question.
    expect((await say(a, mixerId, 'add me on insta', { confirmed: true })).statusCode).toBe(422);
    expect(await count('mixer_messages')).toBe(before);
    expect(await history(b, mixerId)).toEqual([]);
  });

  it('a mention of someone in the room is fine; a handle is not', async () => {
    const { a, b, mixerId } = await room();
    expect((await say(a, mixerId, '@Rhys what did you think of it?')).statusCode).toBe(201);
    expect((await say(a, mixerId, '@rhys_l92 is me everywhere')).statusCode).toBe(422);
    expect((await history(b, mixerId)).map((l) => l.body)).toEqual(['@Rhys what did you think of it?']);
  });
});

describe('abuse: Are you sure?', () => {
  it('asks first (428), then a line sent anyway reaches the room flagged, in history too', async () => {
    const { a, b, mixerId } = await room();
    const first = await say(a, mixerId, 'you are a stupid bitch');
    expect(first.statusCode).toBe(428);
    expect(first.json().error).toEqual({ code: 'confirm_needed', message: GUARD_MESSAGES.areYouSure });
    expect(await history(b, mixerId)).toEqual([]);
    const anyway = await say(a, mixerId, 'you are a stupid bitch', { confirmed: true });
    expect(anyway.statusCode).toBe(201);
    expect(anyway.json().flag).toBe('abuse');
    expect(await history(b, mixerId)).toMatchObject([{ body: 'you are a stupid bitch', flag: 'abuse' }]);
    // An ordinary line carries no flag.
    expect((await say(a, mixerId, 'sorry, that was rude')).json().flag).toBeNull();
  });

  it('in a private chat too', async () => {
    const { a, b, matchId } = await matchedPair(t);
    expect((await dm(a, matchId, 'I will kill you')).statusCode).toBe(428);
    expect(await thread(b, matchId)).toEqual([]);
    const sent = await dm(a, matchId, 'I will kill you', { confirmed: true });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().message.flag).toBe('abuse');
    expect(await thread(b, matchId)).toMatchObject([{ flag: 'abuse' }]);
  });
});

describe('a private chat line with contact details or money', () => {
  it('is sent, flagged for the receiver during the first 72 hours of the match only', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const sent = await dm(a, matchId, 'my number is 07700 900123');
    expect(sent.statusCode).toBe(201);
    expect(sent.json().message.flag).toBe('contact');
    const scam = await dm(a, matchId, 'could you lend me 200 quid? my account is frozen');
    expect(scam.json().message.flag).toBe('scam');
    await t.database.db.execute(sql`update matches set created_at = now() - interval '73 hours' where id = ${matchId}`);
    expect((await dm(a, matchId, 'add me on whatsapp')).json().message.flag).toBeNull();
    expect((await dm(a, matchId, 'send me £50 by western union')).json().message.flag).toBe('scam');
    expect((await thread(b, matchId)).map((m) => m.flag)).toEqual(['contact', 'scam', null, 'scam']);
  });
});

describe('profile texts', () => {
  it('a bio or prompt with contact details, money or abuse is refused, saying which part', async () => {
    const m = await t.member('Maya Okafor');
    await completeProfile(t.database.db, m.id);
    const edit = (payload: Record<string, unknown>) => t.request({ method: 'PATCH', url: '/api/me/profile', cookie: m.cookie, payload });
    const bio = await edit({ bio: 'Say hi on insta: maya_m92' });
    expect(bio.statusCode).toBe(400);
    expect(bio.json().error.message).toMatch(/^Your bio contains contact details/);
    expect(bio.json().error.fields.bio).toMatch(/^Your bio/);
    const prompt = await edit({ smallJoy: 'Watching my bitcoin investments grow, 20% a week guaranteed returns, ask me how to join in' });
    expect(prompt.statusCode).toBe(400);
    expect(prompt.json().error.fields.smallJoy).toMatch(/A small joy that matters to me/);
    const fine = await edit({ bio: 'Nurse in Leeds, my number one film is Alien. Scunthorpe born.' });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('a name or city that is a handle or a number is refused too (the name shows beside every line); real names pass', async () => {
    const m = await t.member('Maya Okafor');
    await completeProfile(t.database.db, m.id);
    const edit = (payload: Record<string, unknown>) => t.request({ method: 'PATCH', url: '/api/me/profile', cookie: m.cookie, payload });
    for (const fullName of ['maya_m92', 'Maya 07700 900123', 'snap: maya.m']) {
      const res = await edit({ fullName });
      expect(res.statusCode, fullName).toBe(400);
      expect(res.json().error.fields.fullName).toMatch(/^Your name contains contact details/);
    }
    const city = await edit({ cityRegion: 'Leeds, text 07700 900123' });
    expect(city.statusCode).toBe(400);
    expect(city.json().error.fields.cityRegion).toMatch(/^Your city or region contains contact details/);
    const register = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { fullName: 'kik: maya_m92', email: 'handle-name@example.test', password: 'velvet-otter-lantern-42' },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().error.fields.fullName).toMatch(/^Your name/);
    for (const fullName of ['Dick Smith', 'Jean-Luc Picard', "Siobhán O'Neill"])
      expect((await edit({ fullName })).statusCode, fullName).toBe(200);
  });
});

describe('hidden words', () => {
  const put = (m: Member, words: unknown) =>
    t.request({ method: 'PUT', url: '/api/settings/hidden-words', cookie: m.cookie, payload: { words } });
  const get = (m: Member | null) => t.request({ method: 'GET', url: '/api/settings/hidden-words', cookie: m?.cookie });

  it('a private list of up to 100 words, phrases or emoji', async () => {
    const m = await t.member('Maya Okafor');
    const other = await t.member('Rhys Llewellyn');
    expect((await get(null)).statusCode).toBe(401);
    expect((await get(m)).json()).toEqual({ words: [] });
    const saved = await put(m, ['ex', 'gym bro', '🍆', 'EX']);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().words).toEqual(['ex', 'gym bro', '🍆']);
    expect((await get(m)).json().words).toEqual(['ex', 'gym bro', '🍆']);
    expect((await get(other)).json().words).toEqual([]);

    const tooMany = await put(
      m,
      Array.from({ length: HIDDEN_WORDS_MAX + 1 }, (_, i) => `word${i}`),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe(GUARD_MESSAGES.hiddenWordsTooMany);
    expect(
      (
        await put(
          m,
          Array.from({ length: HIDDEN_WORDS_MAX }, (_, i) => `word${i}`),
        )
      ).statusCode,
    ).toBe(200);
    expect((await put(m, ['x'.repeat(51)])).statusCode).toBe(400);
    expect((await put(m, ['  '])).statusCode).toBe(400);
    expect((await put(m, 'ex')).statusCode).toBe(400);
    expect((await get(m)).json().words).toHaveLength(HIDDEN_WORDS_MAX);
    expect((await put(m, [])).json().words).toEqual([]);
  });
});

describe('slow mode', () => {
  it('more than 5 lines in 10 s: one line per 10 s for that member, with a message; others unaffected', async () => {
    const { a, b, mixerId } = await room();
    for (let i = 1; i <= 5; i++) expect((await say(a, mixerId, `line ${i}`)).statusCode).toBe(201);
    const sixth = await say(a, mixerId, 'line 6');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.message).toBe(GUARD_MESSAGES.slowMode);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const again = await say(a, mixerId, 'line 7');
    expect(again.statusCode).toBe(429);
    expect(again.json().error.message).toBe(GUARD_MESSAGES.slowModeWait);
    expect((await say(b, mixerId, 'am I fine?')).statusCode).toBe(201);
    // The room was told nothing: only the lines themselves are in it.
    expect((await history(b, mixerId)).map((l) => l.body)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'am I fine?']);
  });
});
