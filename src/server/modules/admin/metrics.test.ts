import { describe, expect, it } from 'vitest';
import { METRICS_TOP_CAMPAIGNS, OTHER_CAMPAIGNS, metricsQuerySchema } from '../../../shared/schemas/admin';
import { resolveRange, splitByCampaign } from './metrics';

describe('splitByCampaign', () => {
  it('keeps the biggest campaigns, sums the rest as Other and fills every day', () => {
    const keys = Array.from({ length: METRICS_TOP_CAMPAIGNS + 2 }, (_, i) => `c${i}`);
    const rows = keys.map((key, i) => ({ day: '2026-01-02', key, n: 100 - i }));
    rows.push({ day: '2026-01-03', key: 'c7', n: 1 });
    const out = splitByCampaign(['2026-01-01', '2026-01-02', '2026-01-03'], rows);
    expect(out.campaigns.map((c) => c.key)).toEqual([...keys.slice(0, METRICS_TOP_CAMPAIGNS), OTHER_CAMPAIGNS]);
    expect(out.campaigns.at(-1)?.total).toBe(94 + 93 + 1);
    expect(out.days[0].counts.every((n) => n === 0)).toBe(true);
    expect(out.days[1].counts).toEqual([100, 99, 98, 97, 96, 95, 94 + 93]);
    expect(out.days[2].counts.at(-1)).toBe(1);
  });

  it('does not invent an Other series for one campaign too many', () => {
    const keys = Array.from({ length: METRICS_TOP_CAMPAIGNS + 1 }, (_, i) => `c${i}`);
    const out = splitByCampaign(
      ['2026-01-01'],
      keys.map((key) => ({ day: '2026-01-01', key, n: 1 })),
    );
    expect(out.campaigns.map((c) => c.key)).toEqual(keys);
  });
});

describe('metrics range', () => {
  it('defaults to 30 days ending today and checks the order and length', () => {
    const now = new Date('2026-03-10T15:00:00Z');
    expect(resolveRange({}, now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(resolveRange({ from: '2026-01-01' }, now)).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(() => resolveRange({ from: '2026-03-02', to: '2026-03-01' }, now)).toThrow();
    expect(metricsQuerySchema.safeParse({ from: '2026-02-29' }).success).toBe(false);
    expect(metricsQuerySchema.safeParse({ from: '2024-02-29', to: '2024-03-01' }).success).toBe(true);
    expect(metricsQuerySchema.safeParse({ from: '2024-01-01', to: '2025-01-01' }).success).toBe(false);
  });
});
