import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteLatencyHistogram } from './route-latency';

const BUCKETS = [0.002, 0.005, 0.01, 0.05, 1];
const OBSERVED: [string, string, number, number][] = [
  ['GET', '/api/health', 200, 0.0004],
  ['GET', '/api/health', 200, 0.002],
  ['GET', '/api/health', 503, 0.03],
  ['POST', '/api/mixers/:id/messages', 201, 0.007],
  ['GET', 'unmatched', 404, 2.5],
  ['GET', '/api/health', 200, 0.0051],
];

describe('route latency histogram', () => {
  it('prints what prom-client’s own Histogram prints for the same observations', async () => {
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'x_seconds',
      help: 'Latency.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const ours = new Registry();
    const histogram = new RouteLatencyHistogram('x_seconds', 'Latency.', BUCKETS);
    ours.registerMetric(histogram.asMetric());
    for (const [method, route, status, seconds] of OBSERVED) {
      reference.observe({ method, route, status_code: String(status) }, seconds);
      histogram.observe(method, route, status, seconds);
    }
    const sorted = async (r: Registry) => (await r.metrics()).split('\n').sort();
    expect(await sorted(ours)).toEqual(await sorted(theirs));
    expect(await ours.metrics()).toContain('x_seconds_count{method="GET",route="/api/health",status_code="200"} 3');
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain('x_seconds_count');
  });
});
