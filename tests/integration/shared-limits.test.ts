import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOOD_LINES } from '../../src/shared/schemas/guard';
import { CHAT_RATE_LIMIT } from '../../src/shared/schemas/mixers';
import { FAILED_ATTEMPTS_PER_DAY } from '../../src/shared/verification';
import { CONTACT_LIMIT_PER_HOUR } from '../../src/server/modules/contact/routes';
import {
  createDatabase,
  type Instance,
  type Member,
  ORIGIN,
  seedMembers,
  startInstance,
  stopInstance,
  type TestDatabase,
} from './instances';

/**
 * Two server processes on one PostgreSQL count every limit together (docs/decisions/020): an
 * attacker alternating between instances gets the limit once, not once per instance. A chat line's
 * key is one across them too: a retry that reaches the other instance is never a second line.
 */
let db: TestDatabase;
let a: Instance;
let b: Instance;
let members: Member[];

beforeAll(async () => {
  db = await createDatabase('fancy_limits');
  members = await seedMembers(db.url, 1, 4);
  [a, b] = await Promise.all([startInstance(db), startInstance(db)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map(stopInstance));
  await db?.drop();
});

const headers = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', origin: ORIGIN, ...extra });

describe('limits shared by two instances', () => {
  it('the contact form: the per-sender hourly limit is reached across both, then both refuse', async () => {
    const send = (base: string, n: number) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          name: 'Alternating Sender',
          email: 'alternating@example.test',
          topic: 'Something else',
          message: `Message number ${n}, sent to alternating instances.`,
        }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < CONTACT_LIMIT_PER_HOUR; i++) statuses.push((await send(i % 2 ? b.url : a.url, i)).status);
    expect(statuses).toEqual(Array(CONTACT_LIMIT_PER_HOUR).fill(200));
    for (const base of [a.url, b.url]) {
      const refused = await send(base, 99);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error.code).toBe('rate_limited');
    }
  });

  it('the chat limits: a flooding member meets slow mode after the same burst, whichever instance each line reaches', async () => {
    const [m] = members;
    const post = (base: string, n: number) =>
      fetch(`${base}/api/mixers/${m.mixerId}/messages`, {
        method: 'POST',
        headers: headers({ cookie: m.cookie }),
        body: JSON.stringify({ body: `burst ${n}` }),
      });
    const results = [];
    for (let i = 0; i < FLOOD_LINES + 4; i++) results.push(await post(i % 2 ? b.url : a.url, i));
    // Sent back to back (well under a second apart): slow mode, counted across both, comes first
    // (inside the pace of CHAT_RATE_LIMIT), and both instances keep to it.
    expect(CHAT_RATE_LIMIT.limit).toBeGreaterThan(FLOOD_LINES);
    expect(results.map((r) => r.status)).toEqual([...Array(FLOOD_LINES).fill(201), 429, 429, 429, 429]);
    for (const refused of results.slice(FLOOD_LINES))
      expect((await refused.json()).error.message).toMatch(/^(You're sending|Slow mode is on)/);
  });

  it('a chat line retried through the other instance, or sent to both at once, is one line (its client key)', async () => {
    const m = members[2];
    const post = (base: string, body: string, clientKey: string) =>
      fetch(`${base}/api/mixers/${m.mixerId}/messages`, {
        method: 'POST',
        headers: headers({ cookie: m.cookie }),
        body: JSON.stringify({ body, clientKey }),
      });
    // The answer was lost on the way back; the app retries, and the retry reaches the other instance.
    const first = await post(a.url, 'Sent once, retried through the other instance', 'retry-key-across-1');
    expect(first.status).toBe(201);
    const retried = await post(b.url, 'Sent once, retried through the other instance', 'retry-key-across-1');
    expect(retried.status).toBe(200);
    expect((await retried.json()).id).toBe((await first.json()).id);
    // Both at the same moment (a retry racing the original): one is the line, the other gets it back.
    const both = await Promise.all([a, b].map((i) => post(i.url, 'Raced to both instances', 'retry-key-across-2')));
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    const [x, y] = await Promise.all(both.map((r) => r.json()));
    expect(y.id).toBe(x.id);
    const history = await fetch(`${b.url}/api/mixers/${m.mixerId}/messages`, { headers: headers({ cookie: m.cookie }) });
    const bodies = ((await history.json()).items as { body: string }[]).map((l) => l.body);
    expect(bodies.filter((b) => b === 'Sent once, retried through the other instance')).toHaveLength(1);
    expect(bodies.filter((b) => b === 'Raced to both instances')).toHaveLength(1);
  });

  it('verification challenges: six asked at once across both instances, three issued (a row lock, not a read-then-write)', async () => {
    const m = members[1];
    const ask = (base: string) =>
      fetch(`${base}/api/verification/challenge`, {
        method: 'POST',
        headers: headers({ cookie: m.cookie }),
        body: JSON.stringify({ consent: true }),
      });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(i % 2 ? b.url : a.url)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(FAILED_ATTEMPTS_PER_DAY);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6 - FAILED_ATTEMPTS_PER_DAY);
  });
});
