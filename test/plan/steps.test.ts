/**
 * Batching (src/plan/schedule.ts, src/plan/steps.ts) and the deletes a plan needs no request
 * for (src/plan/build.ts): each step cut to its endpoint's limit, promoted posts grouped per line
 * item, the children of a deleted line item retired with it. Ordering is in schedule.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build.js';
import { scheduleOperations } from '../../src/plan/schedule.js';
import { requestsOf } from '../../src/plan/steps.js';
import type { Operation, Step } from '../../src/plan/types.js';
import { ACCOUNT_ID, campaignOps, change, liveAccount, op } from './builders.js';

/** A layer as text: each step's action, kind, group (promoted posts) and operation count. */
const shape = (layers: Step[][]): string[][] =>
  layers.map((layer) => layer.map((s) => `${s.action} ${s.kind}${s.type === 'grouped' ? ` of ${s.group}` : ''} x${s.operations.length}`));

/** The schedule of operations with no edges between them. */
function unordered(ops: Operation[]): Step[][] {
  const schedule = scheduleOperations(ops, ops.map((o) => ({ id: o.key, dependsOn: [] })));
  if (!schedule.ok) throw new Error('no cycle is possible without edges');
  return schedule.layers;
}

const L = 'campaigns.a.line_items.l';

describe('scheduleOperations and requestsOf: batch limits', () => {

  const many = (n: number, make: (i: number) => Operation): Operation[] => Array.from({ length: n }, (_, i) => make(i));
  const lineItems = (action: Operation['action'], n: number): Operation[] => many(n, (i) => op(action, `campaigns.a.line_items.l${i}`));
  const criteria = (action: Operation['action'], n: number): Operation[] => many(n, (i) => op(action, `${L}.targeting["BROAD_KEYWORD:k${i}"]`));
  const posts = (lineItem: string, n: number, from = 0): Operation[] => many(n, (i) => op('create', `${L}.promoted_posts["${from + i}"]`, { line_item_id: lineItem, tweet_id: String(from + i) }));

  const rows: Array<{ name: string; ops: Operation[]; steps: Array<{ operations: number; writes: number; batches: number }> }> = [
    { name: '1 campaign create: one batch', ops: campaignOps('create', 1), steps: [{ operations: 1, writes: 1, batches: 1 }] },
    { name: '40 campaign creates: one batch', ops: campaignOps('create', 40), steps: [{ operations: 40, writes: 1, batches: 1 }] },
    { name: '41 campaign creates: two batches', ops: campaignOps('create', 41), steps: [{ operations: 41, writes: 2, batches: 2 }] },
    { name: '80 campaign updates: two batches', ops: campaignOps('update', 80), steps: [{ operations: 80, writes: 2, batches: 2 }] },
    { name: '81 campaign updates: three batches', ops: campaignOps('update', 81), steps: [{ operations: 81, writes: 3, batches: 3 }] },
    { name: '41 campaign deletes: two batches', ops: campaignOps('delete', 41), steps: [{ operations: 41, writes: 2, batches: 2 }] },
    { name: '40 line item creates: one batch', ops: lineItems('create', 40), steps: [{ operations: 40, writes: 1, batches: 1 }] },
    { name: '41 line item updates: two batches', ops: lineItems('update', 41), steps: [{ operations: 41, writes: 2, batches: 2 }] },
    { name: '500 targeting criteria: one batch', ops: criteria('create', 500), steps: [{ operations: 500, writes: 1, batches: 1 }] },
    { name: '501 targeting criteria: two batches', ops: criteria('create', 501), steps: [{ operations: 501, writes: 2, batches: 2 }] },
    { name: '1001 targeting criterion deletes: three batches', ops: criteria('delete', 1001), steps: [{ operations: 1001, writes: 3, batches: 3 }] },
    { name: 'account features: one comma-list request, not a batch endpoint', ops: [op('create', 'features.A'), op('create', 'features.B')], steps: [{ operations: 2, writes: 1, batches: 0 }] },
    { name: 'promoted post deletes: one request each', ops: [op('delete', `${L}.promoted_posts["1"]`), op('delete', `${L}.promoted_posts["2"]`), op('delete', `${L}.promoted_posts["3"]`)], steps: [{ operations: 3, writes: 3, batches: 0 }] },
    { name: '50 promoted posts of one line item: one POST', ops: posts('l1', 50), steps: [{ operations: 50, writes: 1, batches: 0 }] },
    { name: '51 promoted posts of one line item: two POSTs', ops: posts('l1', 51), steps: [{ operations: 51, writes: 2, batches: 0 }] },
    {
      name: 'promoted posts of two line items: a step each, 50 a POST within each',
      ops: [...posts('l1', 30), ...posts('l2', 3, 100), ...posts('l1', 90, 200)],
      steps: [
        { operations: 120, writes: 3, batches: 0 },
        { operations: 3, writes: 1, batches: 0 },
      ],
    },
    {
      name: 'promoted posts of a line item yet to be created are grouped by its address',
      ops: [...posts('l1', 2), ...many(2, (i) => op('create', `campaigns.a.line_items.n.promoted_posts["${i}"]`, { line_item_id: { $ref: 'campaigns.a.line_items.n' }, tweet_id: String(i) }))],
      steps: [
        { operations: 2, writes: 1, batches: 0 },
        { operations: 2, writes: 1, batches: 0 },
      ],
    },
  ];
  it.each(rows)('$name', ({ ops, steps }) => {
    const layers = unordered(ops);
    expect(layers).toHaveLength(1);
    expect(layers[0]?.map((s) => ({ operations: s.operations.length, ...requestsOf(s) }))).toEqual(steps);
  });

  it('keeps every operation exactly once, in input order within a step', () => {
    const ops = campaignOps('create', 81);
    expect(unordered(ops).flat().flatMap((s) => s.operations)).toEqual(ops);
  });
});

