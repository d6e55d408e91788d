import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../tests/helpers/test-app';
import { MIXER_MESSAGES } from '../shared/schemas/mixers';
import { TEXT_MESSAGES } from '../shared/schemas/text';
import { mixerMemberships, mixerMessages, mixers, profiles } from './db/schema';

/** Issue 12: member-entered text and cursors are checked in their values, with clear 400s. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const HOUR = 3_600_000;
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

async function liveMixerWith(...userIds: string[]) {
  const now = Date.now();
  const [row] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Hostile text',
      topic: 'Testing',
      description: 'A mixer for tests.',
      status: 'live',
      startsAt: new Date(now - HOUR / 2),
      endsAt: new Date(now + HOUR),
      maxParticipants: 8,
    })
    .returning({ id: mixers.id });
  for (const userId of userIds) {
    await t.database.db
      .update(profiles)
      .set({ onboardingCompleted: true, dob: '1995-06-15', cityRegion: 'Leeds', lookingFor: ['Dating'] })
      .where(eq(profiles.id, userId));
    await t.database.db.insert(mixerMemberships).values({ mixerId: row.id, userId, state: 'joined', joinedAt: new Date() });
  }
  return row.id;
}

describe('member-entered text', () => {
  it('refuses NUL and control characters in chat messages, names and the contact form with a clear message', async () => {
    const a = await t.member('Nia');
    const id = await liveMixerWith(a.id);
    const chat = await t.request({
      method: 'POST',
      url: `/api/mixers/${id}/messages`,
      cookie: a.cookie,
      payload: { body: 'hi\u0000there' },
    });
    expect(chat.statusCode).toBe(400);
    expect(chat.json().error).toMatchObject({ code: 'validation', message: TEXT_MESSAGES.control });
    const name = await t.request({ method: 'PATCH', url: '/api/me/profile', cookie: a.cookie, payload: { fullName: 'Nia\u0007' } });
    expect(name.statusCode).toBe(400);
    expect(name.json().error.message).toBe(TEXT_MESSAGES.control);
    const contact = await t.request({
      method: 'POST',
      url: '/api/contact',
      headers: { origin: TEST_ORIGIN },
      payload: { name: 'Sam', email: 'sam@example.com', topic: 'Mixers', message: 'Hello there\u0000, a message' },
    });
    expect(contact.statusCode).toBe(400);
    expect(contact.json().error.message).toBe(TEXT_MESSAGES.control);
  });

  it('refuses zero-width-only messages and names with the field’s own wording', async () => {
    const a = await t.member('Zed');
    const id = await liveMixerWith(a.id);
    const chat = await t.request({
      method: 'POST',
      url: `/api/mixers/${id}/messages`,
      cookie: a.cookie,
      payload: { body: '\u200B\u200D\uFEFF' },
    });
    expect(chat.statusCode).toBe(400);
    expect(chat.json().error.message).toBe(MIXER_MESSAGES.messageEmpty);
    const name = await t.request({ method: 'PATCH', url: '/api/me/profile', cookie: a.cookie, payload: { fullName: '\u200B \u2060' } });
    expect(name.statusCode).toBe(400);
    expect(name.json().error.message).toBe('Please enter your name');
  });

  it('refuses invisible-only names and messages, strips hidden tag text and the Arabic letter mark, refuses lone surrogates', async () => {
    const a = await t.member('Tia');
    const b = await t.member('Tom');
    const id = await liveMixerWith(a.id, b.id);
    const send = (body: string) => t.request({ method: 'POST', url: `/api/mixers/${id}/messages`, cookie: a.cookie, payload: { body } });
    for (const body of ['\u{E0041}\u{E0042}\u{E0043}', '\u061C', '\u0301\u0301', '\u200F\uFE0F']) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body)).toBe(MIXER_MESSAGES.messageEmpty);
    }
    for (const body of ['\uD800', 'hi \uDC00']) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toBe(TEXT_MESSAGES.control);
      expect(res.body).not.toMatch(/\\ud[89a-f]/i);
    }
    const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');
    const wales = `\u{1F3F4}${tags('gbwls')}\u{E007F}`;
    expect((await send(`hi ${tags('ignore previous')} there`)).statusCode).toBeLessThan(300);
    expect((await send(`Croeso ${wales}\u061C!`)).statusCode).toBeLessThan(300);
    const page = await t.request({ method: 'GET', url: `/api/mixers/${id}/messages`, cookie: b.cookie });
    const bodies = (page.json().items as { body: string }[]).map((m) => m.body);
    expect(bodies).toContain('hi  there');
    expect(bodies).toContain(`Croeso ${wales}!`);

    for (const fullName of ['\u061C', '\u0301\u0301', '\u{E0041}\u{E0042}']) {
      const res = await t.request({ method: 'PATCH', url: '/api/me/profile', cookie: a.cookie, payload: { fullName } });
      expect(res.statusCode, JSON.stringify(fullName)).toBe(400);
      expect(res.json().error.message).toBe('Please enter your name');
    }
    const lone = await t.request({ method: 'PATCH', url: '/api/me/profile', cookie: a.cookie, payload: { fullName: 'Tia\uD800' } });
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error.message).toBe(TEXT_MESSAGES.control);
    const reg = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '127.9.9.9',
      payload: { fullName: '\u061C\u200F', email: 'tagname@example.com', password: 'a long enough passphrase 42' },
    });
    expect(reg.statusCode).toBe(400);
    expect(reg.json().error.fields.fullName).toBe('Please enter your name');
  });

  it('keeps bidi override characters from reaching other members', async () => {
    const a = await t.member('Bea');
    const b = await t.member('Bo');
    const id = await liveMixerWith(a.id, b.id);
    const sent = await t.request({
      method: 'POST',
      url: `/api/mixers/${id}/messages`,
      cookie: a.cookie,
      payload: { body: 'see \u202Etxt.exe\u202C and \u2066this\u2069' },
    });
    expect(sent.statusCode).toBeLessThan(300);
    const page = await t.request({ method: 'GET', url: `/api/mixers/${id}/messages`, cookie: b.cookie });
    const bodies = (page.json().items as { body: string }[]).map((m) => m.body);
    expect(bodies).toContain('see txt.exe and this');
    expect(bodies.join('')).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});

describe('text stored before the rule', () => {
  it('loses its bidi controls in migration 0003', async () => {
    const a = await t.member('Old');
    const id = await liveMixerWith(a.id);
    await t.database.db.insert(mixerMessages).values({ mixerId: id, senderId: a.id, body: 'old \u202Etxt.exe\u2069 text' });
    await t.database.db.update(profiles).set({ bio: '\u2066bio\u202C' }).where(eq(profiles.id, a.id));
    const file = path.join(import.meta.dirname, 'db/migrations/0003_strip-bidi-controls.sql');
    for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      await t.database.db.execute(sql.raw(statement));
    }
    const [message] = await t.database.db.select({ body: mixerMessages.body }).from(mixerMessages).where(eq(mixerMessages.mixerId, id));
    expect(message.body).toBe('old txt.exe text');
    const [profile] = await t.database.db.select({ bio: profiles.bio }).from(profiles).where(eq(profiles.id, a.id));
    expect(profile.bio).toBe('bio');
  });
});

describe('cursors and dates', () => {
  it('answers well-formed-but-wrong cursors with 400, not a database error', async () => {
    const a = await t.member('Cur');
    const admin = await t.member('Cur Admin', { admin: true });
    const id = await liveMixerWith(a.id);
    const cases: [string, string][] = [
      [`/api/mixers?cursor=${b64([1e308, 1e308, '00000000-0000-4000-8000-000000000000'])}`, a.cookie],
      [`/api/mixers/${id}/messages?before=${b64(['9999-99-99T99:99:99Z', '00000000-0000-4000-8000-000000000000'])}`, a.cookie],
      [`/api/mixers/${id}/messages?before=${b64(['2026-02-30T10:00:00Z', '00000000-0000-4000-8000-000000000000'])}`, a.cookie],
      [`/api/matches?cursor=${b64('9999-99-99T99:99:99.999999Z|------------------------------------')}`, a.cookie],
      [`/api/conversations?cursor=${b64('2026-01-01T00:00:00.000000Z|------------------------------------')}`, a.cookie],
      [`/api/admin/audit?cursor=${b64(['-99999999999999999999999', 'x'])}`, admin.cookie],
      [`/api/admin/mixers?cursor=${b64(['1', 'not-a-uuid'])}`, admin.cookie],
      ['/api/admin/metrics?from=9999-12-31', admin.cookie],
      ['/api/me/sessions/%00', a.cookie],
      // Ids in the path are validated in their value too: not a UUID is a 400 on every route that takes one.
      ['/api/mixers/not-a-uuid', a.cookie],
      ['/api/mixers/12345/messages', a.cookie],
      ['/api/conversations/not-a-uuid', a.cookie],
      ['/api/conversations/00000000-0000-4000-8000-00000000000Z/messages', a.cookie],
      ['/api/admin/mixers/not-a-uuid', admin.cookie],
    ];
    for (const [url, cookie] of cases) {
      const method = url.startsWith('/api/me/sessions') ? 'DELETE' : url === '/api/admin/mixers/not-a-uuid' ? 'PUT' : 'GET';
      const res = await t.request({ method, url, cookie, headers: { origin: TEST_ORIGIN } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code, url).toBe('validation');
    }
  });
});
