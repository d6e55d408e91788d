import { eq } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../../tests/helpers/test-db';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { createMailer, createTransport } from './mailer';
import { composeMail } from './template';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that can be told to refuse mail. */
async function startSmtp() {
  const received: Received[] = [];
  let refuse = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        if (refuse) return callback(new Error('mailbox unavailable'));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    setRefuse(v: boolean) {
      refuse = v;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let database: Database;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

describe('mail over SMTP', () => {
  it('delivers through a real SMTP server and records it as sent', async () => {
    const transport = await createTransport(smtp.url);
    const mailer = createMailer({ db: database.db, from: 'Fancy <no-reply@fancy.example>', transport, logger: pino({ level: 'silent' }) });
    await mailer.sendMail(
      composeMail('sam@example.com', {
        subject: 'Hello from Fancy',
        lines: ['First line'],
        action: { label: 'Open', url: 'http://localhost:3000/home' },
      }),
    );
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['sam@example.com']);
    expect(smtp.received[0].raw).toContain('Subject: Hello from Fancy');
    expect(smtp.received[0].raw).toContain('http://localhost:3000/home');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'sam@example.com'));
    expect(row.status).toBe('sent');
    expect(row.sentAt).not.toBeNull();
    await mailer.close();
    transport.close();
  });

  it('records a failed delivery and retries it successfully later', async () => {
    const transport = await createTransport(smtp.url);
    const mailer = createMailer({ db: database.db, from: 'Fancy <no-reply@fancy.example>', transport, logger: pino({ level: 'silent' }) });
    smtp.setRefuse(true);
    await mailer.sendMail(composeMail('kit@example.com', { subject: 'Retry me', lines: ['Body'] }));
    let [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'kit@example.com'));
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/mailbox unavailable/);

    smtp.setRefuse(false);
    await database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(mailOutbox.id, row.id));
    expect(await mailer.retryDue()).toBe(1);
    [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'kit@example.com'));
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    expect(smtp.received.some((m) => m.to.includes('kit@example.com'))).toBe(true);
    await mailer.close();
    transport.close();
  });

  it('without SMTP stores mail for the dev mailbox', async () => {
    const mailer = createMailer({ db: database.db, from: 'x@y.z', logger: pino({ level: 'silent' }) });
    await mailer.sendMail(composeMail('dev@example.com', { subject: 'Stored', lines: ['Hi'] }));
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'dev@example.com'));
    expect(row.status).toBe('stored');
    await mailer.close();
  });
});
