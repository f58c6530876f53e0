import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError, listIds as listIdsOf } from '../support/assertions.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let campaign: any;
let offsetMs = 0;
const clock = { now: (): Date => new Date(testNow() + offsetMs) };

const LINE_ITEM_FIELDS = [
  'advertiser_domain', 'advertiser_user_id', 'android_app_store_identifier', 'automatic_tweet_promotion', 'bid_amount_local_micro', 'bid_strategy',
  'campaign_id', 'categories', 'created_at', 'creative_source', 'currency', 'daily_budget_amount_local_micro', 'deleted', 'duration_in_days',
  'end_time', 'entity_status', 'frequency_cap', 'funding_instrument_id', 'goal', 'id', 'ios_app_store_identifier', 'name', 'objective', 'pay_by',
  'placements', 'primary_web_event_tag', 'product_type', 'standard_delivery', 'start_time', 'target_cpa_local_micro', 'total_budget_amount_local_micro',
  'updated_at',
];

const path = (suffix = ''): string => `/12/accounts/${account}/line_items${suffix}`;
const batchPath = (): string => `/12/batch/accounts/${account}/line_items`;


const base = (campaignId: string, extra: Params = {}): Params => ({
  campaign_id: campaignId,
  objective: 'ENGAGEMENTS',
  product_type: 'PROMOTED_TWEETS',
  placements: 'ALL_ON_SERVICE',
  start_time: '2030-01-01T00:00:00Z',
  ...extra,
});
const without = (params: Params, ...keys: string[]): Params => Object.fromEntries(Object.entries(params).filter(([k]) => !keys.includes(k)));

/** A fresh campaign for a test that needs its own (line items of one campaign share objective and product type). */
const freshCampaign = (extra: Record<string, string | number | null> = {}): Promise<any> => createCampaign(client, account, extra);


const listIds = (params: Params = {}): Promise<string[]> => listIdsOf(client, path(), params);

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ clock, rateLimitScale: 0 }));
  campaign = await createCampaign(client, account, { total_budget_amount_local_micro: 1_000_000_000 });
});
afterAll(() => emulator.close());

