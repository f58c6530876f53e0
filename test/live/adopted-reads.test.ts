/**
 * Refresh for imports that adopt children (src/live/adopted-reads.ts): the live children of an
 * imported object, at every depth, are read as if the object were bound.
 */
import { describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { adoptingParents, readAdoptedChildren } from '../../src/live/adopted-reads.js';
import { desired, desiredAccount, liveAccount, liveCampaign, liveLineItem } from '../diff/builders.js';

const records = [liveCampaign('c1'), liveCampaign('c2'), liveLineItem('l1', 'c1'), liveLineItem('l2', 'c1'), liveLineItem('l3', 'c2')];

describe('adoptingParents', () => {
  it('is the imported campaign and the live line items under it', () => {
    const account = desiredAccount([desired('campaigns.summer', { name: 'Summer' }, { importId: 'c1' })]);
    const adopting = adoptingParents(account, liveAccount(records));
    expect(Object.fromEntries([...adopting].map(([kind, ids]) => [kind, [...ids].sort()]))).toEqual({ campaign: ['c1'], line_item: ['l1', 'l2'] });
  });

  it('is nothing without an import: the account id adopts nothing', () => {
    expect(adoptingParents(desiredAccount([desired('campaigns.summer', { name: 'Summer' })]), liveAccount(records)).size).toBe(0);
  });
});

describe('readAdoptedChildren', () => {
  it('lists media creatives, read by bound ids otherwise, under the adopting line items through their find filter', async () => {
    const calls: unknown[] = [];
    const api = {
      listWhere: async (name: string, accountId: string, param: string, ids: readonly string[], flags: unknown) => {
        calls.push([name, accountId, param, [...ids].sort(), flags]);
        return [{ id: 'm1', line_item_id: 'l1', account_media_id: 'am1' }];
      },
    } as unknown as AdsApi;
    const read = await readAdoptedChildren(api, 'acc', new Set(['media_creative', 'targeting_criterion']), new Map([['line_item', new Set(['l1', 'l2'])]]));
    expect(calls).toEqual([['media_creative', 'acc', 'line_item_ids', ['l1', 'l2'], {}]]);
    expect(read).toEqual([['media_creative', [{ id: 'm1', line_item_id: 'l1', account_media_id: 'am1' }]]]);
  });
});
