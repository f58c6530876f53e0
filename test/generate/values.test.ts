import { describe, expect, it } from 'vitest';
import { slugOf, uniqueKeys } from '../../src/generate/slug.js';
import { unitsOf, utcOf } from '../../src/generate/values.js';

describe('money in currency units, exact', () => {
  it.each([
    [35_000_000, '35.00'],
    [1_500_000, '1.50'],
    [1_234_567, '1.234567'],
    [1, '0.000001'],
    [10, '0.00001'],
    ['9007199254740993000000', '9007199254740993.00'],
    [123_450_000, '123.45'],
    [0, '0.00'],
  ])('%s micros → %s', (micros, units) => {
    expect(unitsOf(micros)).toBe(units);
  });

  it('is no amount for what is not an integer', () => {
    expect(unitsOf(1.5)).toBeUndefined();
    expect(unitsOf('abc')).toBeUndefined();
  });
});

describe('times in UTC', () => {
  it.each([
    ['2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z'],
    ['2026-06-01T09:00:00+02:00', '2026-06-01T07:00:00Z'],
    ['2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00Z'],
    ['2026-06-01T00:00:00.250Z', '2026-06-01T00:00:00.250Z'],
  ])('%s → %s', (time, utc) => {
    expect(utcOf(time)).toBe(utc);
  });
});

describe('logical names from names', () => {
  it.each([
    ['Summer Sale 2026', 'summer_sale_2026'],
    ['  Été — 50% off!  ', 'ete_50_off'],
    ['2027 launch', '_2027_launch'],
    ['a: b # c', 'a_b_c'],
    ['***', 'fallback'],
    ['日本', 'fallback'],
    ['US-hikers', 'us_hikers'],
  ])('%j → %s', (name, slug) => {
    expect(slugOf(name, 'fallback')).toBe(slug);
  });

  it('gives colliding names suffixes in the order of their ids, and says with whom they collide', () => {
    const keys = uniqueKeys(
      [
        { id: 'b2', name: 'Sale' },
        { id: 'a1', name: 'sale!' },
        { id: 'c3', name: 'Sale 2' },
        { id: 'd4', name: 'SALE' },
      ],
      (id) => `x_${id}`,
    );
    expect(keys.get('a1')).toEqual({ key: 'sale' });
    expect(keys.get('c3')).toEqual({ key: 'sale_2' });
    expect(keys.get('b2')).toEqual({ key: 'sale_3', collidesWith: 'sale' });
    expect(keys.get('d4')).toEqual({ key: 'sale_4', collidesWith: 'sale' });
  });

  it('is stable when generated again, whatever the order objects are read in', () => {
    const objects = [{ id: 'a1', name: 'X' }, { id: 'b2', name: 'x' }, { id: 'c3', name: 'Y' }];
    const once = uniqueKeys(objects, (id) => id);
    const again = uniqueKeys([...objects].reverse(), (id) => id);
    expect([...again].sort()).toEqual([...once].sort());
  });
});
