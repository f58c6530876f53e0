/**
 * Every command sets V8's compilers for a short process (src/cli/compilers.ts): four times V8's
 * optimization budget, and WebAssembly compiled by the baseline compiler only — each unless the
 * user set it. Checked by the flags set, never by time measured: the figures are the bench's
 * (BENCHMARKS.md, "adsctl beside a batch script").
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_INTERRUPT_BUDGET, tuneCompilers, V8_INTERRUPT_BUDGET } from '../../src/cli/compilers.js';
import type { HeapGrowthHost } from '../../src/cli/heap-growth.js';

const BUDGET = `--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`;

function host(nodeOptions?: string, execArgv: string[] = []): HeapGrowthHost & { set: string[] } {
  const set: string[] = [];
  return { nodeOptions, execArgv, setFlags: (flags) => void set.push(flags), set };
}

describe('tuneCompilers', () => {
  it.each([
    { given: 'nothing', nodeOptions: undefined, execArgv: [], flags: [BUDGET, '--liftoff-only'] },
    { given: 'other NODE_OPTIONS', nodeOptions: '--enable-source-maps --max-old-space-size=900', execArgv: [], flags: [BUDGET, '--liftoff-only'] },
    { given: 'a budget in NODE_OPTIONS', nodeOptions: '--interrupt-budget=1000', execArgv: [], flags: ['--liftoff-only'] },
    { given: 'a budget with underscores', nodeOptions: '--enable-source-maps --interrupt_budget=1000', execArgv: [], flags: ['--liftoff-only'] },
    { given: "a budget to node itself", nodeOptions: undefined, execArgv: ['--interrupt-budget=1000'], flags: ['--liftoff-only'] },
    { given: 'WebAssembly tier-up turned off', nodeOptions: '--no-wasm-tier-up', execArgv: [], flags: [BUDGET] },
    { given: 'Liftoff turned off', nodeOptions: undefined, execArgv: ['--no-liftoff'], flags: [BUDGET] },
    { given: 'both', nodeOptions: '--liftoff-only', execArgv: ['--interrupt-budget=1'], flags: [] },
  ])('sets $flags when the user gave $given', ({ nodeOptions, execArgv, flags }) => {
    const h = host(nodeOptions, execArgv);
    expect(tuneCompilers(h)).toEqual(flags);
    expect(h.set).toEqual(flags);
  });

  it('sets four times V8 budget', () => {
    expect(COMMAND_INTERRUPT_BUDGET).toBe(4 * V8_INTERRUPT_BUDGET);
  });
});
