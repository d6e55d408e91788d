import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getSession } from '../../auth/session';
import { bearsMetricsToken } from '../../infra/metrics/metrics';

/**
 * Who may see how this instance is set up (its mail mode, which checks fail, the operator
 * warnings): an admin's session, or the metrics token (issue 32). Everyone else gets the status only.
 */
export async function isOperator(app: FastifyInstance, req: FastifyRequest): Promise<boolean> {
  if (bearsMetricsToken(req, app.deps.config.metricsToken)) return true;
  if (!req.headers.cookie) return false;
  const session = await getSession(req).catch(() => null);
  return Boolean(session?.user.emailVerified && session.user.role === 'admin');
}

/** Whether a request could be an operator's at all: without a cookie or a token it is answered without a session lookup. */
export const mayBeOperator = (req: FastifyRequest) => Boolean(req.headers.cookie || req.headers.authorization);
