import type { FastifyInstance } from 'fastify';
import { isOperator } from './operator';
import { operatorWarnings } from './warnings';

/** A dependency readiness checks: resolves when usable, throws (or rejects) when not. */
export type ReadinessCheck = () => Promise<unknown>;

export interface Readiness {
  /**
   * Adds a dependency to GET /api/ready, e.g. `smtp` (main.ts, when SMTP_URL is set) or
   * `bucket` (object storage, when configured). Its result is reused for `ttlMs`.
   */
  add(name: string, check: ReadinessCheck, ttlMs?: number): void;
  /** SIGTERM: from now on the instance answers "draining" (503) so load balancers stop sending. */
  startDraining(): void;
  readonly draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/** How long a check's answer is reused: load balancers poll every few seconds. */
const DEFAULT_TTL_MS = 1000;
/** A check that hangs counts as down after this long. */
const CHECK_TIMEOUT_MS = 3000;

interface Entry {
  check: ReadinessCheck;
  ttlMs: number;
  last?: { ok: boolean; at: number; error?: string };
  pending?: Promise<boolean>;
}

/**
 * GET /api/ready — readiness, unlike /api/health (liveness): 200 only when this instance should
 * get traffic: not draining, the database answers and every configured dependency (SMTP, the
 * bucket) too. Operator warnings (mail kept in the outbox) are listed but do not fail it.
 *
 * Anyone (a load balancer) gets the status only; which checks failed and the operator warnings
 * are how this instance is set up, so they go to admins and to the metrics token (issue 32).
 */
export function registerReadiness(app: FastifyInstance, ping: () => Promise<unknown>) {
  const entries = new Map<string, Entry>();
  let draining = false;
  const readiness: Readiness = {
    add(name, check, ttlMs = DEFAULT_TTL_MS) {
      entries.set(name, { check, ttlMs });
    },
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
  app.decorate('readiness', readiness);
  readiness.add('database', ping);

  const run = (name: string, entry: Entry): Promise<boolean> => {
    if (entry.last && Date.now() - entry.last.at < entry.ttlMs) return Promise.resolve(entry.last.ok);
    entry.pending ??= withTimeout(entry.check())
      .then(
        () => ({ ok: true }),
        (err: unknown) => {
          app.log.warn({ err, check: name }, 'readiness: %s is not ready', name);
          return { ok: false, error: err instanceof Error ? err.message : String(err) };
        },
      )
      .then((r) => {
        entry.last = { ...r, at: Date.now() };
        entry.pending = undefined;
        return r.ok;
      });
    return entry.pending;
  };

  const warnings = operatorWarnings(app.deps.config).map((w) => ({ code: w.code, message: w.text }));
  app.get('/api/ready', async (req, reply) => {
    const names = [...entries.keys()];
    const results = await Promise.all(names.map((n) => run(n, entries.get(n) as Entry)));
    const ok = !draining && results.every(Boolean);
    const status = draining ? 'draining' : ok ? 'ready' : 'not_ready';
    reply.status(ok ? 200 : 503).header('cache-control', 'no-store');
    if (!(await isOperator(app, req))) return { status };
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i] ? 'ok' : 'down']));
    return { status, checks, warnings };
  });
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
