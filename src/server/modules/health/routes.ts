import type { FastifyInstance, FastifyReply } from 'fastify';
import { isOperator, mayBeOperator } from './operator';
import { registerReadiness } from './readiness';

/** A database check is reused for this long, so load balancers polling often cost one query a second. */
const CHECK_TTL_MS = 1000;

export function registerHealthRoutes(app: FastifyInstance) {
  const mail = app.deps.config.mailMode;
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
  // Anyone (a load balancer, the public status page) gets the status; how mail leaves is how
  // this instance is set up, so only admins and the metrics token get it, as in readiness (issue 32).
  const up = JSON.stringify({ status: 'ok', db: 'ok' });
  const down = JSON.stringify({ status: 'degraded', db: 'down' });
  const upForOperator = JSON.stringify({ status: 'ok', db: 'ok', mail });
  const downForOperator = JSON.stringify({ status: 'degraded', db: 'down', mail });

  // Returns the reply, so a handler's promise that resolves to it tells Fastify it is being sent.
  const answer = (reply: FastifyReply, ok: boolean, operator = false) =>
    reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(operator ? (ok ? upForOperator : downForOperator) : ok ? up : down);
  // Not async: within the check's TTL a request without a cookie or token is answered without a promise in between.
  app.get('/api/health', (req, reply) => {
    if (mayBeOperator(req)) return Promise.all([dbOk(), isOperator(app, req)]).then(([ok, operator]) => answer(reply, ok, operator));
    if (last && Date.now() - last.at < CHECK_TTL_MS) return answer(reply, last.ok);
    return dbOk().then((ok) => answer(reply, ok));
  });
  // Readiness (GET /api/ready): database, draining, SMTP and the bucket when configured.
  registerReadiness(app, () => app.deps.database.ping());
}
