import type { FastifyInstance } from 'fastify';

/** Runs in progress per app, so a test can wait until the runs started at ready are over. */
const inFlight = new WeakMap<FastifyInstance, Set<Promise<unknown>>>();

/** Resolves once every periodic run in progress on this app has finished. */
export async function jobsSettled(app: FastifyInstance): Promise<void> {
  await Promise.all([...(inFlight.get(app) ?? [])]);
}

/**
 * Runs `run` once when the app is ready and then every `intervalMs`, never two runs at once on
 * this instance; closing the app waits for a run in progress. The jobs themselves are written so
 * that several instances may run them at the same time.
 */
export function startPeriodicJob(app: FastifyInstance, name: string, intervalMs: number, run: (now: Date) => Promise<unknown>) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;
  let closed = false;
  let runs = inFlight.get(app);
  if (!runs) {
    runs = new Set();
    inFlight.set(app, runs);
  }
  const tick = () => {
    if (running || closed) return;
    const started = performance.now();
    const current = run(new Date())
      .then(
        () => app.metrics?.jobRun(name, 'ok', (performance.now() - started) / 1000),
        (err) => {
          app.metrics?.jobRun(name, 'failed', (performance.now() - started) / 1000);
          app.log.error({ err }, `${name} run failed`);
        },
      )
      .finally(() => {
        running = undefined;
        runs.delete(current);
      });
    running = current;
    runs.add(current);
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await running;
  });
}
