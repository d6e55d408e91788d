import { describe, expect, it } from 'vitest';
import { domainGraph, loops } from './module-loops.mjs';

const graph = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([from, tos]) => [from, new Map(tos.map((to) => [to, `${from}.ts`]))]));

describe('module loops', () => {
  it('finds a loop however many domains lie between, and none in a layered graph', () => {
    expect(loops(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(loops(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('the code as it is has none (server modules and client features)', () => {
    const domains = domainGraph();
    expect(domains.has('src/server/modules/blocks')).toBe(true);
    expect(domains.has('src/client/features/chat')).toBe(true);
    expect(loops(domains)).toEqual([]);
  });
});
