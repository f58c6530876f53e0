import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError } from '../support/assertions.js';
import { SEED_PUBLIC_USERS } from '../../src/emulator/store/seed.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let campaignId: string;
let campaignName: string;

const path = (suffix = ''): string => `/12/accounts/${account}/targeting_criteria${suffix}`;
const batchPath = (): string => `/12/batch/accounts/${account}/targeting_criteria`;
const OWNER = '756201191646691328';
const US = '96683cc9126741d1';
const SF = '5122804691e5fecc';
const TC_FIELDS = ['created_at', 'deleted', 'id', 'line_item_id', 'name', 'operator_type', 'targeting_type', 'targeting_value', 'updated_at'];


async function lineItem(overrides: Record<string, Params[string] | null> = {}): Promise<string> {
  return (await createLineItem(client, account, campaignId, overrides)).id;
}

async function criterion(lineItemId: string, type: string, value: string, extra: Params = {}): Promise<any> {
  const r = await client.post(path(), { line_item_id: lineItemId, targeting_type: type, targeting_value: value, ...extra }, { as: 'form' });
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}

async function listAll(lineItemId: string, extra: Params = {}): Promise<any[]> {
  const r = await client.get(path(), { line_item_ids: lineItemId, count: 1000, ...extra });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

async function batch(items: unknown[]): Promise<Reply> {
  return client.post(batchPath(), {}, { json: items });
}

const creates = (lineItemId: string, type: string, values: readonly string[]): unknown[] =>
  values.map((v) => ({ operation_type: 'Create', params: { line_item_id: lineItemId, targeting_type: type, targeting_value: v } }));

/** A window of whole hours around now, for account_history. */
function historyWindow(): { start_time: string; end_time: string } {
  const hour = Math.floor(testNow() / 3_600_000) * 3_600_000;
  const fmt = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { start_time: fmt(hour - 3_600_000), end_time: fmt(hour + 7_200_000) };
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  const campaign = await createCampaign(client, account);
  campaignId = campaign.id;
  campaignName = campaign.name;
});
afterAll(() => emulator.close());

