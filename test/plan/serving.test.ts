/**
 * Serving safety in the plan (src/plan/serving.ts): which operations a serving campaign or line
 * item gets and in which order they run — created paused and activated after everything under
 * it, kept paused until then, targeting of a serving line item in one all-or-nothing request (or
 * paused for a change too large for one), writes under a paused object after its pause, a
 * criterion of an audience after the audience's members, and a serving line item's creatives
 * removed before new ones are added.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { buildPlan } from '../../src/plan/build.js';
import { packGroups, requestsOf } from '../../src/plan/steps.js';
import type { AccountPlan, Step } from '../../src/plan/types.js';
import { ACCOUNT_ID, change, liveAccount } from './builders.js';

const LI = 'campaigns.c.line_items.l';
const crit = (key: string): string => `${LI}.targeting["${key}"]`;
const NEW_LINE_ITEM = { campaign_id: 'id:c', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['ALL_ON_SERVICE'], start_time: '2027-01-01T00:00:00Z' };

/** Each layer as `action kind: keys`, steps in order; a step of mixed actions as `together`. */
const shape = (layers: Step[][]): string[][] =>
  layers.map((layer) => layer.map((s) => `${s.type === 'atomic' ? 'together' : s.action} ${s.kind}: ${s.operations.map((o) => (o.key.startsWith('activate') || o.key.startsWith('pause') ? o.key : o.address)).join(' ')}`));

function planOf(changes: ResourceChange[]): AccountPlan {
  const plan = buildPlan('plan', [{ account: ACCOUNT_ID, accountId: ACCOUNT_ID, endpoint: 'local', desired: undefined, changes, live: liveAccount(), lookups: undefined, reads: 0, stateSerial: 0 }]);
  expect(plan.diagnostics).toEqual([]);
  return plan.accounts[0]!;
}

const criterionCreate = (key: string, value: string): ResourceChange =>
  change(crit(key), 'create', { after: { line_item_id: 'id:li', targeting_type: key.split(':')[0], targeting_value: value } });

interface Row {
  name: string;
  changes: ResourceChange[];
  layers: string[][];
  notes: AccountPlan['serving'];
  /** The entity_status a create of the line item sends. */
  sent?: unknown;
}

