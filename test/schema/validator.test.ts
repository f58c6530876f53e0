import { describe, expect, it } from 'vitest';
import type { SourceRange } from '../../src/diag/source-range.js';
import { validateWithSchema, type InstanceLocator } from '../../src/schema/validator.js';

const rangeFor = (pointer: string, kind: string): SourceRange => ({ file: `${kind}:${pointer}`, start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } });
const locator = (known: readonly string[]): InstanceLocator => ({
  value: (pointer) => (known.includes(pointer) ? rangeFor(pointer, 'value') : undefined),
  key: (pointer) => (known.includes(pointer) ? rangeFor(pointer, 'key') : undefined),
});

function check(value: unknown, known: readonly string[] = ['']) {
  const result = validateWithSchema('manifest', value, locator(known));
  return { ...result, found: result.diagnostics.map((d) => `${d.code} @${d.range?.file ?? '-'}: ${d.message}`) };
}

describe('validateWithSchema', () => {
  it('accepts a minimal manifest', () => {
    expect(check({ version: 1 }).diagnostics).toEqual([]);
  });

  it('puts unknown and missing fields at the key, with a suggestion', () => {
    const { found } = check({ version: 1, campaigns: { summer: { daily_budgte: 1 } } }, ['', '/campaigns/summer', '/campaigns/summer/daily_budgte']);
    expect(found).toEqual([
      'schema-required @key:/campaigns/summer: campaign "summer" is missing the required field "name"',
      'schema-unknown-field @key:/campaigns/summer/daily_budgte: unknown field "daily_budgte" in campaign "summer"; did you mean "daily_budget"?',
    ]);
  });

  it('falls back to the nearest located value', () => {
    const { found } = check({ version: 1, campaigns: { summer: { name: 'S', entity_status: 'PAUSD' } } }, ['', '/campaigns']);
    expect(found).toEqual(['schema-enum @value:/campaigns: entity_status "PAUSD" is not one of ACTIVE, DRAFT, PAUSED; did you mean "PAUSED"?']);
  });

  it('reports a wrong type once, not also the keywords of the expected type', () => {
    const { found, invalid } = check({ version: 1, account: { name: 5 } }, ['', '/account/name']);
    expect(found).toEqual(['schema-type @value:/account/name: name must be a string, not 5']);
    expect([...invalid]).toEqual(['/account/name']);
  });

  it('gives the shared value types their own codes', () => {
    const codes = (value: unknown): string[] => check(value).diagnostics.map((d) => d.code);
    const campaign = (fields: Record<string, unknown>) => ({ version: 1, campaigns: { c: { name: 'C', ...fields } } });
    expect(codes(campaign({ daily_budget: 'ten' }))).toEqual(['money-format']);
    expect(codes(campaign({ daily_budget: -1 }))).toEqual(['money-range']);
    expect(codes(campaign({ daily_budget_amount_local_micro: -1 }))).toEqual(['money-range']);
    expect(codes(campaign({ funding_instrument_id: 'a b' }))).toEqual(['id-format']);
    expect(codes(campaign({ name: 'x'.repeat(256) }))).toEqual(['schema-max-length']);
    expect(codes(campaign({ line_items: { l: { product_type: 'MEDIA', objective: 'REACH', placements: ['X'], start_time: '2026-06-01' } } }))).toEqual(['time-format']);
    expect(codes({ version: 1, import: [{ to: 'campaigns.c', id: -2 }] })).toEqual(['id-format']);
    expect(codes({ version: 2 })).toEqual(['schema-const']);
    expect(codes({ version: 1, campaigns: { '': { name: 'x' } } })).toEqual(['schema-property-name']);
  });

  it('does not mark values invalid for problems of the enclosing object', () => {
    const { invalid } = check({ version: 1, campaigns: { c: {} } });
    expect([...invalid]).toEqual([]);
  });
});
