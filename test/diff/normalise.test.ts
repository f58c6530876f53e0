import { describe, expect, it } from 'vitest';
import { valuesEqual } from '../../src/diff/equality.js';
import { normaliseValue } from '../../src/diff/normalise.js';
import type { Shape } from '../../src/kinds/attribute.js';

describe('normalisation and equality', () => {
  const cases: Array<[Shape, unknown, unknown, boolean]> = [
    ['scalar', 'ACTIVE', 'ACTIVE', true],
    ['scalar', 'ACTIVE', 'PAUSED', false],
    ['scalar', null, undefined, true],
    ['scalar', true, 'true', false],
    ['id', '0', 0, true],
    ['id', '12', '012', false],
    ['micros', 1_500_000, '1500000', true],
    ['micros', 1_500_000, 1_500_001, false],
    ['time', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', true],
    ['time', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00+01:00', true],
    ['time', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', false],
    ['set', ['b', 'a'], ['a', 'b', 'a'], true],
    ['set', [], null, true],
    ['set', ['a'], ['a', 'b'], false],
    ['list', ['a', 'b'], ['b', 'a'], false],
    ['list', ['a', 'b'], ['a', 'b'], true],
    ['json', [{ type: 'MEDIA', media_key: 'k' }], [{ media_key: 'k', type: 'MEDIA' }], true],
    ['json', { a: 1, b: 2 }, { a: 1 }, false],
    ['json', { a: [1, 2] }, { a: [1, 3] }, false],
    ['json', { a: null }, { a: null }, true],
    ['json', [1], { 0: 1 }, false],
  ];
  it.each(cases)('%s: %j vs %j → %s', (shape, a, b, equal) => {
    expect(valuesEqual(shape, normaliseValue(shape, a), normaliseValue(shape, b))).toBe(equal);
    expect(valuesEqual(shape, normaliseValue(shape, b), normaliseValue(shape, a))).toBe(equal);
  });

  it('keeps UnknownRefs and malformed values as they are', () => {
    expect(normaliseValue('id', { $ref: 'campaigns.a' })).toEqual({ $ref: 'campaigns.a' });
    expect(normaliseValue('time', 'not a time')).toBe('not a time');
    expect(normaliseValue('micros', 'abc')).toBe('abc');
  });
});
