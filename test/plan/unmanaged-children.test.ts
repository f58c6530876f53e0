/**
 * `unmanagedChildren`: the objects adsctl does not manage under one a plan deletes or replaces,
 * each with what the deletion does to it, by its descriptor's `retiredWithParent` (a campaign's
 * line items stay: the spec describes no cascade).
 */
import { describe, expect, it } from 'vitest';
import type { Action, ResourceChange } from '../../src/diff/types.js';
import type { UnmanagedObject } from '../../src/diff/unmanaged.js';
import { parseAddress } from '../../src/manifest/address.js';
import { unmanagedChildren } from '../../src/plan/unmanaged-children.js';

function change(address: string, action: Action): ResourceChange {
  const parsed = parseAddress(address).value;
  if (parsed === undefined) throw new Error(`bad address ${address}`);
  return { account: 'a', address: parsed, kind: parsed.kind, action, id: `id-${address}`, before: {}, after: action === 'delete' ? null : {}, changes: [], drift: false, protected: false };
}

function unmanaged(kind: 'campaign' | 'line_item', id: string, parentAddress: string | null): UnmanagedObject {
  return { kind, id, name: `made by hand ${id}`, status: 'ACTIVE', parentId: parentAddress === null ? null : `p-${id}`, parentAddress, dailyBudgetMicros: 1_000_000, serves: false, currency: 'USD', new: false };
}

const HAND_LINE_ITEM = unmanaged('line_item', 'li1', 'campaigns.summer');
const OTHER_LINE_ITEM = unmanaged('line_item', 'li2', 'campaigns.winter');
const HAND_CAMPAIGN = unmanaged('campaign', 'c1', null);

describe('unmanagedChildren', () => {
  it.each<{ name: string; changes: ResourceChange[]; ids: string[] }>([
    { name: 'a campaign deleted: its hand-made line item, which stays', changes: [change('campaigns.summer', 'delete')], ids: ['li1'] },
    { name: 'a campaign replaced: the old one is deleted, its line item stays under it', changes: [change('campaigns.summer', 'replace')], ids: ['li1'] },
    { name: 'a campaign updated: nothing', changes: [change('campaigns.summer', 'update')], ids: [] },
    { name: 'another campaign deleted: not this one’s line item', changes: [change('campaigns.autumn', 'delete')], ids: [] },
    { name: 'the account deleted (a sandbox destroy): the campaigns made by hand', changes: [change('account', 'delete'), change('campaigns.summer', 'delete')], ids: ['c1', 'li1'] },
  ])('$name', ({ changes, ids }) => {
    const children = unmanagedChildren(changes, [HAND_CAMPAIGN, HAND_LINE_ITEM, OTHER_LINE_ITEM]);
    expect(children.map((c) => c.id)).toEqual(ids);
    for (const c of children) expect(c.withParent).toBe('stays');
  });

  it('names the parent it sits under, the account for a campaign', () => {
    const [campaign, lineItem] = unmanagedChildren([change('account', 'delete'), change('campaigns.summer', 'delete')], [HAND_CAMPAIGN, HAND_LINE_ITEM]);
    expect(campaign).toMatchObject({ kind: 'campaign', parentAddress: 'account', withParent: 'stays' });
    expect(lineItem).toMatchObject({ kind: 'line_item', parentAddress: 'campaigns.summer', parentId: 'p-li1', dailyBudgetMicros: 1_000_000, currency: 'USD' });
  });
});
