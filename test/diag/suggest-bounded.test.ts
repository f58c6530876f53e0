import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean } from '../../src/diag/suggest.js';

describe('suggestions for huge names', () => {
  it('compares two long names in time proportional to their length, not its square', () => {
    const name = 'n'.repeat(1_000_000);
    const typo = `${name.slice(0, 500_000)}m${name.slice(500_001)}`;
    const started = performance.now();
    expect(closestMatch(typo, ['main', name])).toBe(name);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('quotes at most a short prefix of the suggested name', () => {
    const name = `${'a'.repeat(500)}z`;
    const hint = didYouMean(`${'a'.repeat(500)}y`, [name]);
    expect(hint.length).toBeLessThan(100);
    expect(hint).toMatch(/^; did you mean "a+…"\?$/);
  });
});
