/**
 * Write order from the dependency graph of operations (src/plan/order.ts, schedule.ts): parents
 * and references before what uses them, `depends_on` honoured, children deleted before their
 * parents, pauses before activations at an account limit, batches as full as their endpoints
 * take, and a cycle reported with the addresses in it.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { KindDescriptor } from '../../src/kinds/descriptor.js';
import { KINDS, type KindLookup } from '../../src/kinds/registry.js';
import { createOne, deleteOne, updateOne } from '../../src/kinds/standard.js';
import type { DesiredAccount, DesiredResource, ResourceKind } from '../../src/manifest/types.js';
import { buildPlan } from '../../src/plan/build.js';
import { operationsOf } from '../../src/plan/operations.js';
import { orderOperations } from '../../src/plan/order.js';
import { scheduleOperations } from '../../src/plan/schedule.js';
import { requestsOf } from '../../src/plan/steps.js';
import type { Step } from '../../src/plan/types.js';
import { ACCOUNT_ID, addr, change, liveAccount } from './builders.js';

/** Each layer as `action kind: addresses`, steps in order. */
const shape = (layers: Step[][]): string[][] => layers.map((layer) => layer.map((s) => `${s.action} ${s.kind}: ${s.operations.map((o) => o.address).join(' ')}`));

/** A desired account whose resources say only what `depends_on` holds. */
function desiredWith(dependsOn: Record<string, string[]>): DesiredAccount {
  const resources = Object.entries(dependsOn).map(
    ([text, targets]): DesiredResource => ({
      address: addr(text),
      kind: addr(text).kind,
      attributes: {},
      references: {},
      dependsOn: targets.map(addr),
      lifecycle: { preventDestroy: false, ignoreChanges: [] },
      source: { file: 'account.yaml', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } },
      attributeSources: {},
    }),
  );
  return { file: 'account.yaml', key: ACCOUNT_ID, resources };
}

interface Row {
  name: string;
  changes: ResourceChange[];
  desired?: DesiredAccount;
  live?: ReturnType<typeof liveAccount>;
  layers: string[][];
}

const active = (n: number): Array<['campaign', Record<string, unknown>]> => Array.from({ length: n }, (_, i) => ['campaign', { id: `live${i}`, entity_status: 'ACTIVE' }]);

const plan = (row: Pick<Row, 'changes' | 'desired' | 'live'>) =>
  buildPlan('plan', [{ account: ACCOUNT_ID, accountId: ACCOUNT_ID, endpoint: 'local', desired: row.desired, changes: row.changes, live: row.live ?? liveAccount(), lookups: undefined, reads: 0, stateSerial: 0 }]);