const rows: Row[] = [
  {
    name: 'a new ACTIVE line item is created PAUSED and activated after its targeting and promotions',
    changes: [
      change(LI, 'create', { after: { ...NEW_LINE_ITEM, entity_status: 'ACTIVE' } }),
      change(`${LI}.targeting["LOCATION:us"]`, 'create', { after: { line_item_id: { $ref: LI }, targeting_type: 'LOCATION', targeting_value: 'us' } }),
      change(`${LI}.promoted_posts["1"]`, 'create', { after: { line_item_id: { $ref: LI }, tweet_id: '1' } }),
    ],
    layers: [[`create line_item: ${LI}`], [`create promoted_post: ${LI}.promoted_posts["1"]`, `create targeting_criterion: ${LI}.targeting["LOCATION:us"]`], [`update line_item: activate ${LI}`]],
    notes: [{ address: LI, how: 'created-paused', kinds: ['promoted_post', 'targeting_criterion'] }],
    sent: 'PAUSED',
  },
  {
    name: 'a new line item with nothing under it is created as the manifest says',
    changes: [change(LI, 'create', { after: { ...NEW_LINE_ITEM, entity_status: 'ACTIVE' } })],
    layers: [[`create line_item: ${LI}`]],
    notes: [],
    sent: 'ACTIVE',
  },
  {
    name: 'a new line item under a campaign that stays PAUSED needs no holding: nothing under it serves',
    changes: [
      change('campaigns.c', 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }),
      change(LI, 'create', { after: { ...NEW_LINE_ITEM, entity_status: 'ACTIVE' } }),
      change(`${LI}.targeting["LOCATION:us"]`, 'create', { after: { line_item_id: { $ref: LI }, targeting_type: 'LOCATION', targeting_value: 'us' } }),
    ],
    layers: [[`create line_item: ${LI}`], [`create targeting_criterion: ${LI}.targeting["LOCATION:us"]`]],
    notes: [],
    sent: 'ACTIVE',
  },
  {
    name: 'a PAUSED line item switched to ACTIVE is activated after its new targeting',
    changes: [
      { ...change(LI, 'update', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'ACTIVE' } }), changes: [{ path: 'entity_status', before: 'PAUSED', after: 'ACTIVE', origin: 'manifest', forcesReplacement: false }] },
      criterionCreate('LOCATION:us', 'us'),
    ],
    layers: [[`create targeting_criterion: ${crit('LOCATION:us')}`], [`update line_item: ${LI}`]],
    notes: [{ address: LI, how: 'kept-paused', kinds: ['targeting_criterion'] }],
  },
  {
    name: 'a serving line item changes its targeting in one request: the delete and the create together',
    changes: [
      change(LI, 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
      change(crit('LOCATION:us'), 'delete', { before: { line_item_id: 'id:li', targeting_type: 'LOCATION', targeting_value: 'us' } }),
      criterionCreate('LOCATION:gb', 'gb'),
    ],
    layers: [[`together targeting_criterion: ${crit('LOCATION:gb')} ${crit('LOCATION:us')}`]],
    notes: [{ address: LI, how: 'atomic', kinds: ['targeting_criterion'] }],
  },
  {
    name: 'a serving line item stops carrying a promoted post before it starts carrying the new one',
    changes: [
      change(LI, 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
      change(`${LI}.promoted_posts["1"]`, 'delete', { before: { line_item_id: 'id:li', tweet_id: '1' } }),
      change(`${LI}.promoted_posts["2"]`, 'create', { after: { line_item_id: 'id:li', tweet_id: '2' } }),
    ],
    layers: [[`delete promoted_post: ${LI}.promoted_posts["1"]`], [`create promoted_post: ${LI}.promoted_posts["2"]`]],
    notes: [],
  },
  {
    name: 'a paused line item swaps its promoted posts at once',
    changes: [
      change(LI, 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }),
      change(`${LI}.promoted_posts["1"]`, 'delete', { before: { line_item_id: 'id:li', tweet_id: '1' } }),
      change(`${LI}.promoted_posts["2"]`, 'create', { after: { line_item_id: 'id:li', tweet_id: '2' } }),
    ],
    layers: [[`create promoted_post: ${LI}.promoted_posts["2"]`, `delete promoted_post: ${LI}.promoted_posts["1"]`]],
    notes: [],
  },
  {
    name: 'a serving line item that the manifest pauses is paused before its targeting changes',
    changes: [
      { ...change(LI, 'update', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'PAUSED' } }), changes: [{ path: 'entity_status', before: 'ACTIVE', after: 'PAUSED', origin: 'manifest', forcesReplacement: false }] },
      change(crit('LOCATION:us'), 'delete', { before: { line_item_id: 'id:li', targeting_type: 'LOCATION', targeting_value: 'us' } }),
      criterionCreate('LOCATION:gb', 'gb'),
    ],
    layers: [[`update line_item: ${LI}`], [`together targeting_criterion: ${crit('LOCATION:gb')} ${crit('LOCATION:us')}`]],
    notes: [],
  },
  {
    name: 'a line item under a PAUSED campaign changes its targeting in one request: nothing serves',
    changes: [
      change('campaigns.c', 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }),
      change(LI, 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
      change(crit('LOCATION:us'), 'delete', { before: { line_item_id: 'id:li', targeting_type: 'LOCATION', targeting_value: 'us' } }),
      criterionCreate('LOCATION:gb', 'gb'),
    ],
    layers: [[`together targeting_criterion: ${crit('LOCATION:gb')} ${crit('LOCATION:us')}`]],
    notes: [],
  },
  {
    name: 'a PAUSED line item that only gains targeting creates it as before',
    changes: [change(LI, 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }), criterionCreate('LOCATION:gb', 'gb'), criterionCreate('LOCATION:us', 'us')],
    layers: [[`create targeting_criterion: ${crit('LOCATION:gb')} ${crit('LOCATION:us')}`]],
    notes: [],
  },
  {
    name: 'a criterion of an audience waits for the audience members',
    changes: [
      change('custom_audiences.a', 'create', { after: { name: 'A' } }),
      change('custom_audiences.a.users', 'create', { after: { custom_audience_id: { $ref: 'custom_audiences.a' }, members: { count: 200 } } }),
      change(LI, 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }),
      change(crit('CUSTOM_AUDIENCE:custom_audiences.a'), 'create', { after: { line_item_id: 'id:li', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: { $ref: 'custom_audiences.a' } } }),
    ],
    layers: [['create custom_audience: custom_audiences.a'], ['create audience_members: custom_audiences.a.users'], [`create targeting_criterion: ${crit('CUSTOM_AUDIENCE:custom_audiences.a')}`]],
    notes: [],
  },
  {
    name: 'a criterion of a live audience waits for the members uploaded to it, named by its id',
    changes: [
      change('custom_audiences.a', 'noop', { id: 'aud1', before: { name: 'A' }, after: { name: 'A' } }),
      change('custom_audiences.a.users', 'update', { id: 'aud1', before: {}, after: { custom_audience_id: 'aud1', members: { count: 300 } } }),
      change(LI, 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } }),
      change(crit('CUSTOM_AUDIENCE:aud1'), 'create', { after: { line_item_id: 'id:li', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: 'aud1' } }),
    ],
    layers: [['update audience_members: custom_audiences.a.users'], [`create targeting_criterion: ${crit('CUSTOM_AUDIENCE:aud1')}`]],
    notes: [],
  },
  {
    name: 'a PAUSED line item switched to ACTIVE waits for the members of an audience it already targets',
    changes: [
      change('custom_audiences.a', 'noop', { id: 'aud1', before: { name: 'A' }, after: { name: 'A' } }),
      change('custom_audiences.a.users', 'update', { id: 'aud1', before: {}, after: { custom_audience_id: 'aud1', members: { count: 300 } } }),
      { ...change(LI, 'update', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'ACTIVE' } }), changes: [{ path: 'entity_status', before: 'PAUSED', after: 'ACTIVE', origin: 'manifest', forcesReplacement: false }] },
      change(crit('CUSTOM_AUDIENCE:aud1'), 'noop', { after: { line_item_id: 'id:li', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: 'aud1' } }),
    ],
    layers: [['update audience_members: custom_audiences.a.users'], [`update line_item: ${LI}`]],
    notes: [],
  },
];

