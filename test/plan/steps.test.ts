/**
 * The ordering and batching of writes (src/plan/steps.ts) and the deletes a plan needs no request
 * for (src/plan/build.ts): layers with deletes children-first before creates and updates
 * parents-first, each step cut to its endpoint's limit, promoted posts grouped per line item.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build.js';
import { BATCH_LIMITS, layerSteps, PROMOTE_LIMIT, requestsOf } from '../../src/plan/steps.js';
import type { Operation, Step } from '../../src/plan/types.js';
import { ACCOUNT_ID, campaignOps, change, liveAccount, op } from './builders.js';

/** A layer as text: each step's action, kind, line item (promoted posts) and operation count. */
const shape = (layers: Step[][]): string[][] =>
  layers.map((layer) => layer.map((s) => `${s.action} ${s.kind}${s.type === 'promote' ? ` of ${s.lineItem}` : ''} x${s.operations.length}`));

const L = 'campaigns.a.line_items.l';

describe('layerSteps: order', () => {
  const rows: Array<{ name: string; ops: Operation[]; layers: string[][] }> = [
    { name: 'no operations', ops: [], layers: [] },
    {
      name: 'deletes children-first, then creates and updates parents-first, whatever the input order',
      ops: [
        op('create', `${L}.targeting["BROAD_KEYWORD:x"]`),
        op('delete', 'campaigns.old'),
        op('update', 'campaigns.a'),
        op('delete', 'campaigns.old.line_items.m.promoted_posts["1"]'),
        op('create', L),
        op('delete', 'campaigns.old.line_items.m'),
        op('create', 'campaigns.b'),
        op('create', 'funding_instruments.card'),
        op('delete', 'campaigns.a.line_items.k.targeting["LOCATION:y"]'),
      ],
      layers: [
        ['delete promoted_post x1', 'delete targeting_criterion x1'],
        ['delete line_item x1'],
        ['delete campaign x1'],
        ['create funding_instrument x1'],
        ['create campaign x1', 'update campaign x1'],
        ['create line_item x1'],
        ['create targeting_criterion x1'],
      ],
    },
    {
      name: 'a replacement deletes in the delete layers and creates in the write layers',
      ops: [op('delete', L), op('create', L), op('delete', `${L}.promoted_posts["1"]`), op('create', `${L}.promoted_posts["1"]`, { line_item_id: { $ref: L }, tweet_id: '1' })],
      layers: [['delete promoted_post x1'], ['delete line_item x1'], ['create line_item x1'], [`create promoted_post of ${L} x1`]],
    },
    {
      name: 'kinds of one depth share a layer, sorted by kind, creates before updates',
      ops: [
        op('update', 'campaigns.a.line_items.l.targeting["LOCATION:z"]'),
        op('create', `${L}.promoted_accounts["783214"]`, { line_item_id: 'l1' }),
        op('create', `${L}.targeting["LOCATION:z"]`),
        op('create', `${L}.promoted_posts["7"]`, { line_item_id: 'l1', tweet_id: '7' }),
      ],
      layers: [['create promoted_account x1', 'create promoted_post of l1 x1', 'create targeting_criterion x1', 'update targeting_criterion x1']],
    },
  ];
  it.each(rows)('$name', ({ ops, layers }) => {
    expect(shape(layerSteps(ops))).toEqual(layers);
  });
});

describe('layerSteps and requestsOf: batch limits', () => {
  it('uses the endpoint limits of DESIGN §2: 40 campaigns, 40 line items, 500 targeting criteria, 50 post ids a POST', () => {
    expect({ campaign: BATCH_LIMITS.campaign, line_item: BATCH_LIMITS.line_item, targeting_criterion: BATCH_LIMITS.targeting_criterion, promote: PROMOTE_LIMIT }).toEqual({
      campaign: 40,
      line_item: 40,
      targeting_criterion: 500,
      promote: 50,
    });
  });

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
    const layers = layerSteps(ops);
    expect(layers).toHaveLength(1);
    expect(layers[0]?.map((s) => ({ operations: s.operations.length, ...requestsOf(s) }))).toEqual(steps);
  });

  it('keeps every operation exactly once, in input order within a step', () => {
    const ops = campaignOps('create', 81);
    expect(layerSteps(ops).flat().flatMap((s) => s.operations)).toEqual(ops);
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
    expect(shape(account?.layers ?? [])).toEqual([['delete targeting_criterion x1'], ['delete line_item x2'], ['create line_item x1'], [`create promoted_post of ${R} x1`]]);
    expect(account?.layers.flat().flatMap((s) => s.operations.map((o) => `${o.action} ${o.address}`))).toEqual([
      `delete ${K}.targeting["BROAD_KEYWORD:y"]`,
      `delete ${L}`,
      `delete ${R}`,
      `create ${R}`,
      `create ${R}.promoted_posts["2"]`,
    ]);
  });

  it('counts the requests of the steps that remain', () => {
    expect(account?.requests).toEqual({ reads: 3, writes: 4, batches: 3 });
  });
});
