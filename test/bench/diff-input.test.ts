import { describe, expect, it } from 'vitest';
import { benchmarkDiffInput } from '../../bench/diff-input.js';
import { diffResources } from '../../src/diff/diff.js';

describe('benchmarkDiffInput', () => {
  it('builds an account of the asked size whose diff has the intended mix of changes', () => {
    const input = benchmarkDiffInput(10_000);
    expect(input.desired.resources.length).toBeGreaterThan(9_500);
    expect(input.desired.resources.length).toBeLessThan(10_500);
    const result = diffResources(input);
    expect(result.diagnostics).toEqual([]);
    const count = (action: string): number => result.value?.filter((c) => c.action === action).length ?? 0;
    const lineItems = (action: string): number => result.value?.filter((c) => c.kind === 'line_item' && c.action === action).length ?? 0;
    expect(lineItems('create')).toBe(10);
    expect(lineItems('delete')).toBe(10);
    expect(count('create')).toBe(100);
    expect(count('delete')).toBe(100);
    expect(result.value?.filter((c) => c.kind === 'line_item' && c.drift).length).toBe(20);
    expect(result.value?.filter((c) => c.kind === 'campaign' && c.action === 'update').length).toBe(1);
    expect(count('replace')).toBe(0);
    expect(count('noop')).toBe((result.value?.length ?? 0) - 200 - 21);
  });
});
