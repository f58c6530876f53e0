import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean, nearestMatches } from '../../src/diag/suggest.js';

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

describe('nearestMatches', () => {
  it.each([
    ['the nearest first', 'abcd', ['xxxx', 'abcx', 'abxx'], 2, ['abcx', 'abxx']],
    ['however far they are', 'zzzz', ['abcd', 'abcz'], 1, ['abcz']],
    ['case-insensitively', 'EN', ['fr', 'en', 'de'], 1, ['en']],
    ['the earlier of equally near ones', 'aa', ['ab', 'ba', 'ac'], 2, ['ab', 'ba']],
    ['fewer when there are fewer', 'a', ['b'], 3, ['b']],
    ['none for none', 'a', [], 3, []],
    ['none asked for', 'a', ['a'], 0, []],
  ])('%s', (_name, word, candidates, count, expected) => {
    expect(nearestMatches(word, candidates, count)).toEqual(expected);
  });

  it('leaves out a candidate more than 64 edits away', () => {
    expect(nearestMatches('a', ['b'.repeat(100)], 1)).toEqual([]);
  });
});
