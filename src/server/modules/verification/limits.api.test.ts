import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { face, type Who } from '../../../../tests/fixtures/faces';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { checkBody, memberWithPhoto as withPhoto } from '../../../../tests/helpers/verification-fixtures';
import { type ChallengeStep, FRAME_PROBLEMS, TOO_MANY_ATTEMPTS } from '../../../shared/verification';

/**
 * Issue 31 (decision 031): tries are spent where challenges are issued, every limit holds when
 * requests arrive at once, the challenge is a nonce that expires and answers once, and a bad
 * picture is a clear 4xx that spends no try.
 */
const t = setupTestApp();

const memberWithPhoto = (name: string, photo?: Who) => withPhoto(t, name, photo);

const askChallenge = (cookie: string) =>
  t.request({ method: 'POST', url: '/api/verification/challenge', cookie, payload: { consent: true } });

async function challenge(cookie: string) {
  const res = await askChallenge(cookie);
  expect(res.statusCode).toBe(200);
  return res.json().challenge as { id: string; steps: ChallengeStep[] };
}

const check = (cookie: string, id: string, frames: Buffer[]) =>
  t.request({ method: 'POST', url: '/api/verification/check', cookie, ...checkBody(id, { frames }) });

const count = async (statement: ReturnType<typeof sql>) =>
  Number(((await t.database.db.execute(statement)) as unknown as { rows: { n: number }[] }).rows[0].n);

const triesLeft = async (cookie: string) =>
  (await t.request({ method: 'GET', url: '/api/verification', cookie })).json().status.attemptsLeft as number;

/** Five frames of one still face, a second apart: enough to be judged (and refused), which is all these tests need. */
const stillFrames = async () => Promise.all(Array.from({ length: 5 }, () => face('B')));

describe('Verification limits', () => {
  it('spends a try when a challenge is issued: asking again and again until the order suits costs like failing', async () => {
    const m = await memberWithPhoto('Fiona Fisher');
    expect(await triesLeft(m.cookie)).toBe(3);
    await challenge(m.cookie);
    await challenge(m.cookie);
    expect(await triesLeft(m.cookie)).toBe(1);
    await challenge(m.cookie);
    const fourth = await askChallenge(m.cookie);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.message).toBe(TOO_MANY_ATTEMPTS);
    expect(await triesLeft(m.cookie)).toBe(0);
  });

  it('six challenges asked at once: only three are issued', async () => {
    const m = await memberWithPhoto('Connor Current');
    const answers = await Promise.all(Array.from({ length: 6 }, () => askChallenge(m.cookie)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(3);
    expect(await count(sql`select count(*)::int as n from verification_challenges where user_id = ${m.id}`)).toBe(3);
  });

  it('six checks submitted at once against three challenges: three are judged, three refused, none counted twice', async () => {
    const m = await memberWithPhoto('Sixtus Sametime');
    const ids = [(await challenge(m.cookie)).id, (await challenge(m.cookie)).id, (await challenge(m.cookie)).id];
    const frames = await stillFrames();
    const answers = await Promise.all([...ids, ...ids].map((id) => check(m.cookie, id, frames)));
    const judged = answers.filter((a) => a.statusCode === 200);
    expect(judged).toHaveLength(3);
    expect(judged.every((a) => a.json().result.outcome === 'failed')).toBe(true);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(3);
    expect(await count(sql`select count(*)::int as n from verification_attempts where user_id = ${m.id}`)).toBe(3);
    expect(await triesLeft(m.cookie)).toBe(0);
    expect((await askChallenge(m.cookie)).statusCode).toBe(429);
  }, 120_000);

  it('the challenge is a nonce: it answers once, and not after it expires', async () => {
    const m = await memberWithPhoto('Nora Nonce');
    const frames = await stillFrames();
    const c = await challenge(m.cookie);
    expect((await check(m.cookie, c.id, frames)).statusCode).toBe(200);
    const reused = await check(m.cookie, c.id, frames);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.message).toMatch(/expired/);

    const late = await challenge(m.cookie);
    await t.database.db.execute(sql`update verification_challenges set expires_at = now() - interval '1 second' where id = ${late.id}`);
    const expired = await check(m.cookie, late.id, frames);
    expect(expired.statusCode).toBe(409);
    // Another member cannot use someone else's challenge either.
    const other = await memberWithPhoto('Otto Other');
    const mine = await challenge(m.cookie);
    expect((await check(other.cookie, mine.id, frames)).statusCode).toBe(409);
  });

  it('a damaged, cut-short, non-picture or HEIC frame is a clear 4xx that spends no try', async () => {
    const m = await memberWithPhoto('Corrie Corrupt');
    const good = await face('B');
    const cases: { frame: Buffer; status: number; message: string }[] = [
      { frame: good.subarray(0, Math.floor(good.length / 2)), status: 400, message: FRAME_PROBLEMS.unreadable },
      { frame: Buffer.from('this is not a picture at all, just some text'), status: 415, message: FRAME_PROBLEMS.not_image },
      {
        // The start of an iPhone HEIC file (its ftyp box).
        frame: Buffer.concat([
          Buffer.from([0, 0, 0, 0x18]),
          Buffer.from('ftypheic'),
          Buffer.alloc(4),
          Buffer.from('mif1heic'),
          Buffer.alloc(64),
        ]),
        status: 415,
        message: FRAME_PROBLEMS.heic,
      },
    ];
    // Damaged inside while its start and end markers are intact: only decoding finds out.
    const scrambled = Buffer.from(good);
    for (let i = 700; i < scrambled.length - 700; i += 3) scrambled[i] = 0xff;
    cases.push({ frame: scrambled, status: 400, message: FRAME_PROBLEMS.unreadable });
    for (const [i, { frame, status, message }] of cases.entries()) {
      const c = await challenge(m.cookie);
      const frames = await stillFrames();
      frames[2] = frame;
      const res = await check(m.cookie, c.id, frames);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.message).toBe(message);
      // No try spent: only the day's cap of six challenges (four of them asked for) comes nearer.
      expect(await triesLeft(m.cookie)).toBe(Math.min(3, 6 - (i + 1)));
    }
    expect(await count(sql`select count(*)::int as n from verification_attempts where user_id = ${m.id}`)).toBe(0);
  });

  it('a very dark or black-and-white camera gets told what to do, and spends no try', async () => {
    const m = await memberWithPhoto('Dora Dark');
    const dark = await sharp(await face('B'))
      .linear(0.12, 0)
      .jpeg()
      .toBuffer();
    const grey = await sharp(await face('B'))
      .greyscale()
      .jpeg()
      .toBuffer();
    for (const [frame, message] of [
      [dark, FRAME_PROBLEMS.too_dark],
      [grey, FRAME_PROBLEMS.greyscale],
    ] as const) {
      const c = await challenge(m.cookie);
      const frames = await Promise.all(Array.from({ length: 5 }, () => frame));
      const res = await check(m.cookie, c.id, frames);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
      expect(await triesLeft(m.cookie)).toBe(3);
    }
    expect(FRAME_PROBLEMS.too_dark).toMatch(/^More light on your face, please/);
  });

  it('tries given back still count towards the day’s cap on challenges', async () => {
    const m = await memberWithPhoto('Vic Void');
    for (let i = 0; i < 6; i++) {
      const c = await challenge(m.cookie);
      const res = await check(m.cookie, c.id, [await face('B'), Buffer.from('nope'), await face('B'), await face('B'), await face('B')]);
      expect(res.statusCode).toBe(415);
    }
    expect((await askChallenge(m.cookie)).statusCode).toBe(429);
  });
});
