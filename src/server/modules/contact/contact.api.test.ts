import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_RATE_LIMITED } from '../../../shared/schemas/contact';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { contactMessages } from '../../db/schema';
import { CONTACT_LIMIT_PER_HOUR } from './routes';

const SUPPORT = 'help-desk@fancy.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SUPPORT_EMAIL: SUPPORT });
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 0;
/** Each test sends from its own address so the per-IP limit only bites where a test wants it. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const valid = (over: Record<string, unknown> = {}) => ({
  name: 'Priya Shah',
  email: 'priya@example.com',
  topic: 'Mixers',
  message: 'The Sunday Sourdough mixer shows as full but only has five people in it.',
  ...over,
});

const send = (payload: unknown, opts: { cookie?: string; remoteAddress?: string } = {}) =>
  t.request({
    method: 'POST',
    url: '/api/contact',
    payload: payload as object,
    remoteAddress: opts.remoteAddress ?? freshIp(),
    cookie: opts.cookie,
  });

describe('POST /api/contact', () => {
  it('stores the message and mails it to the support address with reply details', async () => {
    const res = await send(valid({ email: 'Priya.Reply@Example.com', message: 'First paragraph here.\n\nSecond paragraph <b>here</b>.' }));
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(row).toMatchObject({
      userId: null,
      name: 'Priya Shah',
      email: 'priya.reply@example.com',
      topic: 'Mixers',
      message: 'First paragraph here.\n\nSecond paragraph <b>here</b>.',
    });
    const [mail] = await t.mailsTo(SUPPORT);
    expect(mail.subject).toBe('[Contact] Mixers — Priya Shah');
    expect(mail.text).toContain('Reply to: priya.reply@example.com');
    expect(mail.text).toContain('Second paragraph <b>here</b>.');
    expect(mail.text).toContain('not signed in');
    // The visitor's text is escaped in the HTML part.
    expect(mail.html).toContain('Second paragraph &lt;b&gt;here&lt;/b&gt;.');
    expect(mail.html).not.toContain('<b>here</b>');
  });

  it('stores the member id when signed in', async () => {
    const m = await t.member('Sam Jones');
    const res = await send(valid({ name: 'Sam', email: 'sam.other@example.com', topic: 'Account & sign-in' }), { cookie: m.cookie });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.id, res.json().id));
    expect(row.userId).toBe(m.id);
    const [mail] = await t.mailsTo(SUPPORT);
    expect(mail.text).toContain(`Signed-in member: ${m.id} (account email ${m.email})`);
  });

  it.each([
    ['name', { name: '' }, 'Please enter your name'],
    ['name', { name: '   ' }, 'Please enter your name'],
    ['name', { name: 'x'.repeat(81) }, 'Please keep your name under 80 characters'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['email', { email: '' }, 'Please enter your email address'],
    ['topic', { topic: 'Billing' }, 'Please choose what your message is about'],
    ['topic', { topic: undefined }, 'Please choose what your message is about'],
    ['message', { message: '' }, 'Please write your message'],
    ['message', { message: 'Too short' }, 'Please tell us a little more (at least 10 characters)'],
    ['message', { message: 'x'.repeat(2001) }, 'Please keep your message under 2000 characters'],
  ])('rejects a bad %s with its message (%#)', async (field, over, message) => {
    const before = await t.database.db.select({ id: contactMessages.id }).from(contactMessages);
    const res = await send(valid(over));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation');
    expect(body.error.fields[field]).toBe(message);
    const after = await t.database.db.select({ id: contactMessages.id }).from(contactMessages);
    expect(after.length).toBe(before.length);
  });

  it('answers 400, not 500, to a body that is not JSON', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/contact',
      payload: 'hello',
      headers: { 'content-type': 'application/json' },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
  });

  it(`limits one network to ${CONTACT_LIMIT_PER_HOUR} messages an hour`, async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_LIMIT_PER_HOUR; i++) {
      const ok = await send(valid({ email: `ip-limit-${i}@example.com` }), { remoteAddress: ip });
      expect(ok.statusCode).toBe(200);
    }
    const res = await send(valid({ email: 'ip-limit-last@example.com' }), { remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({ code: 'rate_limited', message: CONTACT_RATE_LIMITED });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing was stored or mailed for the refused message.
    const rows = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'ip-limit-last@example.com'));
    expect(rows).toHaveLength(0);
  });

  it(`limits one email address to ${CONTACT_LIMIT_PER_HOUR} messages an hour, from any network`, async () => {
    for (let i = 0; i < CONTACT_LIMIT_PER_HOUR; i++) {
      expect((await send(valid({ email: 'chatty@example.com' }))).statusCode).toBe(200);
    }
    const res = await send(valid({ email: 'CHATTY@example.com' }));
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe(CONTACT_RATE_LIMITED);
    const [latest] = await t.database.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(1);
    expect(latest.email).toBe('chatty@example.com');
  });
});
