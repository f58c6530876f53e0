import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/manifest/address.js';
import { ignorableFields, KIND_SPECS, META_FIELDS } from '../../src/manifest/kinds.js';

type Schema = { properties?: Record<string, unknown>; $defs?: Record<string, Schema> };
const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/manifest.schema.json', import.meta.url)), 'utf8')) as Schema;

describe('KIND_SPECS', () => {
  it.each(Object.values(KIND_SPECS).map((s) => [s.kind, s] as const))('%s reads exactly the fields its schema entry declares', (_kind, spec) => {
    const declared = Object.keys(schema.$defs?.[spec.def]?.properties ?? {}).sort();
    const handled = [
      ...spec.plain,
      ...spec.ids,
      ...Object.keys(spec.money),
      ...Object.values(spec.money),
      ...spec.times,
      ...Object.keys(spec.refs),
      ...spec.special,
      ...spec.children,
      ...META_FIELDS.filter((m) => declared.includes(m)),
    ];
    expect(new Set(handled).size).toBe(handled.length);
    expect([...handled].sort()).toEqual(declared);
  });

  it('covers every collection of the address grammar and every top-level collection of the schema', () => {
    const kinds = Object.values(COLLECTIONS).flatMap((c) => Object.values(c ?? {}));
    expect(new Set([...kinds, 'account'])).toEqual(new Set(Object.keys(KIND_SPECS)));
    const topLevel = Object.keys(schema.properties ?? {}).filter((k) => !['version', 'endpoint', 'account', 'import'].includes(k));
    expect(topLevel.sort()).toEqual(Object.keys(COLLECTIONS.account ?? {}).sort());
    expect(KIND_SPECS.campaign.children).toEqual(Object.keys(COLLECTIONS.campaign ?? {}));
    expect([...KIND_SPECS.line_item.children].sort()).toEqual(Object.keys(COLLECTIONS.line_item ?? {}).sort());
  });

  it('lets ignore_changes name API fields, short money names and references', () => {
    const names = ignorableFields(KIND_SPECS.campaign);
    expect(names.get('daily_budget')).toBe('daily_budget_amount_local_micro');
    expect(names.get('daily_budget_amount_local_micro')).toBe('daily_budget_amount_local_micro');
    expect(names.get('funding_instrument')).toBe('funding_instrument_id');
    expect(names.has('line_items')).toBe(false);
    expect(names.has('lifecycle')).toBe(false);
  });
});
