import { describe, expect, it } from 'vitest';
import { buildGraph, findCycles, shortestPath, type GraphNode } from '../../src/graph/graph.js';

/** Nodes from `id: dep dep ...` lines. */
const graph = (...lines: string[]): GraphNode[] =>
  lines.map((line) => {
    const [id, deps = ''] = line.split(':');
    return { id: id!.trim(), dependsOn: deps.split(' ').filter((d) => d !== '') };
  });

describe('buildGraph', () => {
  const rows: Array<{ name: string; nodes: GraphNode[]; result: ReturnType<typeof buildGraph> }> = [
    { name: 'no nodes', nodes: [], result: { ok: true, layers: [] } },
    { name: 'independent nodes share a layer, sorted', nodes: graph('b:', 'a:'), result: { ok: true, layers: [['a', 'b']] } },
    { name: 'a chain, one layer each', nodes: graph('c: b', 'b: a', 'a:'), result: { ok: true, layers: [['a'], ['b'], ['c']] } },
    { name: 'a node after the latest of its dependencies', nodes: graph('d: a c', 'c: b', 'b: a', 'a:'), result: { ok: true, layers: [['a'], ['b'], ['c'], ['d']] } },
    { name: 'dependencies on unknown ids and repeats are ignored', nodes: graph('b: a a x', 'a: y'), result: { ok: true, layers: [['a'], ['b']] } },
    { name: 'a cycle of two, from its smallest id', nodes: graph('b: a', 'a: b', 'c:'), result: { ok: false, cycle: ['a', 'b', 'a'] } },
    { name: 'a longer cycle, with a node hanging off it', nodes: graph('a: c', 'b: a', 'c: b', 'd: a'), result: { ok: false, cycle: ['a', 'c', 'b', 'a'] } },
    { name: 'a node that depends on itself', nodes: graph('a: a'), result: { ok: false, cycle: ['a', 'a'] } },
  ];
  it.each(rows)('$name', ({ nodes, result }) => {
    expect(buildGraph(nodes)).toEqual(result);
  });

  it('layers a chain of 100,000 nodes, and finds it as one cycle once closed, without overflowing the stack', () => {
    const nodes = Array.from({ length: 100_000 }, (_, i) => ({ id: `n${i}`, dependsOn: i === 0 ? [] : [`n${i - 1}`] }));
    const result = buildGraph(nodes);
    expect(result.ok && result.layers.length).toBe(100_000);
    const closed = [{ id: 'n0', dependsOn: ['n99999'] }, ...nodes.slice(1)];
    expect(findCycles(closed).map((c) => c.length)).toEqual([100_000]);
  });
});

describe('findCycles', () => {
  const rows: Array<{ name: string; nodes: GraphNode[]; cycles: string[][] }> = [
    { name: 'none in a tree', nodes: graph('b: a', 'c: a', 'a:'), cycles: [] },
    { name: 'each cycle once', nodes: graph('a: b', 'b: a', 'c: d', 'd: c', 'e: a'), cycles: [['b', 'a'], ['d', 'c']] },
    { name: 'a self-dependency', nodes: graph('a: a', 'b:'), cycles: [['a']] },
  ];
  it.each(rows)('$name', ({ nodes, cycles }) => {
    expect(findCycles(nodes).map((c) => [...c].sort())).toEqual(cycles.map((c) => [...c].sort()));
  });
});

describe('shortestPath', () => {
  const edges = new Map([
    ['a', ['b', 'c']],
    ['b', ['d']],
    ['c', ['d']],
    ['d', ['a']],
  ]);
  it.each([
    ['a', 'd', new Set(['a', 'b', 'c', 'd']), ['a', 'b', 'd']],
    ['a', 'd', new Set(['a', 'c', 'd']), ['a', 'c', 'd']],
    ['d', 'b', new Set(['a', 'b', 'c', 'd']), ['d', 'a', 'b']],
    ['a', 'a', new Set(['a']), ['a']],
    ['b', 'c', new Set(['a', 'b', 'd']), undefined],
  ] as const)('from %s to %s', (from, to, within, path) => {
    expect(shortestPath(edges, from, to, within)).toEqual(path);
  });
});
