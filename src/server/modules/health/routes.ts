import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerReadiness } from './readiness';

/** A database check is reused for this long, so load balancers polling often cost one query a second. */
const CHECK_TTL_MS = 1000;

export function registerHealthRoutes(app: FastifyInstance) {
  const { config } = app.deps;
  const mail = config.mailMode;
  let last: { ok: boolean; at: number } | undefined;
  let pending: Promise<boolean> | undefined;
  const dbOk = async () => {
    if (last && Date.now() - last.at < CHECK_TTL_MS) return last.ok;
    pending ??= app.deps.database
      .ping()
      .then(
        () => true,
        (err) => {
          app.log.error({ err }, 'health: database unreachable');
          return false;
        },
      )
      .then((ok) => {
        last = { ok, at: Date.now() };
        pending = undefined;
        return ok;
      });
    return pending;
  };
  const up = JSON.stringify({ status: 'ok', db: 'ok', mail });
  const down = JSON.stringify({ status: 'degraded', db: 'down', mail });

  // Returns the reply, so a handler's promise that resolves to it tells Fastify it is being sent.
  const answer = (reply: FastifyReply, ok: boolean) =>
    reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(ok ? up : down);
  // Not async: within the check's TTL the answer is sent without a promise in between.
  app.get('/api/health', (_req, reply) => {
    if (last && Date.now() - last.at < CHECK_TTL_MS) return answer(reply, last.ok);
    return dbOk().then((ok) => answer(reply, ok));
  });
  // Readiness (GET /api/ready): database, draining, SMTP and the bucket when configured.
  registerReadiness(app, () => app.deps.database.ping());
}