describe('the schedule follows the edges of the operations', () => {
  const rows: Row[] = [
    {
      name: 'a funding instrument before the campaign that draws on it, the campaign before its line item',
      changes: [
        change('campaigns.a.line_items.l', 'create', { after: { campaign_id: { $ref: 'campaigns.a' } } }),
        change('campaigns.a', 'create', { after: { funding_instrument_id: { $ref: 'funding_instruments.fi' } } }),
        change('funding_instruments.fi', 'create', { after: { type: 'CREDIT_CARD' } }),
      ],
      layers: [['create funding_instrument: funding_instruments.fi'], ['create campaign: campaigns.a'], ['create line_item: campaigns.a.line_items.l']],
    },
    {
      name: 'depends_on across campaigns: the dependent goes in a later request',
      changes: [change('campaigns.a', 'create'), change('campaigns.b', 'create'), change('campaigns.c', 'create')],
      desired: desiredWith({ 'campaigns.b': ['campaigns.a'] }),
      layers: [['create campaign: campaigns.a campaigns.c'], ['create campaign: campaigns.b']],
    },
    {
      name: 'depends_on between deletes: the dependent is deleted first',
      changes: [change('campaigns.a', 'delete'), change('campaigns.b', 'delete')],
      desired: desiredWith({ 'campaigns.b': ['campaigns.a'] }),
      layers: [['delete campaign: campaigns.b'], ['delete campaign: campaigns.a']],
    },
    {
      name: 'children are deleted before their parents',
      changes: [
        change('campaigns.a', 'delete'),
        change('campaigns.a.line_items.l', 'delete', { before: { campaign_id: 'id:campaigns.a' } }),
        change('campaigns.a.line_items.m', 'delete', { before: { campaign_id: 'id:campaigns.a' } }),
      ],
      layers: [['delete line_item: campaigns.a.line_items.l campaigns.a.line_items.m'], ['delete campaign: campaigns.a']],
    },
    {
      name: 'a funding instrument is deleted after the campaigns that drew on it',
      changes: [change('funding_instruments.fi', 'delete'), change('campaigns.a', 'delete', { before: { funding_instrument_id: 'id:funding_instruments.fi' } })],
      layers: [['delete campaign: campaigns.a'], ['delete funding_instrument: funding_instruments.fi']],
    },
    {
      name: 'a replacement deletes the old object before it creates the new one',
      changes: [change('campaigns.a', 'replace', { after: { name: 'A' } })],
      layers: [['delete campaign: campaigns.a'], ['create campaign: campaigns.a']],
    },
    {
      name: 'at the limit of 200 active campaigns, the pause goes before the creation of an active one',
      changes: [change('campaigns.new', 'create', { after: { entity_status: 'ACTIVE' } }), change('campaigns.old', 'update', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'PAUSED' } })],
      live: liveAccount(active(200)),
      layers: [['update campaign: campaigns.old'], ['create campaign: campaigns.new']],
    },
    {
      name: 'below the limit, the pause and the creation go together',
      changes: [change('campaigns.new', 'create', { after: { entity_status: 'ACTIVE' } }), change('campaigns.old', 'update', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'PAUSED' } })],
      live: liveAccount(active(10)),
      layers: [['create campaign: campaigns.new', 'update campaign: campaigns.old']],
    },
    {
      name: 'line items of a new and of an existing campaign share one batch',
      changes: [
        change('campaigns.a', 'create'),
        change('campaigns.a.line_items.l', 'create', { after: { campaign_id: { $ref: 'campaigns.a' } } }),
        change('campaigns.b.line_items.m', 'create', { after: { campaign_id: 'c-b' } }),
      ],
      layers: [['create campaign: campaigns.a'], ['create line_item: campaigns.a.line_items.l campaigns.b.line_items.m']],
    },
  ];
  it.each(rows)('$name', (row) => {
    const result = plan(row);
    // the rows leave out the fields a create needs, which do not matter to the order
    expect(result.diagnostics.filter((d) => d.code !== 'missing-required')).toEqual([]);
    expect(shape(result.accounts[0]?.layers ?? [])).toEqual(row.layers);
  });

  it('records on each operation what it waits for, so apply skips it when that fails', () => {
    const layers = plan({ changes: [change('campaigns.a', 'create'), change('campaigns.a.line_items.l', 'create', { after: { campaign_id: { $ref: 'campaigns.a' } } })] }).accounts[0]?.layers ?? [];
    expect(layers.flat().flatMap((s) => s.operations.map((o) => [o.key, o.after]))).toEqual([
      ['create campaigns.a', []],
      ['create campaigns.a.line_items.l', ['create campaigns.a']],
    ]);
  });

  it('keeps 81 campaigns in 3 batch requests', () => {
    const changes = Array.from({ length: 81 }, (_, i) => change(`campaigns.c${String(i).padStart(3, '0')}`, 'create'));
    const account = plan({ changes }).accounts[0];
    expect(account?.layers.flat().map(requestsOf)).toEqual([{ writes: 3, batches: 3 }]);
    expect(account?.requests).toEqual({ reads: 0, writes: 3, batches: 3 });
  });

  it('reports a cycle with the addresses in it', () => {
    const result = plan({ changes: [change('campaigns.a', 'create'), change('campaigns.b', 'create')], desired: desiredWith({ 'campaigns.a': ['campaigns.b'], 'campaigns.b': ['campaigns.a'] }) });
    expect(result.diagnostics.filter((d) => d.code !== 'missing-required').map((d) => [d.code, d.message])).toEqual([
      ['dependency-cycle', `the writes of account ${ACCOUNT_ID} depend on each other in a cycle: create campaigns.a → create campaigns.b → create campaigns.a`],
    ]);
    expect(result.accounts[0]?.layers).toEqual([]);
  });
});

describe('references inside values (kinds given to the scheduler)', () => {
  // a card and a draft post that uses it by URI, described as their kinds will be
  const card: KindDescriptor = { ...KINDS.campaign, kind: 'card' as ResourceKind, noun: 'card', parent: 'account', limits: [], write: { create: createOne('campaign'), update: updateOne('campaign'), delete: deleteOne('campaign') } };
  const draft: KindDescriptor = { ...card, kind: 'draft_post' as ResourceKind, noun: 'draft post' };
  const kinds: KindLookup = (kind) => (kind === card.kind ? card : kind === draft.kind ? draft : KINDS[kind]);
  const at = (kind: KindDescriptor, key: string) => ({ kind: kind.kind, steps: [{ collection: `${kind.kind}s`, key }] });

  it('creates a card before the draft post whose card URI names it', () => {
    const changes: ResourceChange[] = [
      { ...change('campaigns.x', 'create', { after: { card_uri: { $ref: 'cards.promo', prefix: 'card://' }, text: 'Hi' } }), address: at(draft, 'launch'), kind: draft.kind },
      { ...change('campaigns.y', 'create', { after: { name: 'Promo' } }), address: at(card, 'promo'), kind: card.kind },
    ];
    const operations = changes.flatMap(operationsOf);
    const byAddress = new Map(changes.map((c, i) => [operations[i]!.address, c]));
    const schedule = scheduleOperations(operations, orderOperations({ operations, changes: byAddress, desired: undefined, live: liveAccount(), kinds }), kinds);
    expect(schedule.ok && shape(schedule.layers)).toEqual([['create card: cards.promo'], ['create draft_post: draft_posts.launch']]);
  });
});
