import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { errorBody } from '../../http/errors';
import { RouteLatencyHistogram } from './route-latency';

/**
 * Prometheus metrics (issue 16, docs/decisions/020). One registry per app, so several apps in
 * one process (tests) never collide. GET /metrics exists only when METRICS_TOKEN is set and
 * answers only with that bearer token.
 */
export interface AppMetrics {
  registry: Registry;
  /** A periodic job finished (infra/jobs/periodic.ts). */
  jobRun(job: string, outcome: 'ok' | 'failed', seconds: number): void;
  /** A bus message went from publish on one instance to delivery here (PostgreSQL NOTIFY). */
  notifyLag(ms: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** Seconds; the chat path's budget is 50 ms at p99, so the low buckets are fine-grained. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Creates the app's metrics and the hooks that feed them; call early in buildApp. */
export function registerMetrics(app: FastifyInstance): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'fancy_' });

  const http = new RouteLatencyHistogram(
    'fancy_http_request_duration_seconds',
    'HTTP request latency by route pattern (not the raw URL), method and status code.',
    LATENCY_BUCKETS,
  );
  registry.registerMetric(http.asMetric());
  app.addHook('onResponse', (req, reply, done) => {
    // The route's pattern (/api/mixers/:id), so ids never become labels; unmatched paths are one series.
    http.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  new Gauge({
    name: 'fancy_realtime_open_sockets',
    help: 'WebSocket connections open on this instance.',
    registers: [registry],
    collect() {
      this.set(app.realtime?.size ?? 0);
    },
  });

  const chat = new Counter({
    name: 'fancy_chat_messages_total',
    help: 'Chat messages posted through this instance (rate() gives messages per second).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  // Counted where every module publishes (the hub), without touching the send paths.
  const hub = app.realtime;
  const publish = hub.publish.bind(hub);
  hub.publish = (room, event) => {
    if (event.type === 'mixer.message' && room.startsWith('mixer:')) chat.inc({ kind: 'mixer' });
    else if (event.type === 'dm.message' && room.startsWith('conversation:')) chat.inc({ kind: 'direct' });
    return publish(room, event);
  };

  const lag = new Histogram({
    name: 'fancy_realtime_notify_lag_seconds',
    help: 'Time from publish on any instance to delivery on this one through PostgreSQL LISTEN/NOTIFY (instance clocks must agree).',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });

  new Gauge({
    name: 'fancy_db_pool_connections',
    help: 'Database pool connections by state (PostgreSQL; the embedded database has none).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = app.deps.database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
      this.set({ state: 'max' }, stats.max);
    },
  });

  new Gauge({
    name: 'fancy_mail_queue',
    help: 'Mail in the outbox waiting to be delivered (pending) or given up on after retries (failed).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const result = await app.deps.database.db.execute(
        sql`select status, count(*)::int as n from mail_outbox where status in ('pending', 'failed') group by status`,
      );
      const counts: Record<string, number> = { pending: 0, failed: 0 };
      for (const row of (result as unknown as { rows: { status: string; n: number }[] }).rows) counts[row.status] = Number(row.n);
      this.set({ status: 'pending' }, counts.pending);
      this.set({ status: 'failed' }, counts.failed);
    },
  });

  const jobs = new Counter({
    name: 'fancy_job_runs_total',
    help: 'Periodic job runs (mixer lifecycle, reminders, formation, invitation expiry, retention…) by outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'fancy_job_run_duration_seconds',
    help: 'How long periodic job runs take.',
    labelNames: ['job'] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30],
    registers: [registry],
  });

  const metrics: AppMetrics = {
    registry,
    jobRun(job, outcome, seconds) {
      jobs.inc({ job, outcome });
      jobSeconds.observe({ job }, seconds);
    },
    notifyLag(ms) {
      lag.observe(Math.max(0, ms) / 1000);
    },
  };
  app.decorate('metrics', metrics);
  app.deps.bus?.onDelivered?.((ms) => metrics.notifyLag(ms));

  const token = app.deps.config.metricsToken;
  if (token) {
    app.get('/metrics', async (req, reply) => {
      if (!bearsMetricsToken(req, token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send(errorBody('unauthenticated', 'Metrics need the bearer token (METRICS_TOKEN).'));
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return registry.metrics();
    });
  }
  return metrics;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (false when no token is
 * configured): /metrics, and the operator's details of /api/ready. Constant time: both sides
 * are hashed to the same length first.
 */
export function bearsMetricsToken(req: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const header = req.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}