describe('POST line_items: record and defaults', () => {
  it('answers 201 with every field of the Line item table and the typed echo', async () => {
    const r = await client.post(path(), base(campaign.id, { start_time: '2030-06-15', bid_strategy: 'MAX', bid_amount_local_micro: 3_210_000 }), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body.data).sort()).toEqual(LINE_ITEM_FIELDS);
    expect(r.body.request.params).toEqual({
      account_id: account,
      campaign_id: campaign.id,
      objective: 'ENGAGEMENTS',
      product_type: 'PROMOTED_TWEETS',
      placements: ['ALL_ON_SERVICE'],
      start_time: '2030-06-15T00:00:00Z',
      bid_strategy: 'MAX',
      bid_amount_local_micro: 3_210_000,
    });
    expect(r.body.data).toMatchObject({ start_time: '2030-06-15T00:00:00Z', bid_amount_local_micro: 3_210_000, placements: ['ALL_ON_SERVICE'] });
  });

  const defaults: Array<[string, string, () => unknown]> = [
    ['advertiser_user_id is the FULL promotable user', 'advertiser_user_id', () => emulator.info.user_id],
    ['funding_instrument_id comes from the campaign', 'funding_instrument_id', () => campaign.funding_instrument_id],
    ['currency comes from the campaign', 'currency', () => 'USD'],
    ['name defaults to null', 'name', () => null],
    ['entity_status defaults to ACTIVE', 'entity_status', () => 'ACTIVE'],
    ['bid_strategy defaults to AUTO', 'bid_strategy', () => 'AUTO'],
    ['bid_amount_local_micro defaults to null', 'bid_amount_local_micro', () => null],
    ['goal defaults by objective (ENGAGEMENTS → ENGAGEMENT)', 'goal', () => 'ENGAGEMENT'],
    ['pay_by defaults by objective (ENGAGEMENTS → ENGAGEMENT)', 'pay_by', () => 'ENGAGEMENT'],
    ['standard_delivery defaults to true', 'standard_delivery', () => true],
    ['categories default to an empty list', 'categories', () => []],
    ['end_time defaults to null', 'end_time', () => null],
    ['creative_source is MANUAL', 'creative_source', () => 'MANUAL'],
    ['target_cpa_local_micro is null', 'target_cpa_local_micro', () => null],
    ['automatic_tweet_promotion is null', 'automatic_tweet_promotion', () => null],
    ['frequency_cap defaults to null', 'frequency_cap', () => null],
    ['duration_in_days defaults to null', 'duration_in_days', () => null],
    ['deleted is false', 'deleted', () => false],
  ];
  it.each(defaults)('%s', async (_name, field, expected) => {
    const r = await client.post(path(), base(campaign.id), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data[field]).toEqual(expected());
  });

  const app = { android_app_store_identifier: 'com.acme.outdoor' };
  const byObjective: Array<[string, Params, string, string]> = [
    ['ENGAGEMENTS', {}, 'ENGAGEMENT', 'ENGAGEMENT'],
    ['APP_INSTALLS', app, 'APP_INSTALLS', 'APP_CLICK'],
    ['APP_ENGAGEMENTS', app, 'APP_CLICKS', 'APP_CLICK'],
    ['REACH', {}, 'MAX_REACH', 'IMPRESSION'],
    ['FOLLOWERS', {}, 'FOLLOWERS', 'FOLLOW'],
    ['VIDEO_VIEWS', {}, 'VIDEO_VIEW', 'VIEW'],
    ['PREROLL_VIEWS', {}, 'PREROLL', 'VIEW'],
    ['WEBSITE_CLICKS', {}, 'LINK_CLICKS', 'LINK_CLICK'],
  ];
  it.each(byObjective)('objective %s defaults goal %s... and pay_by', async (objective, extra, goal, payBy) => {
    const c = await freshCampaign();
    const li = await createLineItem(client, account, c.id, { objective, ...extra });
    expect(li).toMatchObject({ objective, goal, pay_by: payBy });
  });

  const given: Array<[string, Params, Record<string, unknown>]> = [
    ['name 255 characters', { name: 'n'.repeat(255) }, { name: 'n'.repeat(255) }],
    ['entity_status DRAFT', { entity_status: 'DRAFT' }, { entity_status: 'DRAFT' }],
    ['entity_status PAUSED', { entity_status: 'PAUSED' }, { entity_status: 'PAUSED' }],
    ['a bid at the USD minimum', { bid_strategy: 'MAX', bid_amount_local_micro: 10_000 }, { bid_amount_local_micro: 10_000 }],
    ['a bid at the USD maximum', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000_000 }, { bid_amount_local_micro: 1_000_000_000 }],
    ['frequency_cap with duration_in_days', { frequency_cap: 3, duration_in_days: 7 }, { frequency_cap: 3, duration_in_days: 7 }],
    ['budgets within the campaign total', { daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 1_000_000_000 }, { daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 1_000_000_000 }],
    ['end_time after start_time', { end_time: '2030-02-01T00:00:00+01:00' }, { end_time: '2030-01-31T23:00:00Z' }],
    ['standard_delivery false', { standard_delivery: false }, { standard_delivery: false }],
    ['placements in any order', { placements: 'SERVICE_TIMELINE,SERVICE_PROFILE' }, { placements: ['SERVICE_TIMELINE', 'SERVICE_PROFILE'] }],
    ['publisher network with categories and domain', { placements: 'ALL_ON_SERVICE,PUBLISHER_NETWORK', categories: 'IAB3-1,IAB19', advertiser_domain: 'acme.example.com' }, { categories: ['IAB3-1', 'IAB19'], advertiser_domain: 'acme.example.com' }],
  ];
  it.each(given)('keeps %s', async (_name, params, expected) => {
    const r = await client.post(path(), base(campaign.id, params), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject(expected);
  });

  const others: Array<[string, Params, Record<string, unknown>]> = [
    ['pay_by for APP_INSTALLS', { objective: 'APP_INSTALLS', ios_app_store_identifier: '333903271', pay_by: 'IMPRESSION' }, { pay_by: 'IMPRESSION' }],
    ['bid_strategy TARGET for WEBSITE_CLICKS', { objective: 'WEBSITE_CLICKS', bid_strategy: 'TARGET', bid_amount_local_micro: 500_000 }, { bid_strategy: 'TARGET' }],
    ['goal WEBSITE_CONVERSIONS with a web event tag', { objective: 'WEBSITE_CLICKS', goal: 'WEBSITE_CONVERSIONS', primary_web_event_tag: 'o1x2y' }, { goal: 'WEBSITE_CONVERSIONS', primary_web_event_tag: 'o1x2y' }],
    ['MEDIA product with PUBLISHER_NETWORK', { product_type: 'MEDIA', objective: 'PREROLL_VIEWS', placements: 'PUBLISHER_NETWORK', categories: 'IAB1', advertiser_domain: 'acme.com' }, { product_type: 'MEDIA' }],
    ['PROMOTED_ACCOUNT on search and timeline', { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', placements: 'SERVICE_SEARCH,SERVICE_TIMELINE' }, { product_type: 'PROMOTED_ACCOUNT' }],
    ['audience_expansion is accepted', { audience_expansion: 'EXPANDED' }, {}],
  ];
  it.each(others)('accepts %s', async (_name, params, expected) => {
    const c = await freshCampaign();
    const r = await client.post(path(), base(c.id, params), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject(expected);
  });
});

describe('POST line_items: validation', () => {
  const rows: Array<[string, Params, number, string, string]> = [
    ['campaign_id is required', without(base('x'), 'campaign_id'), 400, 'MISSING_PARAMETER', 'campaign_id'],
    ['objective is required', without(base('$c'), 'objective'), 400, 'MISSING_PARAMETER', 'objective'],
    ['product_type is required', without(base('$c'), 'product_type'), 400, 'MISSING_PARAMETER', 'product_type'],
    ['placements are required', without(base('$c'), 'placements'), 400, 'MISSING_PARAMETER', 'placements'],
    ['start_time is required', without(base('$c'), 'start_time'), 400, 'MISSING_PARAMETER', 'start_time'],
    ['objective is an enum', base('$c', { objective: 'CUSTOM' }), 400, 'INVALID_PARAMETER', 'objective'],
    ['product_type is an enum', base('$c', { product_type: 'PROMOTED_TRENDS' }), 400, 'INVALID_PARAMETER', 'product_type'],
    ['placement values are an enum', base('$c', { placements: 'ALL_ON_TWITTER' }), 400, 'INVALID_PARAMETER', 'placements'],
    ['SERVICE_PROFILE alone is not a combination', base('$c', { placements: 'SERVICE_PROFILE' }), 400, 'INVALID_PARAMETER', 'placements'],
    ['MEDIA cannot use SERVICE_TIMELINE', base('$c', { product_type: 'MEDIA', placements: 'SERVICE_TIMELINE' }), 400, 'INVALID_PARAMETER', 'placements'],
    ['PROMOTED_ACCOUNT cannot use PUBLISHER_NETWORK', base('$c', { product_type: 'PROMOTED_ACCOUNT', placements: 'PUBLISHER_NETWORK', categories: 'IAB1', advertiser_domain: 'a.com' }), 400, 'INVALID_PARAMETER', 'placements'],
    ['duplicate placements are not a combination', base('$c', { placements: 'SERVICE_SEARCH,SERVICE_SEARCH' }), 400, 'INVALID_PARAMETER', 'placements'],
    ['start_time must be a time', base('$c', { start_time: 'tomorrow' }), 400, 'INVALID_PARAMETER', 'start_time'],
    ['end_time must follow start_time', base('$c', { end_time: '2029-12-31T00:00:00Z' }), 400, 'INVALID_TIME_WINDOW', 'end_time'],
    ['bid_strategy is an enum', base('$c', { bid_strategy: 'LOWEST_COST' }), 400, 'INVALID_PARAMETER', 'bid_strategy'],
    ['MAX needs a bid', base('$c', { bid_strategy: 'MAX' }), 400, 'MISSING_PARAMETER', 'bid_amount_local_micro'],
    ['the bid must be positive', base('$c', { bid_strategy: 'MAX', bid_amount_local_micro: 0 }), 400, 'INVALID_PARAMETER', 'bid_amount_local_micro'],
    ['the bid is below the USD minimum', base('$c', { bid_strategy: 'MAX', bid_amount_local_micro: 5_000 }), 400, 'INVALID_PARAMETER', 'bid_amount_local_micro'],
    ['the bid is above the USD maximum', base('$c', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_010_000 }), 400, 'INVALID_PARAMETER', 'bid_amount_local_micro'],
    ['the bid is not a multiple of the minimum denomination', base('$c', { bid_strategy: 'MAX', bid_amount_local_micro: 1_005_000 }), 400, 'INVALID_DENOMINATION', 'bid_amount_local_micro'],
    ['TARGET is not allowed for ENGAGEMENTS', base('$c', { bid_strategy: 'TARGET', bid_amount_local_micro: 100_000 }), 400, 'INVALID_PARAMETER', 'bid_strategy'],
    ['MAX is not allowed for REACH', base('$c', { objective: 'REACH', bid_strategy: 'MAX', bid_amount_local_micro: 100_000 }), 400, 'INVALID_PARAMETER', 'bid_strategy'],
    ['goal is an enum', base('$c', { goal: 'CLICKS' }), 400, 'INVALID_PARAMETER', 'goal'],
    ['goal must suit the objective', base('$c', { goal: 'APP_INSTALLS' }), 400, 'INVALID_PARAMETER', 'goal'],
    ['pay_by is only for APP_INSTALLS', base('$c', { pay_by: 'IMPRESSION' }), 400, 'INVALID_PARAMETER', 'pay_by'],
    ['pay_by is an enum', base('$c', { pay_by: 'ENGAGEMENT' }), 400, 'INVALID_PARAMETER', 'pay_by'],
    ['name must not be empty', base('$c', { name: '' }), 400, 'INVALID_PARAMETER', 'name'],
    ['name is at most 255 characters', base('$c', { name: 'n'.repeat(256) }), 400, 'INVALID_PARAMETER', 'name'],
    ['entity_status is an enum', base('$c', { entity_status: 'RUNNING' }), 400, 'INVALID_PARAMETER', 'entity_status'],
    ['daily must not exceed total', base('$c', { daily_budget_amount_local_micro: 20_000_000, total_budget_amount_local_micro: 10_000_000 }), 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['total must not exceed the campaign total', base('$c', { total_budget_amount_local_micro: 1_000_000_001 }), 400, 'INVALID_PARAMETER', 'total_budget_amount_local_micro'],
    ['frequency_cap needs duration_in_days', base('$c', { frequency_cap: 3 }), 400, 'INCLUSIVE_PARAMETERS', 'duration_in_days'],
    ['duration_in_days needs frequency_cap', base('$c', { duration_in_days: 7 }), 400, 'INCLUSIVE_PARAMETERS', 'frequency_cap'],
    ['duration_in_days is 1, 7 or 30', base('$c', { frequency_cap: 3, duration_in_days: 2 }), 400, 'INVALID_PARAMETER', 'duration_in_days'],
    ['frequency_cap is not for WEBSITE_CLICKS', base('$c', { objective: 'WEBSITE_CLICKS', frequency_cap: 3, duration_in_days: 7 }), 400, 'INVALID_PARAMETER', 'frequency_cap'],
    ['PUBLISHER_NETWORK needs categories', base('$c', { placements: 'PUBLISHER_NETWORK', advertiser_domain: 'acme.com' }), 400, 'INVALID_PARAMETER', 'categories'],
    ['PUBLISHER_NETWORK needs advertiser_domain', base('$c', { placements: 'PUBLISHER_NETWORK', categories: 'IAB1' }), 400, 'MISSING_PARAMETER', 'advertiser_domain'],
    ['categories are IAB category ids', base('$c', { categories: 'sports' }), 400, 'INVALID_PARAMETER', 'categories'],
    ['advertiser_domain is a domain name', base('$c', { advertiser_domain: 'https://acme.com/' }), 400, 'INVALID_PARAMETER', 'advertiser_domain'],
    ['APP_INSTALLS needs an app store identifier', base('$c', { objective: 'APP_INSTALLS' }), 400, 'MISSING_PARAMETER', 'android_app_store_identifier'],
    ['WEBSITE_CONVERSIONS needs primary_web_event_tag', base('$c', { objective: 'WEBSITE_CLICKS', goal: 'WEBSITE_CONVERSIONS' }), 400, 'MISSING_PARAMETER', 'primary_web_event_tag'],
    ['audience_expansion is an enum', base('$c', { audience_expansion: 'WIDE' }), 400, 'INVALID_PARAMETER', 'audience_expansion'],
    ['advertiser_user_id is not allowed', base('$c', { advertiser_user_id: '756201191646691328' }), 400, 'INVALID_PARAMETER', 'advertiser_user_id'],
    ['target_cpa_local_micro is read-only', base('$c', { target_cpa_local_micro: 1_000_000 }), 400, 'INVALID_PARAMETER', 'target_cpa_local_micro'],
    ['funding_instrument_id cannot be set', base('$c', { funding_instrument_id: 'lygyi' }), 400, 'INVALID_PARAMETER', 'funding_instrument_id'],
    ['unknown parameters are refused', base('$c', { bid_unit: 'ENGAGEMENT' }), 400, 'INVALID_PARAMETER', 'bid_unit'],
    ['an unknown campaign is not found', base('nope1'), 404, 'NOT_FOUND', 'campaign_id'],
  ];
  it.each(rows)('%s', async (_name, raw, status, code, parameter) => {
    const c = await freshCampaign({ total_budget_amount_local_micro: 1_000_000_000 });
    const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v === '$c' ? c.id : v])) as Params;
    expectError(await client.post(path(), params, { as: 'form' }), status, code, parameter);
    expect(await listIds({ campaign_ids: c.id, with_draft: true, with_deleted: true })).toEqual([]);
  });

  it('a deleted campaign is not found', async () => {
    const c = await freshCampaign();
    await client.delete(`/12/accounts/${account}/campaigns/${c.id}`);
    expectError(await client.post(path(), base(c.id), { as: 'form' }), 404, 'NOT_FOUND', 'campaign_id');
  });

  const siblings: Array<[string, Params, string]> = [
    ['objective', { objective: 'VIDEO_VIEWS' }, 'objective'],
    ['product_type', { product_type: 'PROMOTED_ACCOUNT' }, 'product_type'],
  ];
  it.each(siblings)('all line items of a campaign share %s', async (_name, params, parameter) => {
    const c = await freshCampaign();
    await createLineItem(client, account, c.id);
    expectError(await client.post(path(), base(c.id, params), { as: 'form' }), 400, 'INVALID_PARAMETER', parameter);
  });

  it('a campaign whose line items are all deleted takes a new objective', async () => {
    const c = await freshCampaign();
    const li = await createLineItem(client, account, c.id);
    await client.delete(path(`/${li.id}`));
    expect((await client.post(path(), base(c.id, { objective: 'VIDEO_VIEWS' }), { as: 'form' })).status).toBe(201);
  });

  it('a JPY campaign uses the JPY bidding rule and currency', async () => {
    const fi = await client.post(`/12/accounts/${account}/funding_instruments`, { currency: 'JPY', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' }, { base: 'sandbox', as: 'form' });
    expect(fi.status, fi.text).toBe(201);
    const c = await freshCampaign({ funding_instrument_id: fi.body.data.id, daily_budget_amount_local_micro: 10_000_000_000 });
    expectError(await client.post(path(), base(c.id, { bid_strategy: 'MAX', bid_amount_local_micro: 500_000 }), { as: 'form' }), 400, 'INVALID_PARAMETER', 'bid_amount_local_micro');
    const ok = await createLineItem(client, account, c.id, { bid_strategy: 'MAX', bid_amount_local_micro: 2_000_000 });
    expect(ok).toMatchObject({ currency: 'JPY', funding_instrument_id: fi.body.data.id });
  });
});

describe('PUT line_items/:id', () => {
  const rows: Array<[string, Params, Params, Record<string, unknown>]> = [
    ['entity_status to PAUSED', {}, { entity_status: 'PAUSED' }, { entity_status: 'PAUSED' }],
    ['a DRAFT becomes ACTIVE', { entity_status: 'DRAFT' }, { entity_status: 'ACTIVE' }, { entity_status: 'ACTIVE' }],
    ['the bid changes', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }, { bid_amount_local_micro: 2_500_000 }, { bid_amount_local_micro: 2_500_000 }],
    ['bid_strategy MAX with a bid', {}, { bid_strategy: 'MAX', bid_amount_local_micro: 700_000 }, { bid_strategy: 'MAX', bid_amount_local_micro: 700_000 }],
    ['back to AUTO keeps the bid', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }, { bid_strategy: 'AUTO' }, { bid_strategy: 'AUTO', bid_amount_local_micro: 1_000_000 }],
    ['an empty name unsets it', { name: 'x' }, { name: '' }, { name: null }],
    ['an empty end_time unsets it', { end_time: '2031-01-01T00:00:00Z' }, { end_time: '' }, { end_time: null }],
    ['start_time moves', {}, { start_time: '2030-03-01' }, { start_time: '2030-03-01T00:00:00Z' }],
    ['budgets change', {}, { daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 5_000_000 }, { daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 5_000_000 }],
    ['an empty total unsets it', { total_budget_amount_local_micro: 5_000_000 }, { total_budget_amount_local_micro: '' }, { total_budget_amount_local_micro: null }],
    ['frequency cap set together', {}, { frequency_cap: 2, duration_in_days: 30 }, { frequency_cap: 2, duration_in_days: 30 }],
    ['frequency cap unset together', { frequency_cap: 2, duration_in_days: 1 }, { frequency_cap: '', duration_in_days: '' }, { frequency_cap: null, duration_in_days: null }],
    ['advertiser_domain and categories', {}, { advertiser_domain: 'acme.com', categories: 'IAB2' }, { advertiser_domain: 'acme.com', categories: ['IAB2'] }],
    ['an empty categories list clears them', { categories: 'IAB2' }, { categories: '' }, { categories: [] }],
    ['app store identifiers', {}, { ios_app_store_identifier: '333903271' }, { ios_app_store_identifier: '333903271' }],
  ];
  it.each(rows)('%s', async (_name, create, update, expected) => {
    const li = await createLineItem(client, account, campaign.id, create);
    offsetMs += 2000;
    const r = await client.put(path(`/${li.id}`), update, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject(expected);
    expect(r.body.data.updated_at > li.updated_at).toBe(true);
    expect(r.body.data.created_at).toBe(li.created_at);
    expect((await client.get(path(`/${li.id}`))).body.data).toEqual(r.body.data);
  });

  const notUpdatable: Array<[string, Params]> = [
    ['campaign_id', { campaign_id: 'abc' }],
    ['objective', { objective: 'REACH' }],
    ['product_type', { product_type: 'MEDIA' }],
    ['placements', { placements: 'SERVICE_TIMELINE' }],
    ['advertiser_user_id', { advertiser_user_id: '1' }],
    ['standard_delivery', { standard_delivery: false }],
    ['primary_web_event_tag', { primary_web_event_tag: 'x' }],
    ['target_cpa_local_micro', { target_cpa_local_micro: 1 }],
    ['currency', { currency: 'EUR' }],
  ];
  it.each(notUpdatable)('refuses setting %s', async (field, update) => {
    const li = await createLineItem(client, account, campaign.id);
    const r = await client.put(path(`/${li.id}`), update, { as: 'form' });
    expectError(r, 400, 'INVALID_PARAMETER', field);
    const message = field === 'advertiser_user_id' ? `setting ${field} is not allowed` : `${field} is read-only`;
    expect(r.body.errors.find((e: { parameter: string }) => e.parameter === field).message).toBe(message);
  });

  it('ignores the attributes a PUT cannot change when they are sent back unchanged', async () => {
    const li = await createLineItem(client, account, campaign.id);
    const echoed = { campaign_id: li.campaign_id, objective: li.objective, product_type: li.product_type, placements: li.placements, standard_delivery: li.standard_delivery, currency: li.currency, name: 'echoed' };
    const r = await client.put(path(`/${li.id}`), echoed, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ ...echoed, name: 'echoed' });
  });

  const refused: Array<[string, Params, Params, string, string]> = [
    ['DRAFT is not allowed on update', {}, { entity_status: 'DRAFT' }, 'INVALID_PARAMETER', 'entity_status'],
    ['MAX without a bid', {}, { bid_strategy: 'MAX' }, 'MISSING_PARAMETER', 'bid_amount_local_micro'],
    ['unsetting the bid of a MAX line item', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }, { bid_amount_local_micro: '' }, 'MISSING_PARAMETER', 'bid_amount_local_micro'],
    ['a bid outside the bidding rule', {}, { bid_amount_local_micro: 2_000_000_000 }, 'INVALID_PARAMETER', 'bid_amount_local_micro'],
    ['a bid off the denomination', {}, { bid_amount_local_micro: 1_234_567 }, 'INVALID_DENOMINATION', 'bid_amount_local_micro'],
    ['daily above the existing total', { total_budget_amount_local_micro: 5_000_000 }, { daily_budget_amount_local_micro: 6_000_000 }, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['a total above the campaign total', {}, { total_budget_amount_local_micro: 2_000_000_000 }, 'INVALID_PARAMETER', 'total_budget_amount_local_micro'],
    ['end_time before start_time', {}, { end_time: '2029-01-01T00:00:00Z' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['only one of frequency_cap and duration_in_days', { frequency_cap: 2, duration_in_days: 7 }, { duration_in_days: '' }, 'INCLUSIVE_PARAMETERS', 'duration_in_days'],
    ['a goal of another objective', {}, { goal: 'FOLLOWERS' }, 'INVALID_PARAMETER', 'goal'],
    ['pay_by on an ENGAGEMENTS line item', {}, { pay_by: 'IMPRESSION' }, 'INVALID_PARAMETER', 'pay_by'],
    ['an empty start_time', {}, { start_time: '' }, 'INVALID_PARAMETER', 'start_time'],
  ];
  it.each(refused)('refuses %s', async (_name, create, update, code, parameter) => {
    const li = await createLineItem(client, account, campaign.id, create);
    expectError(await client.put(path(`/${li.id}`), update, { as: 'form' }), 400, code, parameter);
    expect((await client.get(path(`/${li.id}`))).body.data).toEqual(li);
  });

  it('SITE_VISITS is not a PUT goal (sent back unchanged, it is ignored)', async () => {
    const c = await freshCampaign();
    const li = await createLineItem(client, account, c.id, { objective: 'WEBSITE_CLICKS', goal: 'SITE_VISITS' });
    expect(li.goal).toBe('SITE_VISITS');
    expect((await client.put(path(`/${li.id}`), { goal: 'SITE_VISITS', name: 'same goal' })).body.data).toMatchObject({ goal: 'SITE_VISITS', name: 'same goal' });
    expect((await client.put(path(`/${li.id}`), { goal: 'LINK_CLICKS' })).body.data.goal).toBe('LINK_CLICKS');
    expectError(await client.put(path(`/${li.id}`), { goal: 'SITE_VISITS' }), 400, 'INVALID_PARAMETER', 'goal');
  });

  it('removing the categories of a publisher network line item is refused', async () => {
    const c = await freshCampaign();
    const li = await createLineItem(client, account, c.id, { placements: 'PUBLISHER_NETWORK', categories: 'IAB1', advertiser_domain: 'acme.com' });
    const r = await client.put(path(`/${li.id}`), { categories: '' });
    expectError(r, 400, 'INVALID_PARAMETER', 'categories');
    expect(r.body.errors[0].message).toBe('A minimum of 1 items must be provided for categories');
  });

  it('answers 404 for an unknown or deleted line item', async () => {
    expectError(await client.put(path('/nope1'), { name: 'x' }), 404, 'NOT_FOUND', 'line_item_id');
    const li = await createLineItem(client, account, campaign.id);
    await client.delete(path(`/${li.id}`));
    expectError(await client.put(path(`/${li.id}`), { name: 'x' }), 404, 'NOT_FOUND', 'line_item_id');
  });
});

describe('DELETE line_items/:id and deleted records', () => {
  it('answers the record with deleted=true; a second DELETE is 404', async () => {
    const li = await createLineItem(client, account, campaign.id);
    const r = await client.delete(path(`/${li.id}`));
    expect(r.status).toBe(200);
    expect(r.body.request.params).toEqual({ account_id: account, line_item_id: li.id });
    expect(r.body.data).toMatchObject({ id: li.id, deleted: true });
    expectError(await client.delete(path(`/${li.id}`)), 404, 'NOT_FOUND', 'line_item_id');
  });

  const reads: Array<[string, Params, number]> = [
    ['GET by id without with_deleted is 404', {}, 404],
    ['GET by id with with_deleted=true finds it', { with_deleted: true }, 200],
  ];
  it.each(reads)('%s', async (_name, params, status) => {
    const li = await createLineItem(client, account, campaign.id);
    await client.delete(path(`/${li.id}`));
    expect((await client.get(path(`/${li.id}`), params)).status).toBe(status);
  });
});

describe('GET line_items (list)', () => {
  let c1: any;
  let c2: any;
  let ids: string[] = [];
  let draft = '';
  beforeAll(async () => {
    c1 = await freshCampaign();
    c2 = await freshCampaign();
    ids = [];
    for (const [i, name] of ['Alpha', 'alphabet', 'Beta'].entries()) {
      ids.push((await createLineItem(client, account, i < 2 ? c1.id : c2.id, { name, bid_strategy: 'MAX', bid_amount_local_micro: (i + 1) * 100_000 })).id);
    }
    draft = (await createLineItem(client, account, c2.id, { name: 'Alpha draft', entity_status: 'DRAFT' })).id;
  });

  const rows: Array<[string, () => Params, () => string[]]> = [
    ['campaign_ids filters', () => ({ campaign_ids: c1.id }), () => [ids[0]!, ids[1]!]],
    ['several campaign_ids merge in creation order', () => ({ campaign_ids: `${c2.id},${c1.id}` }), () => ids],
    ['line_item_ids filters', () => ({ line_item_ids: `${ids[2]},${ids[0]}` }), () => [ids[0]!, ids[2]!]],
    ['line_item_ids and campaign_ids combine', () => ({ line_item_ids: ids.join(','), campaign_ids: c2.id }), () => [ids[2]!]],
    ['drafts are left out by default', () => ({ campaign_ids: c2.id }), () => [ids[2]!]],
    ['with_draft=true includes drafts', () => ({ campaign_ids: c2.id, with_draft: true }), () => [ids[2]!, draft]],
    ['q is a case-insensitive name prefix', () => ({ campaign_ids: `${c1.id},${c2.id}`, with_draft: true, q: 'ALPHA' }), () => [ids[0]!, ids[1]!, draft]],
    ['sort_by bid descending', () => ({ line_item_ids: ids.join(','), sort_by: 'bid_amount_local_micro-desc' }), () => [...ids].reverse()],
    ['funding_instrument_ids filters', () => ({ funding_instrument_ids: 'lygyi', campaign_ids: c1.id }), () => [ids[0]!, ids[1]!]],
    ['an unknown funding instrument matches nothing', () => ({ funding_instrument_ids: 'zzzzz' }), () => []],
  ];
  it.each(rows)('%s', async (_name, params, expected) => {
    expect(await listIds(params())).toEqual(expected());
  });

  it('deleted line items are listed only with with_deleted=true', async () => {
    const li = await createLineItem(client, account, c1.id);
    await client.delete(path(`/${li.id}`));
    expect(await listIds({ campaign_ids: c1.id })).not.toContain(li.id);
    expect(await listIds({ campaign_ids: c1.id, with_deleted: true })).toContain(li.id);
  });

  it('with_total_count adds total_count', async () => {
    const r = await client.get(path(), { campaign_ids: c1.id, with_total_count: true });
    expect(r.body.total_count).toBe(2);
  });

  const refused: Array<[string, Params, string]> = [
    ['more than 200 line_item_ids', { line_item_ids: Array.from({ length: 201 }, (_, i) => `l${i}`).join(',') }, 'line_item_ids'],
    ['more than 200 campaign_ids', { campaign_ids: Array.from({ length: 201 }, (_, i) => `c${i}`).join(',') }, 'campaign_ids'],
    ['more than 200 funding_instrument_ids', { funding_instrument_ids: Array.from({ length: 201 }, (_, i) => `f${i}`).join(',') }, 'funding_instrument_ids'],
    ['an unsupported sort_by', { sort_by: 'name-asc' }, 'sort_by'],
    ['an empty q', { q: '' }, 'q'],
    ['an unknown parameter', { promoted_tweet_ids: 'x' }, 'promoted_tweet_ids'],
  ];
  it.each(refused)('refuses %s', async (_name, params, parameter) => {
    expectError(await client.get(path(), params), 400, 'INVALID_PARAMETER', parameter);
  });
});

describe('POST batch/line_items', () => {
  const create = (campaignId: string, extra: Params = {}): unknown => ({ operation_type: 'Create', params: { ...base(campaignId), ...extra } });

  it('creates, updates and deletes in one request, in input order, with JSON-typed params', async () => {
    const a = await createLineItem(client, account, campaign.id);
    const b = await createLineItem(client, account, campaign.id);
    const r = await client.post(batchPath(), {}, {
      json: [
        create(campaign.id, { placements: ['SERVICE_SEARCH', 'SERVICE_TIMELINE'], bid_strategy: 'MAX', bid_amount_local_micro: 290_000, name: 'batch' }),
        { operation_type: 'Update', params: { line_item_id: a.id, bid_strategy: 'MAX', bid_amount_local_micro: 290_000 } },
        { operation_type: 'Delete', params: { line_item_id: b.id } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data[0]).toMatchObject({ name: 'batch', placements: ['SERVICE_SEARCH', 'SERVICE_TIMELINE'], bid_amount_local_micro: 290_000 });
    expect(r.body.data[1]).toMatchObject({ id: a.id, bid_strategy: 'MAX' });
    expect(r.body.data[2]).toMatchObject({ id: b.id, deleted: true });
    expect(r.body.request.map((x: { operation_type: string }) => x.operation_type)).toEqual(['Create', 'Update', 'Delete']);
  });

  it('an invalid item in position 3 fails the batch with aligned operation_errors and creates nothing', async () => {
    const c = await freshCampaign();
    const r = await client.post(batchPath(), {}, { json: [create(c.id), create(c.id), create(c.id, { placements: 'SERVICE_PROFILE' }), create(c.id)] });
    expect(r.status).toBe(400);
    expect(r.body.operation_errors).toEqual([[], [], [expect.objectContaining({ code: 'INVALID_PARAMETER', parameter: 'placements' })], []]);
    expect(await listIds({ campaign_ids: c.id, with_deleted: true, with_draft: true })).toEqual([]);
  });

  const itemErrors: Array<[string, unknown, string, string]> = [
    ['Update needs line_item_id', { operation_type: 'Update', params: { name: 'x' } }, 'MISSING_PARAMETER', 'line_item_id'],
    ['Delete needs line_item_id', { operation_type: 'Delete', params: {} }, 'MISSING_PARAMETER', 'line_item_id'],
    ['Update refuses advertiser_user_id', { operation_type: 'Update', params: { line_item_id: 'nope1', advertiser_user_id: '1' } }, 'INVALID_PARAMETER', 'advertiser_user_id'],
    ['Delete of an unknown line item', { operation_type: 'Delete', params: { line_item_id: 'nope1' } }, 'NOT_FOUND', 'line_item_id'],
  ];
  it.each(itemErrors)('%s', async (_name, op, code, parameter) => {
    const r = await client.post(batchPath(), {}, { json: [op] });
    expect(r.status, r.text).toBe(400);
    expect(r.body.operation_errors[0]).toContainEqual(expect.objectContaining({ code, parameter }));
  });

  it('a batch of 41 is a request-level error', async () => {
    const r = await client.post(batchPath(), {}, { json: Array.from({ length: 41 }, () => create(campaign.id)) });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe('INVALID_PARAMETER');
    expect(r.body.operation_errors).toBeUndefined();
  });
});

describe('app store identifiers add platform targeting', () => {
  const platforms = async (lineItemId: string): Promise<string[]> => {
    const r = await client.get(`/12/accounts/${account}/targeting_criteria`, { line_item_ids: lineItemId });
    expect(r.status, r.text).toBe(200);
    return r.body.data.filter((t: { targeting_type: string }) => t.targeting_type === 'PLATFORM').map((t: { targeting_value: string }) => t.targeting_value).sort();
  };
  const rows: Array<[string, Record<string, string>, Params, string[]]> = [
    ['no identifier adds nothing', {}, {}, []],
    ['an iOS identifier on create adds iOS (0)', { ios_app_store_identifier: '333903271' }, {}, ['0']],
    ['an Android identifier on create adds Android (1)', { android_app_store_identifier: 'com.acme.outdoor' }, {}, ['1']],
    ['both identifiers add both', { ios_app_store_identifier: '333903271', android_app_store_identifier: 'com.acme.outdoor' }, {}, ['0', '1']],
    ['an identifier set by PUT adds its platform', {}, { android_app_store_identifier: 'com.acme.outdoor' }, ['1']],
    ['changing an identifier adds nothing more', { ios_app_store_identifier: '333903271' }, { ios_app_store_identifier: '333903272' }, ['0']],
  ];
  it.each(rows)('%s', async (_name, create, update, expected) => {
    const li = await createLineItem(client, account, campaign.id, create);
    if (Object.keys(update).length > 0) expect((await client.put(path(`/${li.id}`), update)).status).toBe(200);
    expect(await platforms(li.id)).toEqual(expected);
  });
});

describe('account history', () => {
  const hour = (d: Date, plus: number): string => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000 + plus * 3_600_000).toISOString().replace('.000Z', 'Z');
  it('records CREATE, UPDATE and DELETE of a line item', async () => {
    const li = await createLineItem(client, account, campaign.id);
    await client.put(path(`/${li.id}`), { entity_status: 'PAUSED' });
    await client.delete(path(`/${li.id}`));
    const nowDate = clock.now();
    const r = await client.get(`/12/accounts/${account}/account_history`, { entity_type: 'LINE_ITEM', entity_id: li.id, start_time: hour(nowDate, -1), end_time: hour(nowDate, 2) });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(r.body.data[1].changes.entity_status).toEqual({ old: 'ACTIVE', new: 'PAUSED' });
  });
});

describe('limits: line items', () => {
  let fresh: RunningEmulator;
  let c: TestClient;
  let acct: string;
  const op = (campaignId: string, status = 'ACTIVE'): unknown => ({ operation_type: 'Create', params: { ...base(campaignId), entity_status: status } });
  const batch = async (items: unknown[]): Promise<Reply> => c.post(`/12/batch/accounts/${acct}/line_items`, {}, { json: items });
  const fill = async (campaignId: string, n: number, status = 'ACTIVE'): Promise<string[]> => {
    const ids: string[] = [];
    for (let done = 0; done < n; done += 40) {
      const r = await batch(Array.from({ length: Math.min(40, n - done) }, () => op(campaignId, status)));
      expect(r.status, r.text).toBe(200);
      ids.push(...r.body.data.map((x: { id: string }) => x.id));
    }
    return ids;
  };
  const one = (campaignId: string, status = 'ACTIVE'): Promise<Reply> => c.post(`/12/accounts/${acct}/line_items`, { ...base(campaignId), entity_status: status }, { as: 'form' });
  let full = '';
  let fullIds: string[] = [];
  let spare = '';

  beforeAll(async () => {
    ({ emulator: fresh, client: c, account: acct } = await startTestEmulator({ rateLimitScale: 0 }));
    full = (await createCampaign(c, acct)).id;
    fullIds = await fill(full, 100, 'PAUSED');
    spare = (await createCampaign(c, acct)).id;
  });
  afterAll(() => fresh.close());

  const perCampaign: Array<[string, string]> = [
    ['a 101st ACTIVE line item', 'ACTIVE'],
    ['a 101st PAUSED line item', 'PAUSED'],
    ['a 101st DRAFT line item', 'DRAFT'],
  ];
  it.each(perCampaign)('100 line items per campaign: %s is TOO_MANY_LINE_ITEMS', async (_name, status) => {
    expectError(await one(full, status), 400, 'TOO_MANY_LINE_ITEMS');
  });

  it('deleting one makes room for one more', async () => {
    await c.delete(`/12/accounts/${acct}/line_items/${fullIds[0]}`);
    expect((await one(full, 'PAUSED')).status).toBe(201);
    expectError(await one(full, 'PAUSED'), 400, 'TOO_MANY_LINE_ITEMS');
  });

  it('256 active line items across the account, counted inside a batch and on PUT to ACTIVE', async () => {
    const campaigns = [spare, (await createCampaign(c, acct)).id, (await createCampaign(c, acct)).id];
    await fill(campaigns[0]!, 100);
    await fill(campaigns[1]!, 100);
    await fill(campaigns[2]!, 55);
    const r = await batch([op(campaigns[2]!), op(campaigns[2]!)]);
    expect(r.status).toBe(400);
    expect(r.body.operation_errors).toEqual([[], [expect.objectContaining({ code: 'TOO_MANY_LINE_ITEMS' })]]);
    expect((await one(campaigns[2]!)).status).toBe(201);
    expectError(await one(campaigns[2]!), 400, 'TOO_MANY_LINE_ITEMS');
    expect((await one(campaigns[2]!, 'PAUSED')).status).toBe(201);
    expectError(await c.put(`/12/accounts/${acct}/line_items/${fullIds[1]}`, { entity_status: 'ACTIVE' }), 400, 'TOO_MANY_LINE_ITEMS');
    const some = (await c.get(`/12/accounts/${acct}/line_items`, { campaign_ids: campaigns[0]!, count: 1 })).body.data[0].id;
    expect((await c.put(`/12/accounts/${acct}/line_items/${some}`, { entity_status: 'PAUSED' })).status).toBe(200);
    expect((await c.put(`/12/accounts/${acct}/line_items/${fullIds[1]}`, { entity_status: 'ACTIVE' })).status).toBe(200);
  });
});
