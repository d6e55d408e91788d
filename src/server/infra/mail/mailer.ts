import { and, eq, lte, or, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Transport {
  send(from: string, message: MailMessage): Promise<void>;
}

export interface Mailer {
  /** Records the mail in the outbox and, with a transport, delivers it. Never throws on delivery failure. */
  sendMail(message: MailMessage): Promise<void>;
  /** Retries failed deliveries that are due; returns how many were sent. */
  retryDue(): Promise<number>;
  /**
   * Lets mail work finish after the response (auth answers must not take longer when an address
   * has an account). Failures are logged; `idle()` and `close()` wait for it.
   */
  background(work: Promise<unknown>): void;
  /** Resolves once every background send and delivery started so far has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;
const RETRY_POLL_MS = 15_000;

export async function createTransport(smtpUrl: string): Promise<Transport & { close(): void; verify(): Promise<unknown> }> {
  const { default: nodemailer } = await import('nodemailer');
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(from, message) {
      await transporter.sendMail({ from, ...message });
    },
    close() {
      transporter.close();
    },
    /** Connects and authenticates without sending (readiness). */
    verify() {
      return transporter.verify();
    },
  };
}

/**
 * Without a transport every mail is stored for the dev mailbox. With one, the outbox row
 * records pending → sent | failed, and failed rows are retried with backoff.
 */
export function createMailer(opts: { db: Db; from: string; transport?: Transport; logger: Logger }): Mailer {
  const { db, from, transport, logger } = opts;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = new Set<Promise<unknown>>();

  async function deliver(id: string, message: MailMessage, attempts: number): Promise<boolean> {
    if (!transport) return false;
    try {
      await transport.send(from, message);
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: new Date(), attempts: attempts + 1 })
        .where(eq(mailOutbox.id, id));
      return true;
    } catch (err) {
      const next = attempts + 1;
      logger.warn({ err, mailId: id, attempt: next }, 'mail delivery failed');
      await db
        .update(mailOutbox)
        .set({
          status: 'failed',
          attempts: next,
          lastError: err instanceof Error ? err.message : String(err),
          nextAttemptAt: next >= MAX_ATTEMPTS ? null : new Date(Date.now() + RETRY_BASE_MS * 2 ** (next - 1)),
        })
        .where(eq(mailOutbox.id, id));
      return false;
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  }

  if (transport) {
    timer = setInterval(() => {
      track(mailer.retryDue()).catch((err) => logger.error({ err }, 'mail retry failed'));
    }, RETRY_POLL_MS);
    timer.unref();
  }

  const mailer: Mailer = {
    async sendMail(message) {
      const [row] = await db
        .insert(mailOutbox)
        .values({ ...message, status: transport ? 'pending' : 'stored' })
        .returning({ id: mailOutbox.id });
      if (transport) await track(deliver(row.id, message, 0));
    },
    async retryDue() {
      if (!transport) return 0;
      const due = await db
        .select()
        .from(mailOutbox)
        .where(
          and(
            or(eq(mailOutbox.status, 'failed'), eq(mailOutbox.status, 'pending')),
            lte(mailOutbox.attempts, MAX_ATTEMPTS - 1),
            or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, new Date())),
          ),
        )
        .limit(50);
      let sent = 0;
      for (const row of due) {
        if (await deliver(row.id, row, row.attempts)) sent++;
      }
      return sent;
    },
    background(work) {
      track(work).catch((err: unknown) => logger.error({ err }, 'background mail failed'));
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    async close() {
      if (timer) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
      inFlight = new Set();
    },
  };
  return mailer;
}
