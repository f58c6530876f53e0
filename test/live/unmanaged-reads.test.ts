/**
 * The reads refresh adds to find what adsctl does not manage (src/live/fetch.ts,
 * `readUnmanaged`): the account's campaign list when nothing else reads it, its line items only
 * when a campaign is bound, nothing more when the manifest or state already has them read, and
 * nothing at all when the plan does not look (`unmanaged: ignore`).
 */
import { describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { fetchLiveState } from '../../src/live/fetch.js';
import type { AccountState } from '../../src/state/state-file.js';
import { accountState, desired, desiredAccount, liveAccountRecord } from '../diff/builders.js';

/** An API that answers every list empty and records which resources were listed. */
function recordingApi(): { api: AdsApi; listed: string[] } {
  const listed: string[] = [];
  const list = async (name: string): Promise<unknown[]> => {
    listed.push(name);
    return [];
  };
  const api = {
    account: async () => liveAccountRecord()[1],
    list,
    listWhere: list,
    features: async () => [],
  } as unknown as AdsApi;
  return { api, listed };
}

const bound = accountState({ 'campaigns.a': { id: 'c1' } });
const both = accountState({ 'campaigns.a': { id: 'c1' }, 'campaigns.a.line_items.x': { id: 'l1' } });
const none = accountState({});

const cases: Array<{ name: string; unmanaged: boolean; state: AccountState; resources?: ReturnType<typeof desired>[]; campaignReads: number; lineItemReads: number }> = [
  { name: 'not looking, nothing managed: neither', unmanaged: false, state: none, campaignReads: 0, lineItemReads: 0 },
  { name: 'looking, nothing managed: the campaign list only', unmanaged: true, state: none, campaignReads: 1, lineItemReads: 0 },
  { name: 'looking, a campaign bound: its line items too', unmanaged: true, state: bound, campaignReads: 1, lineItemReads: 1 },
  { name: 'not looking, a campaign bound: no line items', unmanaged: false, state: bound, campaignReads: 1, lineItemReads: 0 },
  { name: 'looking, both already read: nothing more', unmanaged: true, state: both, campaignReads: 1, lineItemReads: 1 },
  {
    name: 'looking, a campaign only declared (none bound yet): no line items',
    unmanaged: true,
    state: none,
    resources: [desired('campaigns.new', { name: 'New' })],
    campaignReads: 1,
    lineItemReads: 0,
  },
];

describe('the reads for objects not managed by adsctl', () => {
  it.each(cases)('$name', async (c) => {
    const { api, listed } = recordingApi();
    await fetchLiveState({ api, account: '18ce54d4x5t', accountId: '18ce54d4x5t', desired: desiredAccount(c.resources ?? []), state: c.state, unmanaged: c.unmanaged });
    expect([listed.filter((n) => n === 'campaign').length, listed.filter((n) => n === 'line_item').length]).toEqual([c.campaignReads, c.lineItemReads]);
  });
});