describe('POST targeting_criteria: values the service knows, with server-computed fields', () => {
  const rows: Array<[string, string, string, Params, Record<string, unknown>, 'query' | 'form']> = [
    ['a country location gets its name and location_type COUNTRY', 'LOCATION', US, {}, { name: 'United States', location_type: 'COUNTRY' }, 'form'],
    ['the documented city location', 'LOCATION', SF, {}, { name: 'San Francisco-Oakland-San Jose CA, US', location_type: 'CITY' }, 'query'],
    ['a language code', 'LANGUAGE', 'en', {}, { name: 'English' }, 'form'],
    ['GENDER 2 is female', 'GENDER', '2', {}, { name: 'Female' }, 'form'],
    ['an AGE bucket', 'AGE', 'AGE_18_TO_34', {}, { name: 'Age 18 to 34' }, 'form'],
    ['a PLATFORM id', 'PLATFORM', '1', {}, { name: 'Android' }, 'form'],
    ['an INTEREST', 'INTEREST', '1001', {}, { name: 'Books and literature/Biographies and memoirs' }, 'form'],
    ['a DEVICE', 'DEVICE', '1q', {}, { name: 'iPhone 3GS' }, 'form'],
    ['a NETWORK_OPERATOR', 'NETWORK_OPERATOR', '2l', {}, { name: 'Advantage' }, 'form'],
    ['a PLATFORM_VERSION', 'PLATFORM_VERSION', '17', {}, { name: 'Ice Cream Sandwich' }, 'form'],
    ['an APP_STORE_CATEGORY', 'APP_STORE_CATEGORY', 'qouq', {}, { name: 'Games: Music' }, 'form'],
    ['a CONVERSATION', 'CONVERSATION', 'a1', {}, { name: 'NFL' }, 'form'],
    ['FOLLOWERS_OF_USER names the known user', 'FOLLOWERS_OF_USER', '2244994945', {}, { name: '@acme_gear' }, 'form'],
    ['SIMILAR_TO_FOLLOWERS_OF_USER names the known user', 'SIMILAR_TO_FOLLOWERS_OF_USER', '783214', {}, { name: '@acme_trails' }, 'form'],
    ['USER_ENGAGEMENT takes a promotable user', 'USER_ENGAGEMENT', OWNER, {}, { name: '@adsctl_owner' }, 'form'],
    ['ENGAGEMENT_TYPE', 'ENGAGEMENT_TYPE', 'ENGAGEMENT', {}, { name: 'Engagement' }, 'form'],
    ['a keyword with reserved characters through the query string', 'BROAD_KEYWORD', 'café, ünïcode: 100% + more', {}, { name: 'café, ünïcode: 100% + more' }, 'query'],
    ['a keyword with reserved characters through a form body', 'PHRASE_KEYWORD', 'café, ünïcode: 100% + more', {}, { name: 'café, ünïcode: 100% + more' }, 'form'],
    ['a card:// style keyword through the query string', 'EXACT_KEYWORD', 'card://1321554298900107264', {}, { name: 'card://1321554298900107264' }, 'query'],
    ['a card:// style keyword through a form body', 'UNORDERED_KEYWORD', 'card://1321554298900107264?a=b&c=d', {}, { name: 'card://1321554298900107264?a=b&c=d' }, 'form'],
    ['a keyword exclusion with operator_type NE', 'BROAD_KEYWORD', 'spam', { operator_type: 'NE' }, { name: 'spam', operator_type: 'NE' }, 'form'],
    ['NETWORK_ACTIVATION_DURATION with GTE', 'NETWORK_ACTIVATION_DURATION', '3', { operator_type: 'GTE' }, { name: '3 months', operator_type: 'GTE' }, 'form'],
    ['NETWORK_ACTIVATION_DURATION with LT', 'NETWORK_ACTIVATION_DURATION', '12', { operator_type: 'LT' }, { name: '12 months', operator_type: 'LT' }, 'form'],
    ['APP_LIST with NE', 'APP_LIST', 'applist1', { operator_type: 'NE' }, { operator_type: 'NE' }, 'form'],
  ];
  let shared: string;
  beforeAll(async () => {
    shared = await lineItem();
  });
  it.each(rows)('%s', async (_name, type, value, extra, expected, as) => {
    const r = await client.post(path(), { line_item_id: shared, targeting_type: type, targeting_value: value, ...extra }, { as });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ line_item_id: shared, targeting_type: type, targeting_value: value, operator_type: 'EQ', deleted: false, ...expected });
    expect(r.body.request.params).toMatchObject({ account_id: account, line_item_id: shared, targeting_type: type, targeting_value: value });
    const got = await client.get(path(`/${r.body.data.id}`));
    expect(got.body.data.targeting_value).toBe(value);
  });

  it('returns exactly the record fields, LOCATION adding location_type; operator_type defaults to EQ', async () => {
    const li = await lineItem();
    const keyword = await criterion(li, 'BROAD_KEYWORD', 'tents');
    expect(Object.keys(keyword).sort()).toEqual(TC_FIELDS);
    expect(keyword.operator_type).toBe('EQ');
    expect(keyword.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(keyword.updated_at).toBe(keyword.created_at);
    const location = await criterion(li, 'LOCATION', US);
    expect(Object.keys(location).sort()).toEqual([...TC_FIELDS, 'location_type'].sort());
  });

  it('CAMPAIGN_ENGAGEMENT takes a campaign of the account and is named after it', async () => {
    const data = await criterion(await lineItem(), 'CAMPAIGN_ENGAGEMENT', campaignId);
    expect(data.name).toBe(campaignName);
  });

  it('TV_SHOW needs a LOCATION in the show market first', async () => {
    const li = await lineItem();
    const refused = await client.post(path(), { line_item_id: li, targeting_type: 'TV_SHOW', targeting_value: '10027243421' });
    expectError(refused, 400, 'INVALID_PARAMETER', 'targeting_value');
    await criterion(li, 'LOCATION', US);
    const show = await criterion(li, 'TV_SHOW', '10027243421');
    expect(show.name).toBe('Sunday Night Football');
    const elsewhere = await lineItem();
    await criterion(elsewhere, 'LOCATION', 'aabd7522322d9682');
    expectError(await client.post(path(), { line_item_id: elsewhere, targeting_type: 'TV_SHOW', targeting_value: '10027243421' }), 400, 'INVALID_PARAMETER', 'targeting_value');
  });
});

