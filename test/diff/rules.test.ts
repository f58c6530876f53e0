import { describe, expect, it } from 'vitest';
import { valuesEqual } from '../../src/diff/equality.js';
import type { Shape } from '../../src/diff/field-rule.js';
import { normaliseValue } from '../../src/diff/normalise.js';
import { fieldRule, ignoredFields, KIND_RANK, KIND_RULES, REFERABLE_KINDS } from '../../src/diff/rules.js';
import { COLLECTIONS } from '../../src/manifest/address.js';
import { ignorableFields, KIND_SPECS } from '../../src/manifest/kinds.js';
import type { ResourceKind } from '../../src/manifest/types.js';

const KINDS = Object.keys(KIND_RULES) as ResourceKind[];

/** Manifest attributes that are not API fields of the kind. */
const NOT_API_FIELDS: Partial<Record<ResourceKind, readonly string[]>> = { custom_audience: ['users_file'] };

describe('the rules table', () => {
  it.each(KINDS)('covers every attribute the manifest gives a %s', (kind) => {
    const spec = KIND_SPECS[kind];
    const written = [...spec.plain, ...spec.ids, ...Object.values(spec.money), ...spec.times, ...Object.values(spec.refs).map((r) => r.field)];
    const missing = written.filter((field) => fieldRule(kind, field) === undefined && !(NOT_API_FIELDS[kind] ?? []).includes(field));
    expect(missing).toEqual([]);
  });

  it.each(KINDS)('maps every ignore_changes name the manifest accepts for a %s to a compared field', (kind) => {
    for (const [name, api] of ignorableFields(KIND_SPECS[kind])) {
      if ((NOT_API_FIELDS[kind] ?? []).includes(api)) continue;
      expect([...ignoredFields(KIND_RULES[kind], [name])]).toEqual([api]);
      expect(fieldRule(kind, api)).toBeDefined();
    }
  });

  it('lists each field of a kind once', () => {
    for (const rules of Object.values(KIND_RULES)) expect(new Set(rules.fields.map((f) => f.field)).size).toBe(rules.fields.length);
  });

  it('never lets a default force a replacement, except the operator fixed by a targeting key', () => {
    const defaultedReplace = Object.values(KIND_RULES).flatMap((r) => r.fields.filter((f) => f.fallback !== undefined && f.change === 'replace').map((f) => `${r.kind}.${f.field}`));
    expect(defaultedReplace).toEqual(['targeting_criterion.operator_type']);
  });

  it('marks the fields the API cannot update', () => {
    const replaced = (kind: ResourceKind): string[] => KIND_RULES[kind].fields.filter((f) => f.change === 'replace').map((f) => f.field);
    expect(replaced('line_item')).toEqual(['campaign_id', 'product_type', 'objective', 'placements', 'standard_delivery', 'primary_web_event_tag']);
    expect(replaced('campaign')).toEqual(['funding_instrument_id']);
    for (const kind of ['promoted_post', 'promoted_account', 'media_creative', 'targeting_criterion', 'funding_instrument'] as const) {
      expect(replaced(kind)).toEqual(KIND_RULES[kind].fields.map((f) => f.field));
    }
  });

  it('keeps decisions for every kind a reference or a parent link can name', () => {
    const referenced = Object.values(KIND_SPECS).flatMap((spec) => Object.values(spec.refs).map((ref) => COLLECTIONS.account?.[ref.collection]));
    for (const kind of [...referenced, 'campaign', 'line_item'] as ResourceKind[]) expect(REFERABLE_KINDS.has(kind)).toBe(true);
    expect(referenced).toEqual(['funding_instrument', 'custom_audience', 'card']);
  });

  it('ranks every kind after the kinds it sits under', () => {
    for (const [parent, collections] of Object.entries(COLLECTIONS) as Array<[ResourceKind, Record<string, ResourceKind>]>) {
      for (const child of Object.values(collections)) expect(KIND_RANK[child]).toBeGreaterThan(KIND_RANK[parent]);
    }
    expect(KIND_RANK.campaign).toBeGreaterThan(KIND_RANK.funding_instrument);
    expect(KIND_RANK.targeting_criterion).toBeGreaterThan(KIND_RANK.custom_audience);
    expect(KIND_RANK.draft_post).toBeGreaterThan(KIND_RANK.card);
  });
});

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
