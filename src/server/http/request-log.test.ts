import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, registerSlowRequestLog } from './request-log';

function appWithLogs(slowMs: number) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  const app = Fastify({
    loggerInstance: pino({ level: 'info' }, stream) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
  });
  registerSlowRequestLog(app, slowMs);
  app.get('/quick', async () => ({ ok: true }));
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 30));
    return { ok: true };
  });
  app.get('/logs', async (req) => {
    req.log.info({ thing: 1 }, 'from the route');
    req.log.child({ part: 'inner' }).warn('from a child');
    return { level: req.log.level };
  });
  return { app, lines };
}

describe('request logging', () => {
  it('writes nothing for a request under the threshold, however long the machine takes', async () => {
    // A threshold no request here can reach: a loaded machine can make even /quick take tens of ms.
    const { app, lines } = appWithLogs(60_000);
    await app.inject({ url: '/quick' });
    await app.inject({ url: '/slow' });
    expect(lines).toEqual([]);
  });

  it('writes one warning for a request over the threshold, without its query string', async () => {
    // /slow waits 30 ms, so it is always over 20 ms, whatever the load.
    const { app, lines } = appWithLogs(20);
    await app.inject({ url: '/slow?token=secret-reset-token&email=someone%40example.com' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'slow request', method: 'GET', path: '/slow', route: '/slow', statusCode: 200 });
    expect(JSON.stringify(lines[0])).not.toMatch(/secret-reset-token|someone/);
    expect(lines[0].ms).toBeGreaterThanOrEqual(20);
    expect(lines[0].reqId).toBeDefined();
  });

  it('keeps req.log working: the request id, the level and children', async () => {
    const { app, lines } = appWithLogs(10_000);
    const res = await app.inject({ url: '/logs' });
    expect(res.json()).toEqual({ level: 'info' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'from the route', thing: 1 });
    expect(lines[1]).toMatchObject({ level: 40, msg: 'from a child', part: 'inner' });
    expect(lines[0].reqId).toBeDefined();
    expect(lines[1].reqId).toBe(lines[0].reqId);
  });
});
