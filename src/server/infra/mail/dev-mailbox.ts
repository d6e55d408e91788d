import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { errorBody } from '../../http/errors';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const linkify = (s: string) => escapeHtml(s).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Only this machine may read the mailbox: it shows every member's verification and reset
 * links. Both the connection and the client address (`X-Forwarded-For` under TRUST_PROXY)
 * must be loopback, so a reverse proxy on the same machine does not open it to the network.
 */
export const isLoopbackRequest = (req: FastifyRequest) => LOOPBACK.test(req.socket.remoteAddress ?? '') && LOOPBACK.test(req.ip);

/**
 * The embedded mode's mailbox (DESIGN §5): every stored mail, newest first. Never registered
 * in production (config.devMailbox); elsewhere it answers loopback requests only, and anyone
 * else gets the same 404 as an unknown address.
 */
export function registerDevMailbox(app: FastifyInstance, db: Db) {
  const recent = () =>
    db
      .select({
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'stored'))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(200);

  const loopbackOnly = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopbackRequest(req)) return reply.status(404).send(errorBody('not_found', 'Not found.'));
  };

  app.get('/dev/mailbox.json', { onRequest: loopbackOnly }, async () => recent());

  app.get('/dev/mailbox', { onRequest: loopbackOnly }, async (_req, reply) => {
    const mails = await recent();
    const items = mails
      .map(
        (m) =>
          `<article><header><strong>${escapeHtml(m.subject)}</strong><br><small>To ${escapeHtml(m.to)} · ${m.createdAt.toISOString()}</small></header><pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Dev mailbox · Fancy</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f1630}h1{font-size:1.4rem}article{border:1px solid #e5dcef;border-radius:12px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}a{color:#b4236a}</style></head>
<body><h1>Dev mailbox</h1><p>Mail the app would have sent, newest first. Only in embedded mode.</p>${items || '<p>No mail yet.</p>'}</body></html>`);
  });
}
