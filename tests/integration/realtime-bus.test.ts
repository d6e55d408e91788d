import { afterAll, describe, expect, it } from 'vitest';
import { type BusMessage, batches, createPostgresBus, type RealtimeBus } from '../../src/server/realtime/bus';

/**
 * The PostgreSQL bus (issue 15): an instance's own sockets get a message at once, other
 * instances get it through one batched NOTIFY, each exactly once and in publish order.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('The pg project needs TEST_DATABASE_URL (a PostgreSQL server).');

const buses: RealtimeBus[] = [];
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
});

async function bus() {
  const errors: unknown[] = [];
  const b = await createPostgresBus(serverUrl as string, (err) => errors.push(err));
  buses.push(b);
  const seen: BusMessage[] = [];
  b.onMessage((m) => seen.push(m));
  return { bus: b, seen, errors };
}

const event = (i: number, body = `line ${i}`): BusMessage => ({
  kind: 'event',
  room: 'mixer:bench',
  event: { type: 'notice', title: `#${i}`, description: body },
});

describe('realtime bus on PostgreSQL', () => {
  it('delivers locally at once and to the other instance once each, in order, batched', async () => {
    const a = await bus();
    const b = await bus();
    const sent = Array.from({ length: 300 }, (_, i) => event(i, i % 50 === 0 ? 'é'.repeat(900) : `line ${i}`));
    const published = sent.map((m) => a.bus.publish(m));
    // Before any round trip to PostgreSQL, A's own handlers already have every message.
    expect(a.seen).toEqual(sent);
    await Promise.all(published);
    for (let i = 0; i < 100 && b.seen.length < sent.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(b.seen).toEqual(sent);
    // A never receives its own notifications back.
    await new Promise((r) => setTimeout(r, 200));
    expect(a.seen).toHaveLength(sent.length);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('keeps every NOTIFY payload under PostgreSQL’s 8000-byte limit', () => {
    const messages = Array.from({ length: 40 }, (_, i) => JSON.stringify(event(i, 'x'.repeat(900))));
    const payloads = [...batches('instance', messages, Date.now())];
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(payloads.flatMap((p) => (JSON.parse(p) as { messages: unknown[] }).messages)).toEqual(messages.map((m) => JSON.parse(m)));
  });
});
