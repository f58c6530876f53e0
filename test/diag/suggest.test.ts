import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean } from '../../src/diag/suggest.js';

describe('closestMatch', () => {
  it.each([
    ['daily_budgte', ['daily_budget', 'total_budget'], 'daily_budget'],
    ['mian', ['main', 'backup'], 'main'],
    ['paused', ['ACTIVE', 'PAUSED'], 'PAUSED'],
    ['campaign', ['campaigns', 'cards'], 'campaigns'],
    ['LOCATIONS', ['LANGUAGE', 'LOCATION'], 'LOCATION'],
  ])('suggests %s → %s', (word, candidates, expected) => {
    expect(closestMatch(word, candidates)).toBe(expected);
  });

  it('suggests nothing when no candidate is close, or the word is already a candidate', () => {
    expect(closestMatch('nope', ['main'])).toBeUndefined();
    expect(closestMatch('xyz', [])).toBeUndefined();
    expect(closestMatch('main', ['main'])).toBeUndefined();
  });

  it('allows at most a third of the word in edits', () => {
    expect(closestMatch('abcdef', ['abcxyz'])).toBeUndefined();
    expect(closestMatch('abcdef', ['abcdxy'])).toBe('abcdxy');
  });

  it('phrases the hint ready to append', () => {
    expect(didYouMean('locla', ['local', 'sandbox'])).toBe('; did you mean "local"?');
    expect(didYouMean('zzz', ['local'])).toBe('');
  });
});
