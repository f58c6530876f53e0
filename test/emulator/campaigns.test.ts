import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { SEED_FUNDING_INSTRUMENT_ID, createCampaign, createLineItem } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { expectError, listIds as listIdsOf } from '../support/assertions.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let offsetMs = 0;
const clock = { now: (): Date => new Date(testNow() + offsetMs) };

const CAMPAIGN_FIELDS = [
  'budget_optimization', 'created_at', 'currency', 'daily_budget_amount_local_micro', 'deleted', 'duration_in_days', 'effective_status',
  'entity_status', 'frequency_cap', 'funding_instrument_id', 'id', 'name', 'purchase_order_number', 'reasons_not_servable', 'servable',
  'standard_delivery', 'total_budget_amount_local_micro', 'updated_at',
];

const path = (suffix = ''): string => `/12/accounts/${account}/campaigns${suffix}`;
const batchPath = (): string => `/12/batch/accounts/${account}/campaigns`;


const base = (extra: Params = {}): Params => ({ funding_instrument_id: SEED_FUNDING_INSTRUMENT_ID, name: 'c', daily_budget_amount_local_micro: 50_000_000, ...extra });
const without = (params: Params, key: string): Params => Object.fromEntries(Object.entries(params).filter(([k]) => k !== key));

async function sandboxFundingInstrument(params: Params, accountId = account): Promise<string> {
  const r = await client.post(`/12/accounts/${accountId}/funding_instruments`, params, { base: 'sandbox', as: 'form' });
  expect(r.status, r.text).toBe(201);
  return r.body.data.id;
}


const listIds = (params: Params = {}): Promise<string[]> => listIdsOf(client, path(), params);

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ clock, rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