describe('POST targeting_criteria: refusals', () => {
  let li: string;
  beforeAll(async () => {
    li = await lineItem();
  });
  const base = (extra: Params): Params => ({ targeting_type: 'BROAD_KEYWORD', targeting_value: 'x', ...extra });
  it('line_item_id is required', async () => {
    expectError(await client.post(path(), base({}), { as: 'form' }), 400, 'MISSING_PARAMETER', 'line_item_id');
  });

  const rows: Array<[string, Params, number, string, string]> = [
    ['targeting_type is required', { targeting_value: 'x' }, 400, 'MISSING_PARAMETER', 'targeting_type'],
    ['targeting_value is required', { targeting_type: 'LOCATION' }, 400, 'MISSING_PARAMETER', 'targeting_value'],
    ['targeting_type must be a v12 type', base({ targeting_type: 'KEYWORD' }), 400, 'INVALID_PARAMETER', 'targeting_type'],
    ['operator_type is EQ, NE, GTE or LT', base({ operator_type: 'GT' }), 400, 'INVALID_PARAMETER', 'operator_type'],
    ['an unknown location', base({ targeting_type: 'LOCATION', targeting_value: 'ffffffffffffffff' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['an unknown language code', base({ targeting_type: 'LANGUAGE', targeting_value: 'xx' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['GENDER is 1 or 2', base({ targeting_type: 'GENDER', targeting_value: '3' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['an unknown AGE bucket', base({ targeting_type: 'AGE', targeting_value: 'AGE_10_TO_12' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['an unknown PLATFORM', base({ targeting_type: 'PLATFORM', targeting_value: '9' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['an unknown INTEREST', base({ targeting_type: 'INTEREST', targeting_value: '999999' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['a CUSTOM_AUDIENCE that is not a targetable audience of the account', base({ targeting_type: 'CUSTOM_AUDIENCE', targeting_value: '249yj' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['FOLLOWERS_OF_USER of an unknown user', base({ targeting_type: 'FOLLOWERS_OF_USER', targeting_value: '12345' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['SIMILAR_TO_FOLLOWERS_OF_USER needs a user id', base({ targeting_type: 'SIMILAR_TO_FOLLOWERS_OF_USER', targeting_value: 'acme_gear' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['USER_ENGAGEMENT of a user that is not promotable', base({ targeting_type: 'USER_ENGAGEMENT', targeting_value: '783214' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['CAMPAIGN_ENGAGEMENT of an unknown campaign', base({ targeting_type: 'CAMPAIGN_ENGAGEMENT', targeting_value: 'zzzzzz' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['a blank keyword', base({ targeting_value: '   ' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['APP_LIST only with NE', base({ targeting_type: 'APP_LIST', targeting_value: 'applist1' }), 400, 'INVALID_PARAMETER', 'operator_type'],
    ['LOCATION does not take GTE', base({ targeting_type: 'LOCATION', targeting_value: US, operator_type: 'GTE' }), 400, 'INVALID_PARAMETER', 'operator_type'],
    ['NETWORK_ACTIVATION_DURATION does not take EQ', base({ targeting_type: 'NETWORK_ACTIVATION_DURATION', targeting_value: '3' }), 400, 'INVALID_PARAMETER', 'operator_type'],
    ['NETWORK_ACTIVATION_DURATION is a number of months', base({ targeting_type: 'NETWORK_ACTIVATION_DURATION', targeting_value: 'soon', operator_type: 'LT' }), 400, 'INVALID_PARAMETER', 'targeting_value'],
    ['unknown parameters are refused', base({ colour: 'blue' }), 400, 'INVALID_PARAMETER', 'colour'],
  ];
  it.each(rows)('%s', async (_name, params, status, code, parameter) => {
    expectError(await client.post(path(), { line_item_id: li, ...params }, { as: 'form' }), status, code, parameter);
  });

  it('an unknown line item is 404 NOT_FOUND', async () => {
    expectError(await client.post(path(), base({ line_item_id: 'zzzzzz' })), 404, 'NOT_FOUND', 'line_item_id');
  });

  it('a deleted line item is 404 NOT_FOUND', async () => {
    const gone = await lineItem();
    expect((await client.delete(`/12/accounts/${account}/line_items/${gone}`)).status).toBe(200);
    expectError(await client.post(path(), base({ line_item_id: gone })), 404, 'NOT_FOUND', 'line_item_id');
  });

  it('reports every parameter problem at once', async () => {
    const r = await client.post(path(), { targeting_type: 'NOPE', operator_type: 'XX' });
    expect(r.status).toBe(400);
    const params = (r.body.errors as Array<{ parameter: string }>).map((e) => e.parameter).sort();
    expect(params).toEqual(['line_item_id', 'operator_type', 'targeting_type', 'targeting_value']);
  });
});

describe('POST targeting_criteria: duplicates and one-per-line-item types', () => {
  it('a duplicate (same line item, type, value, operator) is 400; another operator or after delete is fine', async () => {
    const li = await lineItem();
    const first = await criterion(li, 'BROAD_KEYWORD', 'hiking');
    expectError(await client.post(path(), { line_item_id: li, targeting_type: 'BROAD_KEYWORD', targeting_value: 'hiking', operator_type: 'EQ' }), 400, 'INVALID_PARAMETER', 'targeting_value');
    await criterion(li, 'BROAD_KEYWORD', 'hiking', { operator_type: 'NE' });
    await criterion(li, 'PHRASE_KEYWORD', 'hiking');
    expect((await client.delete(path(`/${first.id}`))).status).toBe(200);
    await criterion(li, 'BROAD_KEYWORD', 'hiking');
  });

  const single: Array<[string, string, string, string]> = [
    ['one AGE bucket per line item', 'AGE', 'AGE_18_TO_34', 'AGE_OVER_50'],
    ['one EVENT per line item', 'EVENT', 'fmt', 'fmw'],
  ];
  it.each(single)('%s', async (_name, type, first, second) => {
    const li = await lineItem();
    await criterion(li, type, first);
    expectError(await client.post(path(), { line_item_id: li, targeting_type: type, targeting_value: second }), 400, 'INVALID_PARAMETER', 'targeting_type');
  });
});

describe('POST targeting_criteria: per-line-item limits', () => {
  it('at most 1000 keywords: 1000 through two batches of 500, the 1001st is refused', async () => {
    const li = await lineItem();
    const words = Array.from({ length: 1000 }, (_, i) => `kw${i}`);
    expect((await batch(creates(li, 'BROAD_KEYWORD', words.slice(0, 500)))).status).toBe(200);
    expect((await batch(creates(li, 'EXACT_KEYWORD', words.slice(500)))).status).toBe(200);
    expectError(await client.post(path(), { line_item_id: li, targeting_type: 'PHRASE_KEYWORD', targeting_value: 'one more' }), 400, 'INVALID_PARAMETER', 'targeting_type');
    const total = await client.get(path(), { line_item_ids: li, with_total_count: true, count: 1 });
    expect(total.body.total_count).toBe(1000);
  });

  it('at most 100 interests', async () => {
    const interests = (await client.get('/12/targeting_criteria/interests', { count: 1000 })).body.data.map((i: { targeting_value: string }) => i.targeting_value);
    expect(interests.length).toBeGreaterThan(100);
    const li = await lineItem();
    expect((await batch(creates(li, 'INTEREST', interests.slice(0, 100)))).status).toBe(200);
    expectError(await client.post(path(), { line_item_id: li, targeting_type: 'INTEREST', targeting_value: interests[100] }), 400, 'INVALID_PARAMETER', 'targeting_type');
  });

  it('at most 100 SIMILAR_TO_FOLLOWERS_OF_USER (the seeded public users), the 101st is refused', async () => {
    const users = SEED_PUBLIC_USERS.map((u) => u.id);
    expect(users.length).toBeGreaterThan(100);
    const li = await lineItem();
    const r = await batch(creates(li, 'SIMILAR_TO_FOLLOWERS_OF_USER', users.slice(0, 100)));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data[99]).toMatchObject({ targeting_value: users[99], targeting_type: 'SIMILAR_TO_FOLLOWERS_OF_USER' });
    expectError(await client.post(path(), { line_item_id: li, targeting_type: 'SIMILAR_TO_FOLLOWERS_OF_USER', targeting_value: users[100]! }), 400, 'INVALID_PARAMETER', 'targeting_type');
    const other = await lineItem();
    expect((await client.post(path(), { line_item_id: other, targeting_type: 'SIMILAR_TO_FOLLOWERS_OF_USER', targeting_value: users[100]! })).status).toBe(201);
  });

  it('at most 2000 locations', async () => {
    const first = await client.get('/12/targeting_criteria/locations', { location_type: 'POSTAL_CODES', count: 1000 });
    const second = await client.get('/12/targeting_criteria/locations', { location_type: 'POSTAL_CODES', count: 1000, cursor: first.body.next_cursor });
    const third = await client.get('/12/targeting_criteria/locations', { location_type: 'POSTAL_CODES', count: 1000, cursor: second.body.next_cursor });
    const values = [...first.body.data, ...second.body.data, ...third.body.data].map((l: { targeting_value: string }) => l.targeting_value);
    expect(values.length).toBeGreaterThan(2000);
    const li = await lineItem();
    for (let i = 0; i < 2000; i += 500) expect((await batch(creates(li, 'LOCATION', values.slice(i, i + 500)))).status).toBe(200);
    expectError(await client.post(path(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: values[2000]! }), 400, 'INVALID_PARAMETER', 'targeting_type');
  });
});

describe('GET targeting_criteria', () => {
  let li: string;
  let other: string;
  let ids: string[];
  beforeAll(async () => {
    li = await lineItem();
    other = await lineItem();
    ids = [];
    for (const [type, value] of [['LANGUAGE', 'en'], ['LOCATION', US], ['BROAD_KEYWORD', 'café, ünïcode: 100% + more'], ['PLATFORM', '0']] as const) {
      ids.push((await criterion(li, type, value)).id);
    }
    await criterion(other, 'LANGUAGE', 'fr');
  });

  it('needs line_item_ids', async () => {
    expectError(await client.get(path()), 400, 'MISSING_PARAMETER', 'line_item_ids');
  });

  it('takes at most 200 line item ids', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `li${i}`).join(',');
    expectError(await client.get(path(), { line_item_ids: many }), 400, 'INVALID_PARAMETER', 'line_item_ids');
  });

  it('lists the line items criteria in creation order with the list envelope', async () => {
    const r = await client.get(path(), { line_item_ids: li });
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: { id: string }) => c.id)).toEqual(ids);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.request.params).toEqual({ account_id: account, line_item_ids: [li] });
    expect(r.body.total_count).toBeUndefined();
  });

  it('spans several line items', async () => {
    expect(await listAll(`${li},${other}`)).toHaveLength(5);
  });

  it('pages with count and cursor', async () => {
    const p1 = await client.get(path(), { line_item_ids: li, count: 3 });
    expect(p1.body.data).toHaveLength(3);
    const p2 = await client.get(path(), { line_item_ids: li, count: 3, cursor: p1.body.next_cursor });
    expect(p2.body.data.map((c: { id: string }) => c.id)).toEqual(ids.slice(3));
    expect(p2.body.next_cursor).toBeNull();
  });

  it('counts with with_total_count, which excludes cursor', async () => {
    expect((await client.get(path(), { line_item_ids: li, with_total_count: true })).body.total_count).toBe(4);
    expectError(await client.get(path(), { line_item_ids: li, with_total_count: true, cursor: 's1' }), 400, 'EXCLUSIVE_PARAMETERS');
  });

  it('filters by targeting_criterion_ids', async () => {
    const r = await listAll(li, { targeting_criterion_ids: [ids[2]!, ids[0]!].join(',') });
    expect(r.map((c) => c.id)).toEqual([ids[0], ids[2]]);
  });

  it('round-trips a value with reserved characters', async () => {
    const [keyword] = await listAll(li, { targeting_criterion_ids: ids[2]! });
    expect(keyword.targeting_value).toBe('café, ünïcode: 100% + more');
  });

  it('sorts by name', async () => {
    const names = (await listAll(li, { sort_by: 'name-asc' })).map((c) => c.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expectError(await client.get(path(), { line_item_ids: li, sort_by: 'colour-asc' }), 400, 'INVALID_PARAMETER', 'sort_by');
  });

  const localized: Array<[string, string, Record<string, string | undefined>]> = [
    ['lang=es localizes languages and countries', 'es', { LANGUAGE: 'Inglés', LOCATION: 'Estados Unidos', BROAD_KEYWORD: undefined, PLATFORM: 'iOS' }],
    ['lang=ja', 'ja', { LANGUAGE: '英語', LOCATION: 'アメリカ合衆国', BROAD_KEYWORD: undefined }],
    ['lang=en gives the English names', 'en', { LANGUAGE: 'English', LOCATION: 'United States', BROAD_KEYWORD: undefined }],
    ['an unknown language adds nothing', 'zu', { LANGUAGE: undefined, LOCATION: undefined }],
  ];
  it.each(localized)('%s', async (_name, lang, expected) => {
    const r = await listAll(li, { lang });
    for (const [type, name] of Object.entries(expected)) expect(r.find((c) => c.targeting_type === type)?.localized_name).toBe(name);
  });

  it('without lang there is no localized_name, and lang must be an ISO 639-1 code', async () => {
    expect((await listAll(li)).every((c) => !('localized_name' in c))).toBe(true);
    expectError(await client.get(path(), { line_item_ids: li, lang: 'english' }), 400, 'INVALID_PARAMETER', 'lang');
  });

  it('GET /:id answers the record, with localized_name for lang', async () => {
    const r = await client.get(path(`/${ids[0]}`), { lang: 'de' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: ids[0], targeting_type: 'LANGUAGE', localized_name: 'Englisch' });
    expect(r.body.request.params).toEqual({ account_id: account, targeting_criterion_id: ids[0], lang: 'de' });
  });

  it('GET /:id of an unknown criterion is 404', async () => {
    expectError(await client.get(path('/zzzzzz')), 404, 'NOT_FOUND', 'targeting_criterion_id');
  });
});

describe('DELETE targeting_criteria and the deleted rule; no PUT', () => {
  it('marks it deleted; lists and lookups hide it unless with_deleted; a second DELETE is 404', async () => {
    const li = await lineItem();
    const tc = await criterion(li, 'LANGUAGE', 'es');
    const r = await client.delete(path(`/${tc.id}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: tc.id, deleted: true });
    expect(r.body.request.params).toEqual({ account_id: account, targeting_criterion_id: tc.id });
    expect(await listAll(li)).toEqual([]);
    expect((await listAll(li, { with_deleted: true })).map((c) => c.id)).toEqual([tc.id]);
    expectError(await client.get(path(`/${tc.id}`)), 404, 'NOT_FOUND');
    expect((await client.get(path(`/${tc.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(path(`/${tc.id}`)), 404, 'NOT_FOUND');
  });

  it.each([['/:id', true], ['the collection', false]])('PUT on %s is 405 METHOD_NOT_ALLOWED', async (_name, withId) => {
    const li = await lineItem();
    const tc = await criterion(li, 'LANGUAGE', 'de');
    expectError(await client.put(withId ? path(`/${tc.id}`) : path(), { targeting_value: 'fr' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('records CREATE and DELETE in the account history as TARGETING_CRITERIA', async () => {
    const li = await lineItem();
    const tc = await criterion(li, 'LANGUAGE', 'pt');
    await client.delete(path(`/${tc.id}`));
    const r = await client.get(`/12/accounts/${account}/account_history`, { entity_type: 'TARGETING_CRITERIA', entity_id: tc.id, ...historyWindow() });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'DELETE']);
    expect(r.body.data[1].changes.deleted).toEqual({ old: false, new: true });
  });
});

describe('POST batch/targeting_criteria', () => {
  it('creates and deletes in one request, answering data and request in input order', async () => {
    const li = await lineItem();
    const old = await criterion(li, 'BROAD_KEYWORD', 'accounts');
    const r = await batch([
      { operation_type: 'Create', params: { line_item_id: li, targeting_type: 'LOCATION', targeting_value: SF } },
      { operation_type: 'Delete', params: { targeting_criterion_id: old.id } },
      { operation_type: 'Create', params: { line_item_id: li, targeting_type: 'GENDER', targeting_value: 1 } },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((d: any) => [d.targeting_type, d.deleted])).toEqual([['LOCATION', false], ['BROAD_KEYWORD', true], ['GENDER', false]]);
    expect(r.body.data[0]).toMatchObject({ name: 'San Francisco-Oakland-San Jose CA, US', location_type: 'CITY', operator_type: 'EQ' });
    expect(r.body.data[2]).toMatchObject({ targeting_value: '1', name: 'Male' });
    expect(r.body.request).toEqual([
      { params: { account_id: account, line_item_id: li, targeting_type: 'LOCATION', targeting_value: SF }, operation_type: 'Create' },
      { params: { account_id: account, targeting_criterion_id: old.id }, operation_type: 'Delete' },
      { params: { account_id: account, line_item_id: li, targeting_type: 'GENDER', targeting_value: '1' }, operation_type: 'Create' },
    ]);
  });

  it('takes 500 operations and refuses 501 with a request-level error, creating nothing', async () => {
    const li = await lineItem();
    const values = Array.from({ length: 501 }, (_, i) => `w${i}`);
    const refused = await batch(creates(li, 'BROAD_KEYWORD', values));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('INVALID_PARAMETER');
    expect(refused.body.operation_errors).toBeUndefined();
    expect(await listAll(li)).toEqual([]);
    const ok = await batch(creates(li, 'BROAD_KEYWORD', values.slice(0, 500)));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(500);
  });

  it('is all or nothing, with operation_errors aligned to the input', async () => {
    const li = await lineItem();
    const keep = await criterion(li, 'LANGUAGE', 'en');
    const r = await batch([
      { operation_type: 'Create', params: { line_item_id: li, targeting_type: 'LANGUAGE', targeting_value: 'fr' } },
      { operation_type: 'Create', params: { line_item_id: li, targeting_type: 'LOCATION', targeting_value: 'nowhere' } },
      { operation_type: 'Delete', params: { targeting_criterion_id: keep.id } },
      { operation_type: 'Create', params: { line_item_id: li, targeting_type: 'GENDER' } },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.operation_errors).toHaveLength(4);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1][0]).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'targeting_value' });
    expect(r.body.operation_errors[2]).toEqual([]);
    expect(r.body.operation_errors[3][0]).toMatchObject({ code: 'MISSING_PARAMETER', parameter: 'targeting_value' });
    expect((await listAll(li)).map((c) => c.id)).toEqual([keep.id]);
  });

  const refusedItems: Array<[string, Record<string, unknown>, string, string]> = [
    ['Update is not an operation of this batch', { operation_type: 'Update', params: { targeting_criterion_id: 'x' } }, 'INVALID_PARAMETER', 'operation_type'],
    ['Delete needs targeting_criterion_id', { operation_type: 'Delete', params: {} }, 'MISSING_PARAMETER', 'targeting_criterion_id'],
    ['Delete of an unknown criterion', { operation_type: 'Delete', params: { targeting_criterion_id: 'zzzzzz' } }, 'NOT_FOUND', 'targeting_criterion_id'],
  ];
  it.each(refusedItems)('%s', async (_name, item, code, parameter) => {
    const r = await batch([item]);
    expect(r.status).toBe(400);
    expect(r.body.operation_errors[0][0]).toMatchObject({ code, parameter });
  });

  it('refuses a duplicate inside the same batch', async () => {
    const li = await lineItem();
    const r = await batch(creates(li, 'LANGUAGE', ['ja', 'ja']));
    expect(r.status).toBe(400);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1][0]).toMatchObject({ parameter: 'targeting_value' });
  });

  it('needs a JSON body', async () => {
    expectError(await client.post(batchPath(), { operation_type: 'Create' }, { as: 'form' }), 400, 'INVALID_PARAMETER');
  });
});

describe('GET targeting_criteria/<option> lookups', () => {
  const rows: Array<[string, string, Params, Record<string, unknown>]> = [
    ['locations finds the documented country', 'locations', { location_type: 'COUNTRIES', country_code: 'US' }, { name: 'United States', country_code: 'US', location_type: 'COUNTRIES', targeting_value: US, targeting_type: 'LOCATION' }],
    ['locations q matches within names, case-insensitively', 'locations', { location_type: 'CITIES', q: 'los angeles' }, { name: 'Los Angeles, Los Angeles CA, CA, USA', targeting_value: '3b77caf94bfc81fe' }],
    ['languages', 'languages', { q: 'english' }, { name: 'English', targeting_type: 'LANGUAGE', targeting_value: 'en' }],
    ['platforms', 'platforms', {}, { name: 'iOS', targeting_type: 'PLATFORM', targeting_value: '0' }],
    ['platforms with lang add localized_name', 'platforms', { lang: 'fr', q: 'desktop' }, { targeting_value: '4', localized_name: 'Ordinateurs de bureau et portables' }],
    ['interests', 'interests', { q: 'books' }, { name: 'Books and literature/Biographies and memoirs', targeting_type: 'INTEREST', targeting_value: '1001' }],
    ['devices', 'devices', { q: 'iphone' }, { name: 'iPhone 3GS', manufacturer: 'Apple', os_type: 'iOS', targeting_value: '1q', targeting_type: 'DEVICE' }],
    ['network_operators default to the US', 'network_operators', {}, { country_code: 'US', targeting_type: 'NETWORK_OPERATOR', name: 'Advantage', targeting_value: '2l' }],
    ['network_operators by country', 'network_operators', { country_code: 'CA' }, { country_code: 'CA', name: 'BC Tel Mobility (Telus)' }],
    ['platform_versions', 'platform_versions', { q: 'jelly' }, { name: 'Jelly Bean', number: '4.1', os_type: 'Android', targeting_type: 'PLATFORM_VERSION', targeting_value: '18' }],
    ['app_store_categories by os_type', 'app_store_categories', { q: 'music', os_type: 'IOS' }, { name: 'Games: Music', targeting_value: 'qouq', os_type: 'IOS' }],
    ['conversations by type', 'conversations', { conversation_type: 'SPORTS' }, { targeting_type: 'CONVERSATION', targeting_value: 'a1', name: 'NFL', conversation_type: 'SPORTS' }],
    ['events in a window', 'events', { event_types: 'HOLIDAY', start_time: '2026-06-01T00:00:00Z', end_time: '2026-07-31T00:00:00Z', country_codes: 'US' }, { name: 'Independence Day', country_code: 'US', event_type: 'HOLIDAY', is_global: false }],
    ['tv_markets', 'tv_markets', {}, { name: 'France', country_code: 'FR', locale: 'fr-FR' }],
    ['behaviors by q', 'behaviors', { q: 'frequent' }, { name: 'Travel/Air/Frequent flyers', targeting_type: 'BEHAVIOR', targeting_value: 'l411', country_code: 'US', targetable_type: 'BEHAVIOR' }],
    ['behavior_taxonomies start at the top', 'behavior_taxonomies', {}, { id: 'b1', name: 'Automotive', parent_id: null }],
    ['tv_shows of a market', 'tv_shows', { locale: 'en-US', q: 'news' }, { name: 'NewsWatch', targeting_value: 10027243420 }],
  ];
  it.each(rows)('%s', async (_name, option, params, first) => {
    const r = await client.get(`/12/targeting_criteria/${option}`, params);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data[0]).toMatchObject(first);
    expect(r.body.request.params).toEqual(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, k === 'event_types' || k === 'country_codes' ? [v] : v])));
    expect(r.body).toHaveProperty('next_cursor');
  });

  it('filters locations by type and country and pages with count and cursor', async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const r: Reply = await client.get('/12/targeting_criteria/locations', { location_type: 'REGIONS', country_code: 'US', count: 3, ...(cursor === null ? {} : { cursor }) });
      expect(r.body.data.every((l: any) => l.location_type === 'REGIONS' && l.country_code === 'US')).toBe(true);
      all.push(...r.body.data.map((l: { name: string }) => l.name));
      cursor = r.body.next_cursor;
    } while (cursor !== null);
    expect(all).toHaveLength(7);
    expect(new Set(all).size).toBe(7);
  });

  it('filters behaviors by id and taxonomy nodes by id and parent; every record has the documented fields', async () => {
    const children = await client.get('/12/targeting_criteria/behavior_taxonomies', { parent_behavior_taxonomy_ids: 'b1,b4' });
    expect(children.body.data.map((t: { id: string }) => t.id)).toEqual(['b11', 'b12', 'b41', 'b42']);
    expect(children.body.data.every((t: any) => Object.keys(t).sort().join() === 'created_at,id,name,parent_id,updated_at')).toBe(true);
    const one = await client.get('/12/targeting_criteria/behavior_taxonomies', { behavior_taxonomy_ids: 'b23' });
    expect(one.body.data).toEqual([]);
    const some = await client.get('/12/targeting_criteria/behaviors', { behavior_ids: 'l111,l322' });
    expect(some.body.data.map((b: { name: string }) => b.name)).toEqual(['Automotive/Vehicle purchase/New car buyers', 'Retail/Home/Furniture buyers']);
    const keys = 'audience_code,country_code,id,name,partner_source,targetable_type,targeting_type,targeting_value';
    expect(some.body.data.every((b: any) => Object.keys(b).sort().join() === keys)).toBe(true);
    const paged = await client.get('/12/targeting_criteria/behaviors', { count: 2 });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.next_cursor).not.toBeNull();
  });

  const refusals: Array<[string, string, Params, string]> = [
    ['locations count is at most 1000', 'locations', { count: 1001 }, 'count'],
    ['behaviors count is at most 1000', 'behaviors', { count: 1001 }, 'count'],
    ['behavior_taxonomies take no q', 'behavior_taxonomies', { q: 'auto' }, 'q'],
    ['locations location_type is an enum', 'locations', { location_type: 'TOWNS' }, 'location_type'],
    ['locations country_code has two letters', 'locations', { country_code: 'USA' }, 'country_code'],
    ['a malformed cursor', 'languages', { cursor: 'bogus' }, 'cursor'],
    ['tv_shows needs a locale', 'tv_shows', {}, 'locale'],
    ['tv_shows count is at most 50', 'tv_shows', { locale: 'en-US', count: 51 }, 'count'],
    ['events event_types is an enum', 'events', { event_types: 'PARTY' }, 'event_types'],
    ['unknown parameters are refused', 'languages', { colour: 'blue' }, 'colour'],
  ];
  it.each(refusals)('%s', async (_name, option, params, parameter) => {
    const r = await client.get(`/12/targeting_criteria/${option}`, params);
    expect(r.status, r.text).toBe(400);
    expect(r.body.errors.some((e: { parameter?: string }) => e.parameter === parameter)).toBe(true);
  });

  it('answers an application-only bearer token', async () => {
    const creds = Buffer.from(`${encodeURIComponent(client.creds.consumerKey)}:${encodeURIComponent(client.creds.consumerSecret)}`).toString('base64');
    const token = await client.post('/oauth2/token', { grant_type: 'client_credentials' }, { as: 'form', base: 'root', creds: null, headers: { authorization: `Basic ${creds}` } });
    expect(token.status, token.text).toBe(200);
    const r = await client.get('/12/targeting_criteria/languages', { q: 'fr' }, { bearer: token.body.access_token });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((l: { targeting_value: string }) => l.targeting_value)).toContain('fr');
  });
});