describe('buildPlan: deletes implied by a deleted line item', () => {
  const K = 'campaigns.a.line_items.k';
  const R = 'campaigns.a.line_items.r';
  const changes = [
    change(L, 'delete'),
    change(`${L}.promoted_posts["1"]`, 'delete'),
    change(`${L}.promoted_accounts["783214"]`, 'delete'),
    change(`${L}.targeting["BROAD_KEYWORD:x"]`, 'delete'),
    change(`${K}.targeting["BROAD_KEYWORD:y"]`, 'delete'),
    change(R, 'replace', { after: { name: 'R' } }),
    change(`${R}.promoted_posts["2"]`, 'replace', { after: { line_item_id: { $ref: R }, tweet_id: '2' } }),
    change(`${R}.targeting["LOCATION:z"]`, 'delete'),
    change('campaigns.a', 'noop'),
  ];
  const plan = buildPlan('plan', [{ account: ACCOUNT_ID, accountId: ACCOUNT_ID, endpoint: 'local', desired: undefined, changes, live: liveAccount(), lookups: undefined, reads: 3, stateSerial: 1 }]);
  const account = plan.accounts[0];

  it('lists the children of deleted and replaced line items as deleted with them, with no operation of their own', () => {
    expect(account?.implied).toEqual([
      { address: `${L}.promoted_posts["1"]`, by: L },
      { address: `${L}.promoted_accounts["783214"]`, by: L },
      { address: `${L}.targeting["BROAD_KEYWORD:x"]`, by: L },
      { address: `${R}.targeting["LOCATION:z"]`, by: R },
    ]);
  });

  it('sends the deletes of other line items children, the line items, and only the creates of replaced children', () => {
    expect(shape(account?.layers ?? [])).toEqual([['delete line_item x2', 'delete targeting_criterion x1'], ['create line_item x1'], [`create promoted_post of ${R} x1`]]);
    expect(account?.layers.flat().flatMap((s) => s.operations.map((o) => `${o.action} ${o.address}`))).toEqual([
      `delete ${L}`,
      `delete ${R}`,
      `delete ${K}.targeting["BROAD_KEYWORD:y"]`,
      `create ${R}`,
      `create ${R}.promoted_posts["2"]`,
    ]);
  });

  it('counts the requests of the steps that remain', () => {
    expect(account?.requests).toEqual({ reads: 3, writes: 4, batches: 3 });
  });
});
