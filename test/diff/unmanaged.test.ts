/**
 * What a plan lists as not managed by adsctl (src/diff/unmanaged.ts): campaigns no state, import
 * or change binds, line items of managed campaigns only, new unless the state recorded them at
 * the last apply; and what an apply records.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { findUnmanaged, seenRecord, type UnmanagedObject } from '../../src/diff/unmanaged.js';
import { liveServes } from '../../src/plan/serving-spend.js';
import type { AccountState } from '../../src/state/state-file.js';
import { testClock } from '../support/test-clock.js';
import { accountState, addr, desired, desiredAccount, liveAccount, liveCampaign, liveLineItem, type LiveRecord } from './builders.js';

const managed = accountState({ 'campaigns.a': { id: 'c1' }, 'campaigns.a.line_items.x': { id: 'l1' } });
const seen = (record: Record<string, string[]>): AccountState => ({ ...managed, unmanaged_seen: record });

interface Case {
  name: string;
  live: LiveRecord[];
  state?: AccountState;
  imports?: Array<[address: string, id: string]>;
  changes?: Array<Pick<ResourceChange, 'kind' | 'id'> & { address: string }>;
  /** Expected: id, parent address and whether new, in order. */
  want: Array<[id: string, parent: string | null, isNew: boolean]>;
}

const cases: Case[] = [
  { name: 'nothing but managed objects', live: [liveCampaign('c1'), liveLineItem('l1', 'c1')], want: [] },
  { name: 'a campaign nobody binds', live: [liveCampaign('c1'), liveCampaign('c9', { name: 'Hand' })], want: [['c9', null, true]] },
  { name: 'a line item added to a managed campaign', live: [liveCampaign('c1'), liveLineItem('l1', 'c1'), liveLineItem('l9', 'c1')], want: [['l9', 'campaigns.a', true]] },
  {
    name: 'the line items of an unmanaged campaign come with it, not on their own',
    live: [liveCampaign('c1'), liveCampaign('c9'), liveLineItem('l8', 'c9')],
    want: [['c9', null, true]],
  },
  { name: 'a campaign an import binds', live: [liveCampaign('c1'), liveCampaign('c7')], imports: [['campaigns.b', 'c7']], want: [] },
  {
    name: 'a line item a change binds (adopted under an import)',
    live: [liveCampaign('c1'), liveLineItem('l7', 'c1')],
    changes: [{ address: 'campaigns.a.line_items.y', kind: 'line_item', id: 'l7' }],
    want: [],
  },
  {
    name: 'objects recorded at the last apply are listed but not new',
    live: [liveCampaign('c1'), liveCampaign('c8'), liveCampaign('c9'), liveLineItem('l9', 'c1')],
    state: seen({ campaign: ['c8'], line_item: ['l9'] }),
    want: [
      ['c8', null, false],
      ['c9', null, true],
      ['l9', 'campaigns.a', false],
    ],
  },
  { name: 'an id recorded under another kind does not count', live: [liveCampaign('c1'), liveCampaign('c9')], state: seen({ line_item: ['c9'] }), want: [['c9', null, true]] },
];

describe('findUnmanaged', () => {
  it.each(cases)('$name', (c) => {
    const resources = (c.imports ?? []).map(([address, id]) => ({ ...desired(address, { name: 'B' }), importId: id }));
    const changes = (c.changes ?? []).map((ch) => ({ account: '18ce54d4x5t', address: addr(ch.address), kind: ch.kind, action: 'noop', id: ch.id, before: null, after: null, changes: [], drift: false, protected: false }) as unknown as ResourceChange);
    const live = liveAccount(c.live);
    const found = findUnmanaged({ desired: desiredAccount(resources), live, state: c.state ?? managed, changes, serves: liveServes(live, testClock.now()) });
    expect(found.map((u) => [u.id, u.parentAddress, u.new])).toEqual(c.want);
  });

  it('carries name, status, daily budget and currency as the service has them, and whether the judge says it serves', () => {
    const asked: string[] = [];
    const [campaign] = findUnmanaged({
      desired: desiredAccount([]),
      live: liveAccount([liveCampaign('c1'), liveCampaign('c9', { name: 'Black Friday', entity_status: 'ACTIVE', daily_budget_amount_local_micro: 500_123_400, funding_instrument_id: 'fi2' })], { currencies: { fi2: 'EUR' } }),
      state: managed,
      changes: [],
      serves: (kind, id) => (asked.push(`${kind} ${id}`), true),
    });
    expect(campaign).toEqual({ kind: 'campaign', id: 'c9', name: 'Black Friday', status: 'ACTIVE', parentId: null, parentAddress: null, dailyBudgetMicros: 500_123_400, serves: true, currency: 'EUR', new: true });
    expect(asked).toEqual(['campaign c9']);
  });
});

describe('seenRecord', () => {
  const object = (kind: UnmanagedObject['kind'], id: string): UnmanagedObject => ({ kind, id, name: null, status: null, parentId: null, parentAddress: null, dailyBudgetMicros: null, serves: false, currency: 'USD', new: true });
  it.each([
    { name: 'none', unmanaged: [], released: [], want: undefined },
    { name: 'ids by kind, sorted', unmanaged: [object('line_item', 'l2'), object('campaign', 'c9'), object('campaign', 'c1')], released: [], want: { campaign: ['c1', 'c9'], line_item: ['l2'] } },
    { name: 'with a campaign no longer managed, once', unmanaged: [object('campaign', 'c5')], released: [{ kind: 'campaign', id: 'c5' }], want: { campaign: ['c5'] } },
    { name: 'kinds that do not serve are not recorded', unmanaged: [], released: [{ kind: 'funding_instrument', id: 'f1' }], want: undefined },
  ])('$name', ({ unmanaged, released, want }) => {
    expect(seenRecord(unmanaged, released)).toEqual(want);
  });
});
