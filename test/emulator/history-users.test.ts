/**
 * The account history records who made each change and through what (`change_by.user_id`,
 * `change_by.platform`), for every write of the entities it covers — single and batch endpoints
 * of campaigns, line items and targeting criteria, promoted posts and promoted accounts — so that
 * a change made by a second seeded user, logged in through the three-legged flow, names that user
 * (what adsctl's drift attribution reads; docs/architecture.md, "Who changed it").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { createCampaign } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { testNow } from '../support/test-clock.js';

const OWNER = '756201191646691328';
const MANAGER = '756201191646691329';

let emulator: RunningEmulator;
let owner: TestClient;
let manager: TestClient;
let account: string;

beforeAll(async () => {
  ({ emulator, client: owner, account } = await startTestEmulator({ rateLimitScale: 0 }));
  manager = owner.as(await loginAs(owner, 'adsctl_manager'));
});
afterAll(() => emulator.close());

function window(): { start_time: string; end_time: string } {
  const hour = Math.floor(testNow() / 3_600_000) * 3_600_000;
  const fmt = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { start_time: fmt(hour - 3_600_000), end_time: fmt(hour + 7_200_000) };
}

/** `[change_type, user_id, platform]` of every change of one entity, oldest first. */
async function changesOf(entity: string, id: string): Promise<Array<[string, string | null, string]>> {
  const r = await owner.get(`/12/accounts/${account}/account_history`, { entity_type: entity, entity_id: id, ...window() });
  expect(r.status, r.text).toBe(200);
  return r.body.data.map((h: { change_type: string; change_by: { user_id: string | null; platform: string } }) => [h.change_type, h.change_by.user_id, h.change_by.platform]);
}

const ok = (r: Reply): any => {
  expect(r.status, r.text).toBeLessThan(300);
  return r.body.data;
};

const lineItemParams = (campaignId: string, extra: Params = {}): Params => ({
  campaign_id: campaignId,
  name: 'history line item',
  product_type: 'PROMOTED_TWEETS',
  objective: 'ENGAGEMENTS',
  placements: 'ALL_ON_SERVICE',
  bid_amount_local_micro: 1_000_000,
  start_time: '2027-01-01T00:00:00Z',
  entity_status: 'PAUSED',
  ...extra,
});

describe('change_by of the account history', () => {
  it('names the user of each campaign write, single and batch', async () => {
    const made = ok(await manager.post(`/12/batch/accounts/${account}/campaigns`, {}, { json: [{ operation_type: 'Create', params: { name: 'by the manager', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 10_000_000, entity_status: 'PAUSED' } }] }))[0];
    ok(await owner.put(`/12/accounts/${account}/campaigns/${made.id}`, { name: 'renamed by the owner' }));
    ok(await manager.post(`/12/batch/accounts/${account}/campaigns`, {}, { json: [{ operation_type: 'Update', params: { campaign_id: made.id, daily_budget_amount_local_micro: 5_000_000 } }] }));
    ok(await manager.delete(`/12/accounts/${account}/campaigns/${made.id}`));
    expect(await changesOf('CAMPAIGN', made.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['UPDATE', OWNER, 'API'],
      ['UPDATE', MANAGER, 'API'],
      ['DELETE', MANAGER, 'API'],
    ]);
  });

  it('names the user of line item, targeting and promoted post writes', async () => {
    const campaign = (await createCampaign(owner, account)).id as string;
    const li = ok(await manager.post(`/12/batch/accounts/${account}/line_items`, {}, { json: [{ operation_type: 'Create', params: lineItemParams(campaign) }] }))[0];
    ok(await manager.put(`/12/accounts/${account}/line_items/${li.id}`, { bid_amount_local_micro: 2_000_000 }));
    expect(await changesOf('LINE_ITEM', li.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['UPDATE', MANAGER, 'API'],
    ]);

    const single = ok(await manager.post(`/12/accounts/${account}/targeting_criteria`, { line_item_id: li.id, targeting_type: 'BROAD_KEYWORD', targeting_value: 'tents' }));
    const batch = ok(await manager.post(`/12/batch/accounts/${account}/targeting_criteria`, {}, { json: [{ operation_type: 'Create', params: { line_item_id: li.id, targeting_type: 'BROAD_KEYWORD', targeting_value: 'stoves' } }] }))[0];
    ok(await manager.post(`/12/batch/accounts/${account}/targeting_criteria`, {}, { json: [{ operation_type: 'Delete', params: { targeting_criterion_id: single.id } }] }));
    ok(await owner.delete(`/12/accounts/${account}/targeting_criteria/${batch.id}`));
    expect(await changesOf('TARGETING_CRITERIA', single.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['DELETE', MANAGER, 'API'],
    ]);
    expect(await changesOf('TARGETING_CRITERIA', batch.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['DELETE', OWNER, 'API'],
    ]);

    const promoted = ok(await manager.post(`/12/accounts/${account}/promoted_tweets`, { line_item_id: li.id, tweet_ids: SEED_POST_IDS[0]! }, { as: 'form' }))[0];
    ok(await manager.delete(`/12/accounts/${account}/promoted_tweets/${promoted.id}`));
    expect(await changesOf('PROMOTED_TWEET', promoted.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['DELETE', MANAGER, 'API'],
    ]);
  });

  it('names the user of promoted account writes', async () => {
    const campaign = (await createCampaign(owner, account)).id as string;
    const li = ok(await owner.post(`/12/accounts/${account}/line_items`, lineItemParams(campaign, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS' }), { as: 'form' }));
    const pa = ok(await manager.post(`/12/accounts/${account}/promoted_accounts`, { line_item_id: li.id, user_id: OWNER }));
    ok(await manager.delete(`/12/accounts/${account}/promoted_accounts/${pa.id}`));
    expect(await changesOf('PROMOTED_ACCOUNT', pa.id)).toEqual([
      ['CREATE', MANAGER, 'API'],
      ['DELETE', MANAGER, 'API'],
    ]);
  });
});
