import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KindDescriptor } from '../../src/kinds/descriptor.js';
import type { ResourceKind } from '../../src/kinds/kind.js';
import { attributeOf, COLLECTIONS, DECISION_RANK, DESCRIPTORS, ignorableFields, kindDependencies, KINDS, REFERABLE_KINDS } from '../../src/kinds/registry.js';

type Schema = { properties?: Record<string, unknown>; $defs?: Record<string, Schema> };
const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/manifest.schema.json', import.meta.url)), 'utf8')) as Schema;

/** The meta-arguments every kind's schema entry may declare besides its fields. */
const META_FIELDS = ['lifecycle', 'depends_on'];

const each = DESCRIPTORS.map((d) => [d.kind, d] as const);

describe('the registry', () => {
  it('refuses, at compile time, a kind whose descriptor is missing or lacks a part', () => {
    const { write: _write, ...withoutWrite } = KINDS.campaign;
    // @ts-expect-error a descriptor without its write endpoints is not a KindDescriptor
    const partial: KindDescriptor = withoutWrite;
    const { media_creative: _media, ...withoutKind } = KINDS;
    // @ts-expect-error the registry needs a descriptor for every kind
    const registry: Record<ResourceKind, KindDescriptor> = withoutKind;
    expect(partial.kind).toBe('campaign');
    expect(Object.keys(registry)).not.toContain('media_creative');
  });

  it.each(each)('registers %s under its own kind', (kind, d) => {
    expect(d.kind).toBe(kind);
  });

  it.each(each)('%s reads exactly the fields its schema entry declares', (_kind, d) => {
    const spec = d.manifest;
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

  it('covers every top-level section of the schema with a kind', () => {
    const topLevel = Object.keys(schema.properties ?? {}).filter((k) => !['version', 'endpoint', 'unmanaged', 'account', 'import', 'moved', 'removed'].includes(k));
    expect(topLevel.sort()).toEqual([...(COLLECTIONS.get('account')?.keys() ?? [])].sort());
    expect(KINDS.campaign.manifest.children).toEqual([...(COLLECTIONS.get('campaign')?.keys() ?? [])]);
    expect([...KINDS.line_item.manifest.children].sort()).toEqual([...(COLLECTIONS.get('line_item')?.keys() ?? [])].sort());
  });

  it.each(each)('compares every attribute the manifest gives a %s', (kind, d) => {
    const spec = d.manifest;
    const written = [...spec.plain, ...spec.ids, ...Object.values(spec.money), ...spec.times, ...Object.values(spec.refs).map((r) => r.field)];
    expect(written.filter((field) => attributeOf(kind, field) === undefined)).toEqual([]);
  });

  it.each(each)('maps every ignore_changes name a %s accepts to a compared field or an owned collection', (kind, d) => {
    const owned = new Set(DESCRIPTORS.filter((c) => c.owned && c.parent === kind).map((c) => c.address.collection));
    for (const api of ignorableFields(d).values()) expect(attributeOf(kind, api) !== undefined || owned.has(api)).toBe(true);
    if (kind === 'line_item') expect([...owned].sort()).toEqual(['curated_categories', 'promoted_accounts', 'promoted_posts', 'targeting']);
  });

  it('lets ignore_changes name API fields, short money names and references', () => {
    const names = ignorableFields(KINDS.campaign);
    expect(names.get('daily_budget')).toBe('daily_budget_amount_local_micro');
    expect(names.get('daily_budget_amount_local_micro')).toBe('daily_budget_amount_local_micro');
    expect(names.get('funding_instrument')).toBe('funding_instrument_id');
    expect(names.has('line_items')).toBe(false);
  });

  it.each(each)('lists each attribute of a %s once, and never as computed too', (_kind, d) => {
    const fields = d.attributes.map((a) => a.field);
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields.filter((f) => d.computed.includes(f))).toEqual([]);
  });

  it('never lets a default force a replacement, except the operator fixed by a targeting key and the type fixed by a kind', () => {
    const defaultedReplace = DESCRIPTORS.flatMap((d) => d.attributes.filter((a) => a.fallback !== undefined && a.change === 'replace').map((a) => `${d.kind}.${a.field}`));
    // fixed by the address key, or by the kind itself
    expect(defaultedReplace).toEqual(['targeting_criterion.operator_type', 'flexible_audience.audience_type']);
  });

  it('marks the fields the API cannot update, and kinds without an update endpoint replace on any change', () => {
    const replaced = (kind: ResourceKind): string[] => KINDS[kind].attributes.filter((a) => a.change === 'replace').map((a) => a.field);
    expect(replaced('line_item')).toEqual(['campaign_id', 'product_type', 'objective', 'placements', 'standard_delivery', 'primary_web_event_tag']);
    expect(replaced('campaign')).toEqual(['funding_instrument_id']);
    for (const d of DESCRIPTORS.filter((x) => x.write.update === undefined)) expect(replaced(d.kind)).toEqual(d.attributes.map((a) => a.field));
  });

  it('gives every kind with a parent a collection under it, and the account none', () => {
    for (const d of DESCRIPTORS) {
      if (d.parent === undefined) expect(d.address.key).toBe('root');
      else expect(COLLECTIONS.get(d.parent)?.get(d.address.collection)).toBe(d.kind);
    }
  });

  it('ranks every kind after the kinds it sits under or refers to', () => {
    for (const d of DESCRIPTORS) for (const dep of kindDependencies(d)) expect(DECISION_RANK[d.kind]).toBeGreaterThan(DECISION_RANK[dep]);
    expect(DECISION_RANK.campaign).toBeGreaterThan(DECISION_RANK.funding_instrument);
  });

  it('keeps decisions for every kind a reference or a parent link can name', () => {
    expect([...REFERABLE_KINDS].sort()).toEqual(['account', 'campaign', 'card', 'conversation_card', 'custom_audience', 'do_not_reach_list', 'flexible_audience', 'funding_instrument', 'line_item', 'media', 'post']);
  });

  it('sends a batch only where the kind says, within the limits of the API', () => {
    const limits = DESCRIPTORS.flatMap((d) =>
      (['create', 'update', 'delete'] as const).flatMap((action) => {
        const e = d.write[action];
        return e?.via === 'batch' ? [`${d.kind} ${action} ${e.limit}`] : [];
      }),
    );
    expect(limits).toEqual([
      'campaign create 40', 'campaign update 40', 'campaign delete 40',
      'line_item create 40', 'line_item update 40', 'line_item delete 40',
      'targeting_criterion create 500', 'targeting_criterion delete 500',
      'flexible_audience create 10', 'flexible_audience delete 10',
    ]);
  });
});
