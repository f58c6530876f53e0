/**
 * The reads refresh adds to find what adsctl does not manage (src/live/fetch.ts,
 * `readUnmanaged`, `readUnmanagedChildren`): the account's campaign list when nothing else reads
 * it, its line items when a campaign is bound or, after the campaigns, when an unmanaged one is
 * ACTIVE (whether it serves depends on them), nothing more when the manifest or state already
 * has them read, and nothing at all when the plan does not look (`unmanaged: ignore`).
 */
import { describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { fetchLiveState } from '../../src/live/fetch.js';
import type { AccountState } from '../../src/state/state-file.js';
import { accountState, desired, desiredAccount, liveAccountRecord } from '../diff/builders.js';

/** An API that answers `campaigns` for the campaign list and every other list empty, and records which resources were listed. */
function recordingApi(campaigns: Array<Record<string, unknown>>): { api: AdsApi; listed: string[] } {
  const listed: string[] = [];
  const list = async (name: string): Promise<unknown[]> => {
    listed.push(name);
    return name === 'campaign' ? campaigns : [];
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

const handMade = (entity_status: string): Record<string, unknown> => ({ id: 'u1', name: 'By hand', entity_status, funding_instrument_id: 'f1', daily_budget_amount_local_micro: 5_000_000 });

const cases: Array<{ name: string; unmanaged: boolean; state: AccountState; resources?: ReturnType<typeof desired>[]; campaigns?: Array<Record<string, unknown>>; campaignReads: number; lineItemReads: number }> = [
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
  { name: 'looking, nothing managed, an ACTIVE campaign by hand: the line items after it', unmanaged: true, state: none, campaigns: [handMade('ACTIVE')], campaignReads: 1, lineItemReads: 1 },
  { name: 'looking, nothing managed, a PAUSED campaign by hand: no line items', unmanaged: true, state: none, campaigns: [handMade('PAUSED')], campaignReads: 1, lineItemReads: 0 },
  { name: 'not looking, an ACTIVE campaign by hand: no line items', unmanaged: false, state: none, campaigns: [handMade('ACTIVE')], campaignReads: 0, lineItemReads: 0 },
  { name: 'looking, a campaign bound and an ACTIVE one by hand: the line items once', unmanaged: true, state: bound, campaigns: [handMade('ACTIVE')], campaignReads: 1, lineItemReads: 1 },
];

describe('the reads for objects not managed by adsctl', () => {
  it.each(cases)('$name', async (c) => {
    const { api, listed } = recordingApi(c.campaigns ?? []);
    await fetchLiveState({ api, account: '18ce54d4x5t', accountId: '18ce54d4x5t', desired: desiredAccount(c.resources ?? []), state: c.state, unmanaged: c.unmanaged });
    expect([listed.filter((n) => n === 'campaign').length, listed.filter((n) => n === 'line_item').length]).toEqual([c.campaignReads, c.lineItemReads]);
  });
});
