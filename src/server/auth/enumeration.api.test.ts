import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app';

// No auth answer may tell whether an address has an account: not its status, not its body, not
// its time. Times are compared pair by pair (a known and an unknown address one after the other,
// so a busy spell of the machine falls on both), as the median of the pairs' ratios, with a wide bound.
const SAMPLES = 21;
// A leak shows as a ratio of 10 to 250 (a hash, a mail, a query skipped). Noise: 1.0–1.5 on a quiet
// machine, and 2.6 once in a fresh-clone CI run beside the journeys (resend verification,
// 2026-11-29), so the bound sits well above noise and well below a leak.
const MAX_RATIO = 4;

let t: TestApp;
const known: string[] = [];
let ipCounter = 0;
const nextIp = () => `10.66.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < SAMPLES + 1; i++) {
    const email = `known${i}@example.com`;
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: { fullName: 'Known', email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    known.push(email);
  }
  await t.mailsTo(known[0]);
});
afterAll(async () => {
  await t?.close();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Sends interleaved requests for a known and an unknown address; returns both sides' answers and median times. */
async function compare(url: string, payload: (email: string, i: number) => Record<string, unknown>, unknown: (i: number) => string) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const answers = { known: new Set<string>(), unknown: new Set<string>() };
  // One warm-up pair, not measured.
  for (let i = -1; i < SAMPLES; i++) {
    for (const side of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      const email = side === 'known' ? known[i + 1] : unknown(i + 1);
      // Mail work runs after each response (on purpose): let the last one finish so it does not
      // land inside this request's time, which is all an observer can measure.
      await t.app.deps.mailer.idle();
      const start = performance.now();
      const res = await t.request({ method: 'POST', url, remoteAddress: nextIp(), payload: payload(email, i + 1) });
      const ms = performance.now() - start;
      if (i < 0) continue;
      times[side].push(ms);
      answers[side].add(`${res.statusCode} ${res.body.replace(email, '<email>')}`);
    }
  }
  await t.mailsTo(known[0]);
  const ratio = median(times.known.map((k, i) => k / times.unknown[i]));
  return { answers, known: median(times.known), unknown: median(times.unknown), ratio: Math.max(ratio, 1 / ratio) };
}

function expectSameShape(r: Awaited<ReturnType<typeof compare>>) {
  expect([...r.answers.known]).toEqual([...r.answers.unknown]);
  expect(r.answers.known.size).toBe(1);
  expect(r.ratio, `median known ${r.known.toFixed(1)} ms, unknown ${r.unknown.toFixed(1)} ms`).toBeLessThan(MAX_RATIO);
}

describe('no auth endpoint tells whether an address has an account', () => {
  it('register', async () => {
    const r = await compare(
      '/api/auth/register',
      (email) => ({ fullName: 'Probe', email, password: 'probe-password-long' }),
      (i) => `fresh${i}.${Date.now()}@example.com`,
    );
    expectSameShape(r);
  });

  it('login', async () => {
    const r = await compare(
      '/api/auth/login',
      (email) => ({ email, password: 'probe-password-long' }),
      (i) => `nobody${i}@example.com`,
    );
    expectSameShape(r);
  });

  it('forgot password', async () => {
    const r = await compare(
      '/api/auth/forgot-password',
      (email) => ({ email }),
      (i) => `nobody-forgot${i}@example.com`,
    );
    expectSameShape(r);
  });

  it('resend verification', async () => {
    const r = await compare(
      '/api/auth/resend-verification',
      (email) => ({ email }),
      (i) => `nobody-resend${i}@example.com`,
    );
    expectSameShape(r);
  });
});
