/**
 * Every command hands hot functions to V8's optimizing compiler later than V8 would (four times
 * its budget), unless the user set the budget. Checked by the flag set, never by time measured:
 * the figures are the bench's (BENCHMARKS.md, "The no-change plan beside a batch script").
 */
import { describe, expect, it } from 'vitest';
import type { HeapGrowthHost } from '../../src/cli/heap-growth.js';
import { COMMAND_INTERRUPT_BUDGET, delayOptimization, V8_INTERRUPT_BUDGET } from '../../src/cli/optimization-budget.js';

function host(nodeOptions?: string, execArgv: string[] = []): HeapGrowthHost & { set: string[] } {
  const set: string[] = [];
  return { nodeOptions, execArgv, setFlags: (flags) => void set.push(flags), set };
}

describe('delayOptimization', () => {
  it('sets four times V8 budget', () => {
    const h = host('--enable-source-maps');
    expect(COMMAND_INTERRUPT_BUDGET).toBe(4 * V8_INTERRUPT_BUDGET);
    expect(delayOptimization(h)).toBe(`--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`);
    expect(h.set).toEqual([`--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`]);
  });

  it.each([
    { where: 'NODE_OPTIONS', nodeOptions: '--interrupt-budget=1000', execArgv: [] },
    { where: 'NODE_OPTIONS, with underscores', nodeOptions: '--enable-source-maps --interrupt_budget=1000', execArgv: [] },
    { where: "node's own arguments", nodeOptions: undefined, execArgv: ['--interrupt-budget=1000'] },
  ])('leaves a budget the user set in $where', ({ nodeOptions, execArgv }) => {
    const h = host(nodeOptions, execArgv);
    expect(delayOptimization(h)).toBeUndefined();
    expect(h.set).toEqual([]);
  });
});
