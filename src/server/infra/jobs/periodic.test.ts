import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { jobsSettled, startPeriodicJob } from './periodic';

describe('periodic jobs', () => {
  it('run once at ready; jobsSettled waits for that run, and close waits too', async () => {
    const app = Fastify();
    const log: string[] = [];
    let finish!: () => void;
    startPeriodicJob(app, 'slow', 60_000, async () => {
      log.push('started');
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      log.push('finished');
    });
    await app.ready();
    expect(log).toEqual(['started']);
    const settled = jobsSettled(app).then(() => log.push('settled'));
    await Promise.resolve();
    expect(log).toEqual(['started']);
    finish();
    await settled;
    expect(log).toEqual(['started', 'finished', 'settled']);
    await app.close();
  });
});
