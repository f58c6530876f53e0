/**
 * Plan documents validate against schemas/plan.schema.json (draft 2020-12, strict), and the schema
 * itself keeps the house rules: a description on every field, no undeclared properties.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/registry.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { renderPlan } from '../../src/render/render.js';
import { accountPlan, attr, change, plan, spend } from './plan-builder.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

const range = { file: 'ads.yaml', start: { line: 3, column: 5, offset: 20 }, end: { line: 3, column: 9, offset: 24 } };
const plans = {
  empty: plan([]),
  'every action': plan([
    accountPlan(
      [
        change('account', 'noop', { before: { name: 'Acme' }, after: { name: 'Acme' } }),
        change('campaigns.a', 'create', { reason: 'new', currency: 'USD', after: { name: 'A', daily_budget_amount_local_micro: 1_234_567, funding_instrument_id: { $ref: 'funding_instruments.main' } } }),
        change('campaigns.b', 'update', { currency: 'USD', changes: [attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true }), attr('categories', ['a'], ['a', 'b'])] }),
        change('campaigns.b.line_items.l', 'replace', { reason: 'replace_field', changes: [attr('objective', 'A', 'B', { forces: true }), attr('frequency_cap', null, { max: 3 })] }),
        change('campaigns.c', 'delete', { reason: 'removed', protected: true }),
        change('campaigns.d', 'create', { id: 'gone1', reason: 'deleted_outside' }),
        change('campaigns.e.line_items.f', 'delete'),
        change('campaigns.e.line_items.f.promoted_posts["9"]', 'delete'),
        change('funding_instruments.main', 'noop', { reason: 'released' }),
      ],
      { account: 'acme', accountId: '18ce54d4x5t', endpoint: 'sandbox', requests: { reads: 5, writes: 4, batches: 3 }, spend: [spend('USD', -1_000_000, 2_500_000)], implied: [{ address: 'campaigns.e.line_items.f.promoted_posts["9"]', by: 'campaigns.e.line_items.f' }] },
    ),
    accountPlan([], { account: 'other.yaml' }),
  ], { diagnostics: [{ severity: 'error', code: 'prevent-destroy', message: 'no', range, related: [{ message: 'declared here', range }] }, { severity: 'warning', code: 'w', message: 'w' }] }),
  destroy: plan([accountPlan([change('campaigns.a', 'delete')])], { mode: 'destroy' }),
  'serving without a creative': plan([
    {
      ...accountPlan([change('campaigns.a.line_items.b.promoted_posts["2"]', 'create', { after: { line_item_id: 'li1', tweet_id: '2' } })]),
      withoutCreative: [{ address: 'campaigns.a.line_items.b', kind: 'line_item', id: 'li1', repairs: ['campaigns.a.line_items.b.promoted_posts["2"]'] }],
    },
  ]),
  'values known only after apply': plan([
    accountPlan([
      change('campaigns.a.line_items.b.promoted_posts["1"]', 'replace', { reason: 'replace_parent', changes: [attr('line_item_id', 'li1', { $ref: 'campaigns.a.line_items.b' }, { forces: true })] }, { tweet_id: '1' }),
      change('campaigns.c', 'create', { after: { name: 'C', media_keys: ['k1', { $ref: 'media.m', prefix: 'k-' }], nested: { id: { $ref: 'x' }, n: 1 } } }),
    ]),
  ]),
};

describe('schemas/plan.schema.json', () => {
  it.each(Object.entries(plans))('accepts the document of the %s plan, as printed by renderPlan', (_name, p) => {
    const printed = JSON.parse(renderPlan(p, 'json')) as unknown;
    expect(validate(printed), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects documents that break the contract', () => {
    const doc = JSON.parse(JSON.stringify(planToDocument(plans['every action']))) as { resource_changes: Array<Record<string, unknown> & { change: Record<string, unknown> }>; summary: Record<string, unknown> };
    const broken = [
      (d: typeof doc) => (d.resource_changes[0]!['extra'] = 1),
      (d: typeof doc) => (d.resource_changes[0]!.change['actions'] = ['create', 'delete']),
      (d: typeof doc) => (d.resource_changes[0]!['type'] = 'widget'),
      (d: typeof doc) => delete d.summary['destroy'],
      (d: typeof doc) => (d.resource_changes[0]!['id'] = 12),
      (d: typeof doc) => delete d.resource_changes[1]!.change['after_unknown'],
      (d: typeof doc) => (d.resource_changes[1]!.change['after_unknown'] = { funding_instrument_id: 'yes' }),
    ];
    for (const breakIt of broken) {
      const copy = JSON.parse(JSON.stringify(doc)) as typeof doc;
      breakIt(copy);
      expect(validate(copy)).toBe(false);
    }
  });

  it('lists exactly the resource kinds of the manifest', () => {
    const defs = schema['$defs'] as Record<string, { properties: Record<string, { enum?: string[] }> }>;
    expect([...(defs['ResourceChange']?.properties['type']?.enum ?? [])].sort()).toEqual(Object.keys(KINDS).sort());
  });

  it('describes every field and closes every object', () => {
    const problems: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
      if (node === null || typeof node !== 'object') return;
      const s = node as Record<string, unknown>;
      const properties = s['properties'] as Record<string, Record<string, unknown>> | undefined;
      if (properties !== undefined) {
        if (s['additionalProperties'] !== false) problems.push(`${path}: additionalProperties is not false`);
        for (const [key, value] of Object.entries(properties)) if (typeof value['description'] !== 'string') problems.push(`${path}/properties/${key}: no description`);
      }
      for (const [key, value] of Object.entries(s)) walk(value, `${path}/${key}`);
    };
    walk(schema, '#');
    expect(problems).toEqual([]);
  });
});
