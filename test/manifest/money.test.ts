import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToMicros, formatMicros } from '../../src/manifest/money.js';

describe('decimalToMicros', () => {
  it.each([
    ['50.00', 50_000_000],
    ['0.1', 100_000],
    ['0.3', 300_000],
    ['1.5000000', 1_500_000],
    ['1234567.890123', 1_234_567_890_123],
    ['.5', 500_000],
    ['5.', 5_000_000],
    ['000010', 10_000_000],
    ['1e3', 1_000_000_000],
    ['1.5e3', 1_500_000_000],
    ['2.5e-1', 250_000],
    ['10e-7', 1],
    ['+7', 7_000_000],
    ['0', 0],
    ['9007199254.740991', Number.MAX_SAFE_INTEGER],
  ])('%s is %i micros', (text, micros) => {
    expect(decimalToMicros(text)).toEqual({ ok: true, micros });
  });

  it.each([
    ['50.0000001', 7],
    ['0.0000001', 7],
    ['1e-7', 7],
    ['1.23456789', 8],
    ['12e-7', 7],
  ])('%s has %i decimal places: a precision error', (text, decimals) => {
    expect(decimalToMicros(text)).toEqual({ ok: false, problem: 'precision', decimals });
  });

  it.each(['', '.', 'fifty', '1,500.00', '1.2.3', '0x10', '--1', ' 1', 'e5', '1e', 'Infinity', 'NaN'])('%j is not an amount', (text) => {
    expect(decimalToMicros(text)).toEqual({ ok: false, problem: 'format' });
  });

  it.each(['-1', '-0.5', '9007199254.740992', '1e40', '1e41'])('%s is out of range', (text) => {
    expect(decimalToMicros(text)).toEqual({ ok: false, problem: 'range' });
  });

  it('agrees with integer arithmetic on any amount with up to 6 decimals, written any way', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 }), (micros, keep, zeros) => {
        const whole = micros / 1_000_000n;
        const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
        const trimmed = fraction.slice(0, Math.max(keep, fraction.replace(/0+$/, '').length));
        const text = `${whole.toString()}${trimmed.length > 0 ? `.${trimmed}` : ''}${'0'.repeat(trimmed.length > 0 ? zeros : 0)}`;
        expect(decimalToMicros(text)).toEqual({ ok: true, micros: Number(micros) });
        expect(decimalToMicros(formatMicros(Number(micros)))).toEqual({ ok: true, micros: Number(micros) });
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every amount with a seventh significant decimal', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.integer({ min: 1, max: 9 }), (units, digit) => {
        const result = decimalToMicros(`${units}.000000${digit}`);
        expect(result).toEqual({ ok: false, problem: 'precision', decimals: 7 });
      }),
      { numRuns: 500 },
    );
  });
});

describe('formatMicros', () => {
  it.each([
    [1_500_000, '1.50'],
    [50_000_000, '50.00'],
    [1_234_567, '1.234567'],
    [0, '0.00'],
    [100_000, '0.10'],
    [-2_500_000, '-2.50'],
  ])('%i micros is %s', (micros, text) => {
    expect(formatMicros(micros)).toBe(text);
  });

  it.each([
    [1_000_000_000, 'JPY', '1000'],
    [1_500_000, 'JPY', '1.5'],
    [1_000_001, 'JPY', '1.000001'],
    [0, 'JPY', '0'],
    [-3_000_000, 'KRW', '-3'],
    [50_000_000, 'USD', '50.00'],
    [50_000_000, 'EUR', '50.00'],
    [1_234_567, 'EUR', '1.234567'],
    [5_000_000, 'KWD', '5.000'],
    [5_000_100, 'BHD', '5.0001'],
    [50_000_000, 'XYZ', '50.00'],
    [50_000_000, null, '50.00'],
  ])("%i micros in %s is %s: the currency's own decimals, and more only where the amount has them", (micros, currency, text) => {
    expect(formatMicros(micros, currency)).toBe(text);
    expect(decimalToMicros(text.replace(/^-/, ''))).toEqual({ ok: true, micros: Math.abs(micros) });
  });
});
