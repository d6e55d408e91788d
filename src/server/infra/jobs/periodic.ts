import type { FastifyInstance } from 'fastify';

/**
 * Runs `run` once when the app is ready and then every `intervalMs`, never two runs at once on
 * this instance; closing the app waits for a run in progress. The jobs themselves are written so
 * that several instances may run them at the same time.
 */
export function startPeriodicJob(app: FastifyInstance, name: string, intervalMs: number, run: (now: Date) => Promise<unknown>) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;
  let closed = false;
  const tick = () => {
    if (running || closed) return;
    running = run(new Date())
      .catch((err) => app.log.error({ err }, `${name} run failed`))
      .finally(() => {
        running = undefined;
      });
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