describe('serving objects are held, paused and changed atomically', () => {
  it.each(rows)('$name', (row) => {
    const plan = planOf(row.changes);
    expect(shape(plan.layers)).toEqual(row.layers);
    expect(plan.serving).toEqual(row.notes);
    if (row.sent !== undefined) {
      const create = plan.layers.flat().flatMap((s) => s.operations).find((o) => o.key === `create ${LI}`);
      expect(create?.params['entity_status']).toBe(row.sent);
    }
  });
});

const keywordDelete = (li: string, word: string): ResourceChange =>
  change(`${li}.targeting["BROAD_KEYWORD:${word}"]`, 'delete', { before: { line_item_id: `id:${li}`, targeting_type: 'BROAD_KEYWORD', targeting_value: word } });
const keywordCreate = (li: string, word: string): ResourceChange =>
  change(`${li}.targeting["BROAD_KEYWORD:${word}"]`, 'create', { after: { line_item_id: `id:${li}`, targeting_type: 'BROAD_KEYWORD', targeting_value: word } });
const lineItemAt = (li: string, status: 'ACTIVE' | 'PAUSED'): ResourceChange => change(li, 'noop', { before: { entity_status: status }, after: { entity_status: status } });

describe('the targeting of a line item that does not serve', () => {
  it('a PAUSED line item: 3 deletes and 3 creates go in 1 write request, not 2', () => {
    const plan = planOf([lineItemAt(LI, 'PAUSED'), ...['a', 'b', 'c'].map((w) => keywordDelete(LI, w)), ...['x', 'y', 'z'].map((w) => keywordCreate(LI, w))]);
    expect(plan.requests.writes).toBe(1);
    expect(plan.requests.batches).toBe(1);
    const steps = plan.layers.flat();
    expect(steps).toHaveLength(1);
    expect(steps[0]!.type).toBe('atomic');
    expect(steps.flatMap((s) => s.operations).every((op) => op.mixable === true && op.together === undefined)).toBe(true);
    expect(plan.serving).toEqual([]);
  });

  it('shares requests at the endpoint maximum: 501 deletes and 499 creates in 2 requests, not 3', () => {
    const words = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const plan = planOf([lineItemAt(LI, 'PAUSED'), ...words('old', 501).map((w) => keywordDelete(LI, w)), ...words('new', 499).map((w) => keywordCreate(LI, w))]);
    expect(plan.requests.writes).toBe(2);
    expect(plan.layers.flat().map((s) => requestsOf(s))).toEqual([{ writes: 2, batches: 2 }]);
  });

  it('beside a serving line item: its change stays one whole all-or-nothing group, deletes first, and the paused one fills the room', () => {
    const serving = 'campaigns.c.line_items.serving';
    const paused = 'campaigns.c.line_items.paused';
    const plan = planOf([
      lineItemAt(serving, 'ACTIVE'),
      keywordDelete(serving, 'old'),
      keywordCreate(serving, 'new'),
      lineItemAt(paused, 'PAUSED'),
      ...['a', 'b'].map((w) => keywordDelete(paused, w)),
      ...['x', 'y'].map((w) => keywordCreate(paused, w)),
    ]);
    expect(plan.serving).toEqual([{ address: serving, how: 'atomic', kinds: ['targeting_criterion'] }]);
    expect(plan.requests.writes).toBe(1);
    const ops = plan.layers.flat().flatMap((s) => s.operations);
    expect(ops.filter((op) => op.address.startsWith(serving)).map((op) => [op.together, op.mixable])).toEqual([
      [serving, undefined],
      [serving, undefined],
    ]);
    const step = plan.layers.flat().find((s) => s.type === 'atomic')!;
    const [request] = packGroups(step.operations, step.limit);
    const actions = request!.map((op) => op.action);
    expect(actions).toEqual(['delete', 'delete', 'delete', 'create', 'create', 'create']);
  });

  it('a serving line item past the maximum keeps its pause, separate batches of each action, and its resume', () => {
    const words = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const plan = planOf([lineItemAt(LI, 'ACTIVE'), ...words('old', 501).map((w) => keywordDelete(LI, w)), ...words('new', 499).map((w) => keywordCreate(LI, w))]);
    const layers = plan.layers.map((layer) => layer.map((s) => `${s.type} ${s.action} ${s.operations.length}`));
    expect(layers).toEqual([['batch update 1'], ['batch create 499', 'batch delete 501'], ['batch update 1']]);
    expect(plan.layers.flat().flatMap((s) => s.operations).some((op) => op.mixable === true)).toBe(false);
    expect(plan.requests.writes).toBe(5);
  });
});

