import { describe, expect, it } from 'vitest';
import { clipText, quoteValue, QUOTE_LIMIT } from '../../src/diag/quote.js';

describe('quoteValue', () => {
  it('quotes a short value as a JSON string', () => {
    expect(quoteValue('mian')).toBe('"mian"');
    expect(quoteValue('a "b"\n')).toBe('"a \\"b\\"\\n"');
    expect(quoteValue('')).toBe('""');
  });

  it('cuts a long value to the limit and marks the cut inside the quotes', () => {
    const quoted = quoteValue('x'.repeat(10_000_000));
    expect(quoted).toBe(`"${'x'.repeat(QUOTE_LIMIT - 1)}…"`);
    expect(quoteValue('abcdefgh', 5)).toBe('"abcd…"');
    expect(quoteValue('abcde', 5)).toBe('"abcde"');
  });

  it('never splits a character made of two UTF-16 units', () => {
    expect(quoteValue('ab🚀cd', 4)).toBe('"ab…"');
    expect(quoteValue('abc🚀', 4)).toBe('"abc…"');
  });
});

describe('clipText', () => {
  it('leaves text within the limit alone and cuts longer text with a mark', () => {
    expect(clipText('short', 10)).toBe('short');
    expect(clipText('0123456789abc', 10)).toBe('012345678…');
    expect(clipText('y'.repeat(5_000_000), 200)).toHaveLength(200);
  });
});
