import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { AdminReport } from '../../../shared/schemas/admin';
import { MODERATION_MESSAGES } from '../../../shared/schemas/moderation';
import { mailOutbox, reports } from '../../db/schema';
import { MAIL_RETENTION_DAYS, purgeOldMail } from '../../infra/mail/retention';
import { deleteAccount } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const silent = { error() {} };
const DAY = 24 * 60 * 60 * 1000;

describe('what outlives a deleted account', () => {
  it('no mail to the deleted address stays in the outbox; mails to others do', async () => {
    const leaving = await t.member('Lea Leaving');
    const staying = await t.member('Sam Staying');
    await t.deps.mailer.sendMail({ to: leaving.email.toUpperCase(), subject: 'Hi again', text: 'About your mixer', html: '<p>x</p>' });
    expect((await t.mailsTo(leaving.email)).length).toBeGreaterThan(0);

    await deleteAccount(t.deps, leaving.id, silent);

    const left = await t.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(sql`lower(${mailOutbox.to}) = lower(${leaving.email})`);
    expect(left).toEqual([]);
    expect((await t.mailsTo(staying.email)).length).toBeGreaterThan(0);
  });

  it('reports against a deleted member stay in the queue, anonymised, and can only be dismissed (or their line removed)', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const reporter = await t.member('Rita Reporter');
    const reported = await t.member('Dan Departed');
    const made = await t.request({
      method: 'POST',
      url: '/api/reports',
      cookie: reporter.cookie,
      payload: { userId: reported.id, reason: 'Spam or scam', details: 'Sent links to a shop.' },
    });
    expect(made.statusCode).toBe(201);
    const reportId = made.json().id as string;

    await deleteAccount(t.deps, reported.id, silent);

    const [row] = await t.database.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row).toMatchObject({ reporterId: reporter.id, reportedId: null, details: 'Sent links to a shop.', status: 'open' });

    const queue = await t.request({ method: 'GET', url: '/api/admin/reports', cookie: admin.cookie });
    expect(queue.statusCode).toBe(200);
    const item = (queue.json().items as AdminReport[]).find((r) => r.id === reportId);
    expect(item).toMatchObject({ reason: 'Spam or scam', reported: null, reporter: { id: reporter.id } });
    expect(JSON.stringify(item)).not.toMatch(/Dan|Departed/);
    expect(JSON.stringify(item)).not.toContain(reported.email);

    const act = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: `/api/admin/reports/${reportId}/act`, cookie: admin.cookie, payload });
    for (const action of ['warn', 'mute', 'suspend', 'ban']) {
      const refused = await act({ action, rule: 'scams', days: 7 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(MODERATION_MESSAGES.memberGone);
    }
    expect((await act({ action: 'dismiss', note: 'The account is gone.' })).statusCode).toBe(200);
    const [mail] = await t.mailsTo(reporter.email);
    expect(mail.subject).toBe('About your report');
    expect(mail.text).toContain('did not find a breach of our rules');
  });
});

describe('mail retention', () => {
  it(`purges every outbox row older than ${MAIL_RETENTION_DAYS} days and keeps newer ones`, async () => {
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    const inserted = await t.database.db
      .insert(mailOutbox)
      .values([
        { to: 'old-sent@example.com', subject: 's', text: 't', html: 'h', status: 'sent', createdAt: at(MAIL_RETENTION_DAYS + 1) },
        { to: 'old-stored@example.com', subject: 's', text: 't', html: 'h', status: 'stored', createdAt: at(MAIL_RETENTION_DAYS + 5) },
        { to: 'old-failed@example.com', subject: 's', text: 't', html: 'h', status: 'failed', createdAt: at(90) },
        { to: 'recent@example.com', subject: 's', text: 't', html: 'h', status: 'sent', createdAt: at(MAIL_RETENTION_DAYS - 1) },
      ])
      .returning({ to: mailOutbox.to });
    expect(inserted).toHaveLength(4);

    expect(await purgeOldMail(t.database.db, now)).toBeGreaterThanOrEqual(3);
    const left = (await t.database.db.select({ to: mailOutbox.to }).from(mailOutbox)).map((r) => r.to);
    expect(left).toContain('recent@example.com');
    expect(left.filter((to) => to.startsWith('old-'))).toEqual([]);
  });
});