describe('more targeting changes of a serving line item than one request holds', () => {
  it('pause it first and resume it after them; the pause frees and the resume needs room', () => {
    const changes = [
      change(LI, 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
      ...Array.from({ length: 300 }, (_, i) => change(crit(`BROAD_KEYWORD:old ${i}`), 'delete', { before: { line_item_id: 'id:li', targeting_type: 'BROAD_KEYWORD', targeting_value: `old ${i}` } })),
      ...Array.from({ length: 300 }, (_, i) => criterionCreate(`BROAD_KEYWORD:new ${i}`, `new ${i}`)),
    ];
    const plan = planOf(changes);
    const layers = plan.layers.map((layer) => layer.map((s) => `${s.action} ${s.kind} ${s.operations.length}${s.operations[0]!.key.startsWith('pause') ? ' pause' : s.operations[0]!.key.startsWith('activate') ? ' activate' : ''}`));
    expect(layers).toEqual([['update line_item 1 pause'], ['create targeting_criterion 300', 'delete targeting_criterion 300'], ['update line_item 1 activate']]);
    expect(plan.serving).toEqual([{ address: LI, how: 'paused-for-change', kinds: ['targeting_criterion'] }]);
  });
});

describe('the requests of atomic steps', () => {
  it('pack whole groups, never splitting one, deletes first in each request', () => {
    const changes: ResourceChange[] = [];
    for (const li of ['a', 'b', 'c']) {
      const parent = `campaigns.c.line_items.${li}`;
      changes.push(change(parent, 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }));
      for (let i = 0; i < 200; i++) changes.push(change(`${parent}.targeting["BROAD_KEYWORD:k${i}"]`, i % 2 === 0 ? 'create' : 'delete', { after: i % 2 === 0 ? { line_item_id: `id:${li}`, targeting_type: 'BROAD_KEYWORD', targeting_value: `k${i}` } : null, before: i % 2 === 0 ? null : { line_item_id: `id:${li}` } }));
    }
    const plan = planOf(changes);
    const step = plan.layers.flat().find((s) => s.type === 'atomic')!;
    // 600 operations in groups of 200: two requests of 500 could hold them, but no group is split
    expect(requestsOf(step)).toEqual({ writes: 2, batches: 2 });
  });
});
