import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { ApiClient } from '../../src/api/client.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { apiFor } from '../support/api.js';
import { testClock } from '../support/test-clock.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
  account = emulator.info.account_id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('typed operations', () => {
  it('create, get, update, list and delete campaigns and line items', async () => {
    const campaign = await api.create('campaign', account, { funding_instrument_id: 'lygyi', name: 'Ops', daily_budget_amount_local_micro: 5_000_000, entity_status: 'PAUSED' });
    expect((await api.get('campaign', account, campaign.id)).name).toBe('Ops');
    expect((await api.update('campaign', account, campaign.id, { name: 'Ops 2', purchase_order_number: null })).name).toBe('Ops 2');
    const lineItem = await api.create('line_item', account, {
      campaign_id: campaign.id,
      product_type: 'PROMOTED_TWEETS',
      objective: 'ENGAGEMENTS',
      placements: ['ALL_ON_SERVICE'],
      bid_strategy: 'MAX',
      bid_amount_local_micro: 1_500_000,
      start_time: '2027-01-01T00:00:00Z',
    });
    expect(lineItem.placements).toEqual(['ALL_ON_SERVICE']);
    expect((await api.listWhere('line_item', account, 'campaign_ids', [campaign.id])).map((l) => l.id)).toEqual([lineItem.id]);

    const promoted = await api.promoteTweets(account, lineItem.id, SEED_POST_IDS.slice(0, 120));
    expect(promoted).toHaveLength(120);
    expect(client.counts.byEndpoint['promoted_tweet.create']).toBe(3);

    const criteria = await api.batch('targeting_criterion', account, [
      { operation_type: 'Create', params: { line_item_id: lineItem.id, targeting_type: 'BROAD_KEYWORD', targeting_value: 'tents' } },
      { operation_type: 'Create', params: { line_item_id: lineItem.id, targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' } },
    ]);
    expect(criteria.every((r) => r.ok)).toBe(true);
    expect((await api.targetingCriteria(account, [lineItem.id])).map((t) => t.targeting_type).sort()).toEqual(['BROAD_KEYWORD', 'LOCATION']);

    expect((await api.delete('line_item', account, lineItem.id)).deleted).toBe(true);
    expect((await api.get('line_item', account, lineItem.id, true)).deleted).toBe(true);
    expect((await api.delete('campaign', account, campaign.id)).deleted).toBe(true);
  });

  it('sandbox accounts, funding instruments and features', async () => {
    const created = await api.createSandboxAccount();
    const fi = await api.createSandboxFundingInstrument(created.id, { currency: 'EUR', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' });
    expect(fi.currency).toBe('EUR');
    expect(await api.changeFeatures(created.id, 'POST', ['AGE_TARGETING'])).toEqual(['AGE_TARGETING']);
    expect(await api.features(created.id)).toEqual(['AGE_TARGETING']);
    expect(await api.changeFeatures(created.id, 'DELETE', ['AGE_TARGETING'])).toEqual([]);
    expect((await api.deleteSandboxFundingInstrument(created.id, fi.id)).able_to_fund).toBe(false);
    expect((await api.deleteSandboxAccount(created.id)).deleted).toBe(true);
  });

  it('lookups and account reads', async () => {
    expect((await api.userAccess(account)).permissions).toContain('ACCOUNT_ADMIN');
    expect((await api.biddingRules('USD'))[0]?.currency).toBe('USD');
    expect((await api.placements('PROMOTED_TWEETS'))[0]?.product_type).toBe('PROMOTED_TWEETS');
    expect((await api.iabCategories()).length).toBeGreaterThan(200);
    expect((await api.businessCategories()).length).toBeGreaterThan(0);
    expect((await api.contentCategories()).length).toBeGreaterThan(0);
    expect((await api.curatedCategories(account, ['US'])).length).toBeGreaterThan(0);
    expect((await api.targetingOptions('locations', { q: 'San Francisco' })).length).toBeGreaterThan(0);
    expect((await api.list('promotable_user', account)).some((u) => u.promotable_user_type === 'FULL')).toBe(true);
    expect((await api.list('account_app', account)).length).toBeGreaterThan(0);
    const estimate = await api.audienceEstimate(account, [{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'tents' }]);
    expect(estimate.max).toBeGreaterThanOrEqual(estimate.min);
    const hour = new Date(Math.floor(testNow() / 3_600_000) * 3_600_000);
    const campaign = await api.create('campaign', account, { funding_instrument_id: 'lygyi', name: 'History', daily_budget_amount_local_micro: 5_000_000 });
    const history = await api.accountHistory(account, {
      entity_type: 'CAMPAIGN',
      entity_id: campaign.id,
      start_time: hour.toISOString().replace('.000Z', 'Z'),
      end_time: new Date(hour.getTime() + 7_200_000).toISOString().replace('.000Z', 'Z'),
    });
    expect(history.map((h) => h.change_type)).toEqual(['CREATE']);
  });
});