describe('POST campaigns: defaults and record', () => {
  it('answers 201 with every field of the Campaign table and the request echo', async () => {
    const r = await client.post(path(), base({ name: 'Summer' }), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.request.params).toEqual({ account_id: account, funding_instrument_id: 'lygyi', name: 'Summer', daily_budget_amount_local_micro: 50_000_000 });
    expect(Object.keys(r.body.data).sort()).toEqual(CAMPAIGN_FIELDS);
    expect(r.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body.data.updated_at).toBe(r.body.data.created_at);
    expect(r.body.data.id).toMatch(/^[0-9a-z]+$/);
  });

  const defaults: Array<[string, string, unknown]> = [
    ['budget_optimization defaults to CAMPAIGN', 'budget_optimization', 'CAMPAIGN'],
    ['entity_status defaults to ACTIVE', 'entity_status', 'ACTIVE'],
    ['standard_delivery defaults to true', 'standard_delivery', true],
    ['total budget defaults to null', 'total_budget_amount_local_micro', null],
    ['purchase_order_number defaults to null', 'purchase_order_number', null],
    ['duration_in_days is null', 'duration_in_days', null],
    ['frequency_cap is null', 'frequency_cap', null],
    ['currency comes from the funding instrument', 'currency', 'USD'],
    ['deleted is false', 'deleted', false],
    ['a campaign without line items is not servable', 'servable', false],
    ['a campaign without line items is INCOMPLETE', 'reasons_not_servable', ['INCOMPLETE']],
    ['an incomplete campaign has effective_status UNKNOWN', 'effective_status', 'UNKNOWN'],
  ];
  it.each(defaults)('%s', async (_name, field, value) => {
    const c = await createCampaign(client, account);
    expect(c[field]).toEqual(value);
  });

  const given: Array<[string, Params, Record<string, unknown>]> = [
    ['a PAUSED campaign shows PAUSED_BY_ADVERTISER and INCOMPLETE', { entity_status: 'PAUSED' }, { entity_status: 'PAUSED', servable: false, reasons_not_servable: ['PAUSED_BY_ADVERTISER', 'INCOMPLETE'], effective_status: 'UNKNOWN' }],
    ['a DRAFT campaign is INCOMPLETE', { entity_status: 'DRAFT' }, { entity_status: 'DRAFT', servable: false, reasons_not_servable: ['INCOMPLETE'] }],
    ['LINE_ITEM budget optimization has standard_delivery null', { budget_optimization: 'LINE_ITEM' }, { budget_optimization: 'LINE_ITEM', standard_delivery: null }],
    ['standard_delivery false is kept', { standard_delivery: false }, { standard_delivery: false }],
    ['a total budget is kept', { total_budget_amount_local_micro: 500_000_000 }, { total_budget_amount_local_micro: 500_000_000 }],
    ['daily equal to total is allowed', { daily_budget_amount_local_micro: 10_000_000, total_budget_amount_local_micro: 10_000_000 }, { daily_budget_amount_local_micro: 10_000_000 }],
    ['a 255-character name is allowed', { name: 'n'.repeat(255) }, { name: 'n'.repeat(255) }],
    ['a 50-character purchase order number is allowed', { purchase_order_number: 'p'.repeat(50) }, { purchase_order_number: 'p'.repeat(50) }],
  ];
  it.each(given)('%s', async (_name, params, expected) => {
    const r = await client.post(path(), base(params), { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject(expected);
  });

  it('accepts the parameters in the query string as well', async () => {
    const r = await client.post(path(), base({ name: 'query' }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.name).toBe('query');
  });
});

describe('POST campaigns: validation', () => {
  const rows: Array<[string, Params, number, string, string]> = [
    ['funding_instrument_id is required', without(base(), 'funding_instrument_id'), 400, 'MISSING_PARAMETER', 'funding_instrument_id'],
    ['name is required', without(base(), 'name'), 400, 'MISSING_PARAMETER', 'name'],
    ['name is at most 255 characters', base({ name: 'n'.repeat(256) }), 400, 'INVALID_PARAMETER', 'name'],
    ['budget_optimization is an enum', base({ budget_optimization: 'ACCOUNT' }), 400, 'INVALID_PARAMETER', 'budget_optimization'],
    ['entity_status is an enum', base({ entity_status: 'RUNNING' }), 400, 'INVALID_PARAMETER', 'entity_status'],
    ['the daily budget is a long', base({ daily_budget_amount_local_micro: '1.5' }), 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['the daily budget is positive', base({ daily_budget_amount_local_micro: 0 }), 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['the total budget is positive', base({ total_budget_amount_local_micro: -5 }), 400, 'INVALID_PARAMETER', 'total_budget_amount_local_micro'],
    ['daily must not exceed total', base({ daily_budget_amount_local_micro: 20_000_000, total_budget_amount_local_micro: 10_000_000 }), 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['a credit card campaign needs a daily budget', without(base(), 'daily_budget_amount_local_micro'), 400, 'MISSING_PARAMETER', 'daily_budget_amount_local_micro'],
    ['purchase_order_number is at most 50 characters', base({ purchase_order_number: 'p'.repeat(51) }), 400, 'INVALID_PARAMETER', 'purchase_order_number'],
    ['standard_delivery is a boolean', base({ standard_delivery: 'yes' }), 400, 'INVALID_PARAMETER', 'standard_delivery'],
    ['standard_delivery only with CAMPAIGN optimization', base({ budget_optimization: 'LINE_ITEM', standard_delivery: true }), 400, 'INVALID_PARAMETER', 'standard_delivery'],
    ['an unknown funding instrument is not found', base({ funding_instrument_id: 'zzzzz' }), 404, 'NOT_FOUND', 'funding_instrument_id'],
    ['unknown parameters are refused', base({ colour: 'blue' }), 400, 'INVALID_PARAMETER', 'colour'],
    ['duration_in_days cannot be set', base({ duration_in_days: 7 }), 400, 'INVALID_PARAMETER', 'duration_in_days'],
    ['frequency_cap cannot be set', base({ frequency_cap: 3 }), 400, 'INVALID_PARAMETER', 'frequency_cap'],
    ['currency cannot be set', base({ currency: 'EUR' }), 400, 'INVALID_PARAMETER', 'currency'],
  ];
  it.each(rows)('%s', async (_name, params, status, code, parameter) => {
    const before = (await listIds({ with_draft: true, with_deleted: true })).length;
    const r = await client.post(path(), params, { as: 'form' });
    expectError(r, status, code, parameter);
    expect(await listIds({ with_draft: true, with_deleted: true })).toHaveLength(before);
  });

  it('reports every parameter problem at once', async () => {
    const r = await client.post(path(), { funding_instrument_id: 'lygyi', entity_status: 'NOPE', purchase_order_number: 'p'.repeat(60) }, { as: 'form' });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual(['entity_status', 'name', 'purchase_order_number']);
  });
});

describe('POST campaigns: funding instruments', () => {
  it('an insertion order campaign needs no daily budget', async () => {
    const fi = await sandboxFundingInstrument({ currency: 'EUR', start_time: '2026-01-01T00:00:00Z', end_time: '2027-01-01T00:00:00Z', type: 'INSERTION_ORDER', funded_amount_local_micro: 1_000_000_000 });
    const c = await createCampaign(client, account, { funding_instrument_id: fi, daily_budget_amount_local_micro: null });
    expect(c).toMatchObject({ funding_instrument_id: fi, daily_budget_amount_local_micro: null, currency: 'EUR' });
  });

  it('a deleted funding instrument is not found', async () => {
    const fi = await sandboxFundingInstrument({ currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' });
    expect((await client.delete(`/12/accounts/${account}/funding_instruments/${fi}`, {}, { base: 'sandbox' })).status).toBe(200);
    expectError(await client.post(path(), base({ funding_instrument_id: fi }), { as: 'form' }), 404, 'NOT_FOUND', 'funding_instrument_id');
  });

  it("another account's funding instrument is not found", async () => {
    const other = await client.post('/12/accounts', {}, { base: 'sandbox' });
    expect(other.status, other.text).toBe(201);
    const fi = await sandboxFundingInstrument({ currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' }, other.body.data[0].id);
    expectError(await client.post(path(), base({ funding_instrument_id: fi }), { as: 'form' }), 404, 'NOT_FOUND', 'funding_instrument_id');
  });

  it('a campaign whose funding instrument is deleted later shows FUNDING_PROBLEM', async () => {
    const fi = await sandboxFundingInstrument({ currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' });
    const c = await createCampaign(client, account, { funding_instrument_id: fi });
    await client.delete(`/12/accounts/${account}/funding_instruments/${fi}`, {}, { base: 'sandbox' });
    const r = await client.get(path(`/${c.id}`));
    expect(r.body.data).toMatchObject({ servable: false, reasons_not_servable: ['INCOMPLETE', 'FUNDING_PROBLEM'], effective_status: 'UNKNOWN' });
  });

  it('lists campaigns by funding_instrument_ids', async () => {
    const fi = await sandboxFundingInstrument({ currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' });
    const a = await createCampaign(client, account, { funding_instrument_id: fi });
    const b = await createCampaign(client, account, { funding_instrument_id: fi });
    expect(await listIds({ funding_instrument_ids: fi })).toEqual([a.id, b.id]);
  });
});

describe('serving status follows the line items', () => {
  const rows: Array<[string, 'ACTIVE' | 'PAUSED', 'ACTIVE' | 'PAUSED', Record<string, unknown>]> = [
    ['active campaign, active line item: RUNNING', 'ACTIVE', 'ACTIVE', { servable: true, reasons_not_servable: [], effective_status: 'RUNNING' }],
    ['paused campaign, active line item: PAUSED', 'PAUSED', 'ACTIVE', { servable: false, reasons_not_servable: ['PAUSED_BY_ADVERTISER'], effective_status: 'PAUSED' }],
    ['active campaign, paused line item: INCOMPLETE', 'ACTIVE', 'PAUSED', { servable: false, reasons_not_servable: ['INCOMPLETE'], effective_status: 'UNKNOWN' }],
  ];
  it.each(rows)('%s', async (_name, campaignStatus, lineItemStatus, expected) => {
    const c = await createCampaign(client, account, { entity_status: campaignStatus });
    await createLineItem(client, account, c.id, { entity_status: lineItemStatus });
    expect((await client.get(path(`/${c.id}`))).body.data).toMatchObject(expected);
    expect((await client.get(path(), { campaign_ids: c.id })).body.data[0]).toMatchObject(expected);
  });

  it('deleting the only active line item makes the campaign INCOMPLETE again', async () => {
    const c = await createCampaign(client, account);
    const li = await createLineItem(client, account, c.id);
    expect((await client.get(path(`/${c.id}`))).body.data.servable).toBe(true);
    await client.delete(`/12/accounts/${account}/line_items/${li.id}`);
    expect((await client.get(path(`/${c.id}`))).body.data).toMatchObject({ servable: false, reasons_not_servable: ['INCOMPLETE'] });
  });
});

describe('GET campaigns/:id', () => {
  it('answers the record with the request echo', async () => {
    const c = await createCampaign(client, account);
    const r = await client.get(path(`/${c.id}`));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account, campaign_id: c.id } }, data: c });
  });
  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectError(await client.get(path('/nope1')), 404, 'NOT_FOUND', 'campaign_id');
  });
  it('refuses unknown parameters', async () => {
    const c = await createCampaign(client, account);
    expectError(await client.get(path(`/${c.id}`), { with_draft: true }), 400, 'INVALID_PARAMETER', 'with_draft');
  });
});

describe('PUT campaigns/:id', () => {
  const rows: Array<[string, Params, Params, Record<string, unknown>]> = [
    ['entity_status ACTIVE to PAUSED', {}, { entity_status: 'PAUSED' }, { entity_status: 'PAUSED', reasons_not_servable: ['PAUSED_BY_ADVERTISER', 'INCOMPLETE'] }],
    ['entity_status PAUSED to ACTIVE', { entity_status: 'PAUSED' }, { entity_status: 'ACTIVE' }, { entity_status: 'ACTIVE' }],
    ['a DRAFT campaign can be made ACTIVE', { entity_status: 'DRAFT' }, { entity_status: 'ACTIVE' }, { entity_status: 'ACTIVE' }],
    ['name changes', {}, { name: 'renamed' }, { name: 'renamed' }],
    ['an empty purchase order number unsets it', { purchase_order_number: 'PO-1' }, { purchase_order_number: '' }, { purchase_order_number: null }],
    ['an empty total unsets it', { total_budget_amount_local_micro: 900_000_000 }, { total_budget_amount_local_micro: '' }, { total_budget_amount_local_micro: null }],
    ['an empty daily budget unsets it while a total remains', { total_budget_amount_local_micro: 900_000_000 }, { daily_budget_amount_local_micro: '' }, { daily_budget_amount_local_micro: null }],
    ['LINE_ITEM optimization nulls standard_delivery', {}, { budget_optimization: 'LINE_ITEM' }, { budget_optimization: 'LINE_ITEM', standard_delivery: null }],
    ['back to CAMPAIGN optimization restores standard_delivery true', { budget_optimization: 'LINE_ITEM' }, { budget_optimization: 'CAMPAIGN' }, { standard_delivery: true }],
    ['standard_delivery changes', {}, { standard_delivery: false }, { standard_delivery: false }],
    ['budgets change together', {}, { daily_budget_amount_local_micro: 5_000_000, total_budget_amount_local_micro: 6_000_000 }, { daily_budget_amount_local_micro: 5_000_000, total_budget_amount_local_micro: 6_000_000 }],
  ];
  it.each(rows)('%s', async (_name, create, update, expected) => {
    const c = await createCampaign(client, account, create);
    offsetMs += 2000;
    const r = await client.put(path(`/${c.id}`), update, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject(expected);
    expect(r.body.data.updated_at > c.updated_at).toBe(true);
    expect(r.body.data.created_at).toBe(c.created_at);
    expect((await client.get(path(`/${c.id}`))).body.data).toEqual(r.body.data);
  });

  const refused: Array<[string, Params, Params, number, string, string]> = [
    ['entity_status DRAFT is not allowed on update', {}, { entity_status: 'DRAFT' }, 400, 'INVALID_PARAMETER', 'entity_status'],
    ['an empty name is refused', {}, { name: '' }, 400, 'INVALID_PARAMETER', 'name'],
    ['a 256-character name is refused', {}, { name: 'n'.repeat(256) }, 400, 'INVALID_PARAMETER', 'name'],
    ['a 51-character purchase order number is refused', {}, { purchase_order_number: 'p'.repeat(51) }, 400, 'INVALID_PARAMETER', 'purchase_order_number'],
    ['daily above the existing total is refused', { total_budget_amount_local_micro: 100_000_000 }, { daily_budget_amount_local_micro: 200_000_000 }, 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['a total below the existing daily is refused', {}, { total_budget_amount_local_micro: 1_000_000 }, 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['the daily budget cannot be unset without a total', {}, { daily_budget_amount_local_micro: '' }, 400, 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
    ['standard_delivery with LINE_ITEM optimization is refused', { budget_optimization: 'LINE_ITEM' }, { standard_delivery: true }, 400, 'INVALID_PARAMETER', 'standard_delivery'],
    ['funding_instrument_id cannot be changed', {}, { funding_instrument_id: 'other1' }, 400, 'INVALID_PARAMETER', 'funding_instrument_id'],
    ['unknown parameters are refused', {}, { colour: 'blue' }, 400, 'INVALID_PARAMETER', 'colour'],
  ];
  it.each(refused)('%s', async (_name, create, update, status, code, parameter) => {
    const c = await createCampaign(client, account, create);
    expectError(await client.put(path(`/${c.id}`), update, { as: 'form' }), status, code, parameter);
    expect((await client.get(path(`/${c.id}`))).body.data).toEqual(c);
  });

  it('a total below a line item total is refused', async () => {
    const c = await createCampaign(client, account, { total_budget_amount_local_micro: 500_000_000 });
    await createLineItem(client, account, c.id, { total_budget_amount_local_micro: 300_000_000 });
    expectError(await client.put(path(`/${c.id}`), { total_budget_amount_local_micro: 200_000_000 }, { as: 'form' }), 400, 'INVALID_PARAMETER', 'total_budget_amount_local_micro');
  });

  it('answers 404 for an unknown or deleted campaign', async () => {
    expectError(await client.put(path('/nope1'), { name: 'x' }), 404, 'NOT_FOUND', 'campaign_id');
    const c = await createCampaign(client, account);
    await client.delete(path(`/${c.id}`));
    expectError(await client.put(path(`/${c.id}`), { name: 'x' }), 404, 'NOT_FOUND', 'campaign_id');
  });
});

describe('DELETE campaigns/:id and deleted records', () => {
  it('answers the record with deleted=true; a second DELETE is 404', async () => {
    const c = await createCampaign(client, account);
    const r = await client.delete(path(`/${c.id}`));
    expect(r.status).toBe(200);
    expect(r.body.request.params).toEqual({ account_id: account, campaign_id: c.id });
    expect(r.body.data).toMatchObject({ id: c.id, deleted: true, servable: false, reasons_not_servable: ['DELETED'] });
    expectError(await client.delete(path(`/${c.id}`)), 404, 'NOT_FOUND', 'campaign_id');
  });

  const reads: Array<[string, Params, boolean]> = [
    ['GET by id without with_deleted is 404', {}, false],
    ['GET by id with with_deleted=true finds it', { with_deleted: true }, true],
  ];
  it.each(reads)('%s', async (_name, params, found) => {
    const c = await createCampaign(client, account);
    await client.delete(path(`/${c.id}`));
    const r = await client.get(path(`/${c.id}`), params);
    expect(r.status).toBe(found ? 200 : 404);
  });

  const lists: Array<[string, Params, boolean]> = [
    ['left out of lists by default', {}, false],
    ['listed with with_deleted=true', { with_deleted: true }, true],
    ['left out of an id filter by default', { campaign_ids: '$id' }, false],
    ['in an id filter with with_deleted=true', { campaign_ids: '$id', with_deleted: true }, true],
  ];
  it.each(lists)('%s', async (_name, params, listed) => {
    const c = await createCampaign(client, account);
    await client.delete(path(`/${c.id}`));
    const resolved = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === '$id' ? c.id : v])) as Params;
    expect((await listIds(resolved)).includes(c.id)).toBe(listed);
  });
});

describe('GET campaigns (list)', () => {
  let ids: string[] = [];
  let draft = '';
  beforeAll(async () => {
    const names = ['Alpha one', 'alpha two', 'Beta', 'Gamma'];
    ids = [];
    for (const [i, name] of names.entries()) ids.push((await createCampaign(client, account, { name, daily_budget_amount_local_micro: (i + 1) * 10_000_000 })).id);
    draft = (await createCampaign(client, account, { name: 'Alpha draft', entity_status: 'DRAFT' })).id;
  });

  const rows: Array<[string, () => Params, () => string[]]> = [
    ['campaign_ids filters and keeps creation order', () => ({ campaign_ids: [ids[2]!, ids[0]!].join(',') }), () => [ids[0]!, ids[2]!]],
    ['drafts are left out by default', () => ({ campaign_ids: [ids[0]!, draft].join(',') }), () => [ids[0]!]],
    ['with_draft=true includes drafts and non-drafts', () => ({ campaign_ids: [ids[0]!, draft].join(','), with_draft: true }), () => [ids[0]!, draft]],
    ['q is a case-insensitive name prefix', () => ({ campaign_ids: [...ids, draft].join(','), q: 'ALPHA' }), () => [ids[0]!, ids[1]!]],
    ['sort_by daily budget descending', () => ({ campaign_ids: ids.join(','), sort_by: 'daily_budget_amount_local_micro-desc' }), () => [...ids].reverse()],
    ['sort_by name ascending', () => ({ campaign_ids: ids.join(','), sort_by: 'name-asc' }), () => [ids[0]!, ids[1]!, ids[2]!, ids[3]!]],
  ];
  it.each(rows)('%s', async (_name, params, expected) => {
    expect(await listIds(params())).toEqual(expected());
  });

  it('pages with count and next_cursor without repeating records', async () => {
    const all = await listIds();
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const r: Reply = await client.get(path(), cursor === null ? { count: 7 } : { count: 7, cursor });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...r.body.data.map((c: { id: string }) => c.id));
      cursor = r.body.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(all);
  });

  it('with_total_count adds total_count', async () => {
    const r = await client.get(path(), { campaign_ids: [...ids, draft].join(','), with_total_count: true });
    expect(r.body.total_count).toBe(4);
    expect(r.body.request.params).toEqual({ account_id: account, campaign_ids: [...ids, draft], with_total_count: true });
  });

  const refused: Array<[string, Params, string]> = [
    ['more than 200 campaign_ids', { campaign_ids: Array.from({ length: 201 }, (_, i) => `c${i}`).join(',') }, 'campaign_ids'],
    ['more than 200 funding_instrument_ids', { funding_instrument_ids: Array.from({ length: 201 }, (_, i) => `f${i}`).join(',') }, 'funding_instrument_ids'],
    ['an unsupported sort_by attribute', { sort_by: 'currency-asc' }, 'sort_by'],
    ['a q longer than 255', { q: 'q'.repeat(256) }, 'q'],
    ['count above 1000', { count: 1001 }, 'count'],
    ['with_draft that is not a boolean', { with_draft: 'sometimes' }, 'with_draft'],
    ['an unknown parameter', { line_item_ids: 'abc' }, 'line_item_ids'],
  ];
  it.each(refused)('refuses %s', async (_name, params, parameter) => {
    expectError(await client.get(path(), params), 400, 'INVALID_PARAMETER', parameter);
  });
});

describe('POST batch/campaigns', () => {
  const item = (name: string, extra: Params = {}): unknown => ({ operation_type: 'Create', params: { funding_instrument_id: 'lygyi', name, daily_budget_amount_local_micro: 10_000_000, ...extra } });

  it('creates, updates and deletes in one request, answering in input order', async () => {
    const a = await createCampaign(client, account);
    const b = await createCampaign(client, account);
    const r = await client.post(batchPath(), {}, {
      json: [
        item('batch new'),
        { operation_type: 'Update', params: { campaign_id: a.id, entity_status: 'PAUSED' } },
        { operation_type: 'Delete', params: { campaign_id: b.id } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual(['batch new', a.name, b.name]);
    expect(r.body.data[1].entity_status).toBe('PAUSED');
    expect(r.body.data[2].deleted).toBe(true);
    expect(r.body.request).toEqual([
      { params: { account_id: account, funding_instrument_id: 'lygyi', name: 'batch new', daily_budget_amount_local_micro: 10_000_000 }, operation_type: 'Create' },
      { params: { account_id: account, campaign_id: a.id, entity_status: 'PAUSED' }, operation_type: 'Update' },
      { params: { account_id: account, campaign_id: b.id }, operation_type: 'Delete' },
    ]);
    expect((await client.get(path(`/${r.body.data[0].id}`))).status).toBe(200);
  });

  it('an invalid item in position 3 fails the whole batch with aligned operation_errors', async () => {
    const before = await listIds({ with_draft: true, with_deleted: true });
    const r = await client.post(batchPath(), {}, { json: [item('b1'), item('b2'), item('b3', { entity_status: 'BOGUS' }), item('b4')] });
    expect(r.status).toBe(400);
    expect(r.body.operation_errors).toHaveLength(4);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1]).toEqual([]);
    expect(r.body.operation_errors[2]).toEqual([expect.objectContaining({ code: 'INVALID_PARAMETER', parameter: 'entity_status' })]);
    expect(r.body.operation_errors[3]).toEqual([]);
    expect(r.body.request).toHaveLength(4);
    expect(await listIds({ with_draft: true, with_deleted: true })).toEqual(before);
  });

  it('a failed Update leaves earlier items of the batch undone', async () => {
    const a = await createCampaign(client, account);
    const r = await client.post(batchPath(), {}, {
      json: [
        { operation_type: 'Update', params: { campaign_id: a.id, name: 'changed' } },
        { operation_type: 'Delete', params: { campaign_id: 'nope1' } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.operation_errors[1]).toEqual([expect.objectContaining({ code: 'NOT_FOUND', parameter: 'campaign_id' })]);
    expect((await client.get(path(`/${a.id}`))).body.data.name).toBe(a.name);
  });

  const itemErrors: Array<[string, unknown, string, string]> = [
    ['Update needs campaign_id', { operation_type: 'Update', params: { name: 'x' } }, 'MISSING_PARAMETER', 'campaign_id'],
    ['Delete needs campaign_id', { operation_type: 'Delete', params: {} }, 'MISSING_PARAMETER', 'campaign_id'],
    ['operation_type must be Create, Update or Delete', { operation_type: 'Upsert', params: {} }, 'INVALID_PARAMETER', 'operation_type'],
    ['Update refuses DRAFT', { operation_type: 'Update', params: { campaign_id: 'nope1', entity_status: 'DRAFT' } }, 'INVALID_PARAMETER', 'entity_status'],
    ['JSON numbers are type-checked', item('typed', { daily_budget_amount_local_micro: 'ten' }), 'INVALID_PARAMETER', 'daily_budget_amount_local_micro'],
  ];
  it.each(itemErrors)('%s', async (_name, op, code, parameter) => {
    const r = await client.post(batchPath(), {}, { json: [op] });
    expect(r.status, r.text).toBe(400);
    expect(r.body.operation_errors[0]).toContainEqual(expect.objectContaining({ code, parameter }));
  });

  it('a batch of 41 is a request-level error', async () => {
    const r = await client.post(batchPath(), {}, { json: Array.from({ length: 41 }, (_, i) => item(`x${i}`)) });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe('INVALID_PARAMETER');
    expect(r.body.operation_errors).toBeUndefined();
  });

  it('a batch needs a JSON body', async () => {
    expect((await client.post(batchPath(), { name: 'x' }, { as: 'form' })).status).toBe(400);
  });
});

describe('permissions', () => {
  const rows: Array<[string, string, 'GET' | 'POST', string, number]> = [
    ['AD_MANAGER creates campaigns', 'adsctl_manager', 'POST', '/campaigns', 201],
    ['CAMPAIGN_ANALYST reads campaigns', 'adsctl_analyst', 'GET', '/campaigns', 200],
    ['CAMPAIGN_ANALYST cannot create campaigns', 'adsctl_analyst', 'POST', '/campaigns', 403],
    ['CREATIVE_MANAGER reads campaigns', 'adsctl_creative', 'GET', '/campaigns', 200],
    ['CREATIVE_MANAGER cannot create campaigns', 'adsctl_creative', 'POST', '/campaigns', 403],
    ['CAMPAIGN_ANALYST reads line items', 'adsctl_analyst', 'GET', '/line_items', 200],
    ['CAMPAIGN_ANALYST cannot create line items', 'adsctl_analyst', 'POST', '/line_items', 403],
    ['AD_MANAGER creates line items', 'adsctl_manager', 'POST', '/line_items', 201],
    ['CAMPAIGN_ANALYST reads line item curated categories', 'adsctl_analyst', 'GET', '/line_item_curated_categories', 200],
    ['CAMPAIGN_ANALYST cannot create line item curated categories', 'adsctl_analyst', 'POST', '/line_item_curated_categories', 403],
    ['a user without access to the account cannot read campaigns', 'adsctl_outsider', 'GET', '/campaigns', 403],
  ];
  it.each(rows)('%s', async (_name, screenName, method, suffix, status) => {
    const c = await createCampaign(client, account);
    const li = await createLineItem(client, account, c.id, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS' });
    const bodies: Record<string, Params> = {
      '/campaigns': base(),
      '/line_items': { campaign_id: c.id, product_type: 'MEDIA', objective: 'PREROLL_VIEWS', placements: 'ALL_ON_SERVICE', start_time: '2030-01-01T00:00:00Z' },
      '/line_item_curated_categories': { line_item_id: li.id, curated_category_id: '1hd2' },
    };
    const user = client.as(await loginAs(client, screenName));
    const url = `/12/accounts/${account}${suffix}`;
    const r = method === 'GET' ? await user.get(url) : await user.post(url, bodies[suffix]!, { as: 'form' });
    expect(r.status, r.text).toBe(status);
    if (status === 403) expect(['ACTION_NOT_ALLOWED', 'ACCOUNT_NOT_FOUND']).toContain(r.body.errors[0].code);
  });
});

describe('account history', () => {
  const hour = (d: Date, plus: number): string => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000 + plus * 3_600_000).toISOString().replace('.000Z', 'Z');
  it('records CREATE, UPDATE and DELETE of a campaign', async () => {
    const c = await createCampaign(client, account);
    await client.put(path(`/${c.id}`), { name: 'changed' });
    await client.delete(path(`/${c.id}`));
    const nowDate = clock.now();
    const r = await client.get(`/12/accounts/${account}/account_history`, { entity_type: 'CAMPAIGN', entity_id: c.id, start_time: hour(nowDate, -1), end_time: hour(nowDate, 2) });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(r.body.data[1].changes.name).toEqual({ old: c.name, new: 'changed' });
  });
});

describe('limit: 200 active campaigns per account', () => {
  let fresh: RunningEmulator;
  let c: TestClient;
  let acct: string;
  const create = (name: string, status = 'ACTIVE'): unknown => ({
    operation_type: 'Create',
    params: { funding_instrument_id: 'lygyi', name, daily_budget_amount_local_micro: 10_000_000, entity_status: status },
  });
  const batch = (items: unknown[]): Promise<Reply> => c.post(`/12/batch/accounts/${acct}/campaigns`, {}, { json: items });
  const single = (params: Params): Promise<Reply> =>
    c.post(`/12/accounts/${acct}/campaigns`, { funding_instrument_id: 'lygyi', name: 'one more', daily_budget_amount_local_micro: 10_000_000, ...params }, { as: 'form' });
  let first = '';
  let paused = '';

  beforeAll(async () => {
    ({ emulator: fresh, client: c, account: acct } = await startTestEmulator({ rateLimitScale: 0 }));
    for (let b = 0; b < 5; b++) {
      const r = await batch(Array.from({ length: 40 }, (_, i) => create(`active ${b * 40 + i}`)));
      expect(r.status, r.text).toBe(200);
      if (b === 0) first = r.body.data[0].id;
    }
    const p = await single({ entity_status: 'PAUSED' });
    expect(p.status, p.text).toBe(201);
    paused = p.body.data.id;
  });
  afterAll(() => fresh.close());

  it('the 201st ACTIVE campaign is refused with TOO_MANY_CAMPAIGNS', async () => {
    expectError(await single({}), 400, 'TOO_MANY_CAMPAIGNS');
  });

  const inactive: Array<[string, string]> = [
    ['PAUSED campaigns are unlimited', 'PAUSED'],
    ['DRAFT campaigns are unlimited', 'DRAFT'],
  ];
  it.each(inactive)('%s', async (_name, status) => {
    expect((await single({ entity_status: status })).status).toBe(201);
  });

  it('a PUT to ACTIVE is refused while the account is full', async () => {
    expectError(await c.put(`/12/accounts/${acct}/campaigns/${paused}`, { entity_status: 'ACTIVE' }), 400, 'TOO_MANY_CAMPAIGNS');
  });

  it('a batch counts its own earlier items: one free slot, two ACTIVE creates → the second fails, nothing kept', async () => {
    expect((await c.delete(`/12/accounts/${acct}/campaigns/${first}`)).status).toBe(200);
    const r = await batch([create('fits'), create('too many')]);
    expect(r.status).toBe(400);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1]).toEqual([expect.objectContaining({ code: 'TOO_MANY_CAMPAIGNS' })]);
    const created = await single({});
    expect(created.status, created.text).toBe(201);
    expectError(await single({}), 400, 'TOO_MANY_CAMPAIGNS');
  });

  it('pausing an active campaign frees a slot for another', async () => {
    const list = await c.get(`/12/accounts/${acct}/campaigns`, { count: 1 });
    const victim = list.body.data[0].id;
    expect((await c.put(`/12/accounts/${acct}/campaigns/${victim}`, { entity_status: 'PAUSED' })).status).toBe(200);
    expect((await c.put(`/12/accounts/${acct}/campaigns/${paused}`, { entity_status: 'ACTIVE' })).status).toBe(200);
    expectError(await c.put(`/12/accounts/${acct}/campaigns/${victim}`, { entity_status: 'ACTIVE' }), 400, 'TOO_MANY_CAMPAIGNS');
  });
});
