/**
 * The JSON plan document: Terraform's action lists and counts, adsctl's extensions, exact money
 * strings, and one byte sequence per plan whatever the order of its input.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/diff/types.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { renderPlan } from '../../src/render/render.js';
import { accountPlan, attr, change, plan, spend } from './plan-builder.js';

describe('planToDocument', () => {
  it.each<[Action, unknown]>([
    ['create', ['create']],
    ['update', ['update']],
    ['delete', ['delete']],
    ['replace', ['delete', 'create']],
    ['noop', ['no-op']],
  ])('maps %s to Terraform actions %j', (action, actions) => {
    const doc = planToDocument(plan([accountPlan([change('campaigns.a', action, { changes: [attr('name', 'x', 'y')] })])]));
    expect(doc.resource_changes[0]?.change.actions).toEqual(actions);
  });

  it('counts a replacement as one add and one destroy, and no-ops as nothing', () => {
    const doc = planToDocument(
      plan([
        accountPlan([
          change('campaigns.a', 'create'),
          change('campaigns.b', 'update', { changes: [attr('name', 'x', 'y', { drift: true })] }),
          change('campaigns.c', 'replace'),
          change('campaigns.d', 'delete'),
          change('campaigns.e', 'noop'),
        ], { account: 'one' }),
        accountPlan([change('campaigns.f', 'create', { reason: 'deleted_outside' })], { account: 'two' }),
      ]),
    );
    expect(doc.summary).toEqual({ add: 3, change: 1, destroy: 2, drift: 2 });
    expect(doc.accounts.map((a) => a.summary)).toEqual([{ add: 2, change: 1, destroy: 2, drift: 1 }, { add: 1, change: 0, destroy: 0, drift: 1 }]);
    expect(doc.resource_changes).toHaveLength(6);
  });

  it('writes ids, reasons and currencies as null when unknown, and the resource kind as type', () => {
    const doc = planToDocument(plan([accountPlan([change('campaigns.a.line_items.b', 'create', { after: { campaign_id: { $ref: 'campaigns.a' } } })], { account: 'k' })]));
    expect(doc.resource_changes[0]).toEqual({
      address: 'campaigns.a.line_items.b',
      account: 'k',
      type: 'line_item',
      id: null,
      change: {
        actions: ['create'],
        before: null,
        after: {},
        after_unknown: { campaign_id: true },
        // a create lists every attribute of its after, set from the manifest
        attributes: [{ path: 'campaign_id', before: null, after: null, after_unknown: true, origin: 'manifest', forces_replacement: false }],
      },
      drift: false,
      reason: null,
      currency: null,
      protected: false,
      deleted_with: null,
    });
  });

  it('names the line item a child is deleted with when the plan sends no request for it', () => {
    const doc = planToDocument(
      plan([accountPlan([change('campaigns.a.line_items.b', 'delete'), change('campaigns.a.line_items.b.promoted_posts["123"]', 'delete')], { implied: [{ address: 'campaigns.a.line_items.b.promoted_posts["123"]', by: 'campaigns.a.line_items.b' }] })]),
    );
    expect(doc.resource_changes.map((c) => c.deleted_with)).toEqual([null, 'campaigns.a.line_items.b']);
  });

  it('carries per-attribute origin and forces_replacement', () => {
    const doc = planToDocument(plan([accountPlan([change('campaigns.a.line_items.b', 'replace', { changes: [attr('objective', 'A', 'B', { forces: true }), attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true })] })])]));
    expect(doc.resource_changes[0]?.change.attributes).toEqual([
      { path: 'entity_status', before: 'PAUSED', after: 'ACTIVE', origin: 'drift', forces_replacement: false },
      { path: 'objective', before: 'A', after: 'B', origin: 'manifest', forces_replacement: true },
    ]);
    expect(doc.resource_changes[0]?.drift).toBe(true);
  });

  it('sorts resources by address, parents before children, accounts in plan order', () => {
    const doc = planToDocument(
      plan([
        accountPlan([change('campaigns.b', 'create'), change('campaigns.a-b', 'create'), change('campaigns.a.line_items.x', 'create'), change('campaigns.a', 'create'), change('account', 'update'), change('funding_instruments.f', 'noop')], { account: 'z' }),
        accountPlan([change('campaigns.a', 'create')], { account: 'a' }),
      ]),
    );
    expect(doc.resource_changes.map((c) => `${c.account}:${c.address}`)).toEqual(['z:account', 'z:campaigns.a', 'z:campaigns.a.line_items.x', 'z:campaigns.a-b', 'z:campaigns.b', 'z:funding_instruments.f', 'a:campaigns.a']);
  });

  it('sums spend and requests per currency and overall, with exact decimal strings', () => {
    const doc = planToDocument(
      plan([
        accountPlan([], { account: 'one', requests: { reads: 3, writes: 4, batches: 2 }, spend: [spend('USD', 25_000_000, 500_000_000), spend('USD', 1_234_567, -1_000_000_000)] }),
        accountPlan([], { account: 'two', requests: { reads: 1, writes: 0, batches: 0 }, spend: [spend('EUR', -500_000, 0), spend('USD', 1, 0)] }),
      ]),
    );
    expect(doc.requests).toEqual({ reads: 4, writes: 4, batches: 2 });
    expect(doc.accounts[0]?.spend).toEqual([{ currency: 'USD', daily_micros: 26_234_567, total_micros: -500_000_000, daily: '26.234567', total: '-500.00' }]);
    expect(doc.spend).toEqual([
      { currency: 'EUR', daily_micros: -500_000, total_micros: 0, daily: '-0.50', total: '0.00' },
      { currency: 'USD', daily_micros: 26_234_568, total_micros: -500_000_000, daily: '26.234568', total: '-500.00' },
    ]);
  });

  it('keeps diagnostics with their ranges so the text renderer can show source lines', () => {
    const range = { file: 'a.yaml', start: { line: 1, column: 2, offset: 1 }, end: { line: 1, column: 4, offset: 3 } };
    const doc = planToDocument(plan([], { diagnostics: [{ severity: 'error', code: 'x', message: 'm', range, related: [{ message: 'first here', range }] }, { severity: 'warning', code: 'y', message: 'n' }] }));
    expect(doc.diagnostics).toEqual([
      { severity: 'error', code: 'x', message: 'm', range, related: [{ message: 'first here', range }] },
      { severity: 'warning', code: 'y', message: 'n', range: null, related: [] },
    ]);
  });

  it('gives the same bytes for the same plan whatever the order of changes, attributes and keys', () => {
    const make = (reverse: boolean) => {
      const changes = [
        change('campaigns.b', 'update', { changes: reverse ? [attr('z', 1, 2), attr('a', 1, 2)] : [attr('a', 1, 2), attr('z', 1, 2)] }, reverse ? { y: { q: 1, p: [2] }, b: 1 } : { b: 1, y: { p: [2], q: 1 } }),
        change('campaigns.a', 'create', { after: reverse ? { name: 'n', bid_amount_local_micro: 5 } : { bid_amount_local_micro: 5, name: 'n' } }),
      ];
      return plan([accountPlan(reverse ? changes.reverse() : changes)]);
    };
    for (const format of ['json', 'text', 'markdown'] as const) expect(renderPlan(make(true), format)).toBe(renderPlan(make(false), format));
    const json = renderPlan(make(false), 'json');
    expect(json.indexOf('"b": 1')).toBeLessThan(json.indexOf('"y": {'));
    expect(Object.keys(JSON.parse(json))).toEqual(['format_version', 'mode', 'accounts', 'resource_changes', 'summary', 'requests', 'spend', 'diagnostics', 'guardrails']);
  });
});
