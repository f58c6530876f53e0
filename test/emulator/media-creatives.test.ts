import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError, listIds as listIdsOf } from '../support/assertions.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let prerollCampaign: string;
let webCampaign: string;
/** Seeded account media ids by creative type. */
const media: Record<string, string> = {};

const MC_FIELDS = ['account_media_id', 'approval_status', 'created_at', 'creative_type', 'deleted', 'entity_status', 'id', 'landing_url', 'line_item_id', 'updated_at'];
const SEEDED_TYPES = ['PREROLL', 'INTERSTITIAL', 'INTERSTITIAL_LANDSCAPE_TABLET', 'BANNER', 'MEDIUM_RECTANGLE'];
const RESERVED_URL = 'https://example.com/p?a=1&b=café,y:z+%25#frag';

const creatives = (suffix = ''): string => `/12/accounts/${account}/media_creatives${suffix}`;
const accountMedia = (suffix = ''): string => `/12/accounts/${account}/account_media${suffix}`;


const prerollLineItem = async (): Promise<string> => (await createLineItem(client, account, prerollCampaign, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS' })).id;
const webLineItem = async (): Promise<string> => (await createLineItem(client, account, webCampaign, { product_type: 'MEDIA', objective: 'WEBSITE_CLICKS' })).id;

async function create(params: Params): Promise<any> {
  const r = await client.post(creatives(), params, { as: 'form' });
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}


const listIds = (params: Params = {}): Promise<string[]> => listIdsOf(client, creatives(), params);

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  prerollCampaign = (await createCampaign(client, account)).id;
  webCampaign = (await createCampaign(client, account)).id;
  const r = await client.get(accountMedia());
  for (const m of r.body.data as Array<{ id: string; creative_type: string }>) media[m.creative_type] = m.id;
});
afterAll(() => emulator.close());

describe('GET account_media', () => {
  it('lists the seeded account media in creation order with the list envelope', async () => {
    const r = await client.get(accountMedia());
    expect(r.status).toBe(200);
    expect(r.body.data.map((m: { creative_type: string }) => m.creative_type)).toEqual(SEEDED_TYPES);
    expect(r.body.data[0]).toMatchObject({ id: media['PREROLL'], creative_type: 'PREROLL', deleted: false });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.request.params).toEqual({ account_id: account });
  });

  const filters: Array<[string, () => Params, string[]]> = [
    ['creative_types filters by type', () => ({ creative_types: 'BANNER,PREROLL' }), ['PREROLL', 'BANNER']],
    ['account_media_ids filters by id', () => ({ account_media_ids: `${media['BANNER']},${media['INTERSTITIAL']}` }), ['INTERSTITIAL', 'BANNER']],
    ['both filters together', () => ({ account_media_ids: `${media['BANNER']},${media['INTERSTITIAL']}`, creative_types: 'BANNER' }), ['BANNER']],
    ['an unknown id matches nothing', () => ({ account_media_ids: 'zzzzzz' }), []],
  ];
  it.each(filters)('%s', async (_name, params, types) => {
    const r = await client.get(accountMedia(), params());
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((m: { creative_type: string }) => m.creative_type)).toEqual(types);
  });

  it('pages with count and cursor and counts with with_total_count', async () => {
    const p1 = await client.get(accountMedia(), { count: 2 });
    const p2 = await client.get(accountMedia(), { count: 2, cursor: p1.body.next_cursor });
    const p3 = await client.get(accountMedia(), { count: 2, cursor: p2.body.next_cursor });
    expect([...p1.body.data, ...p2.body.data, ...p3.body.data].map((m: { creative_type: string }) => m.creative_type)).toEqual(SEEDED_TYPES);
    expect(p3.body.next_cursor).toBeNull();
    expect((await client.get(accountMedia(), { with_total_count: true, creative_types: 'PREROLL' })).body.total_count).toBe(1);
  });

  const refusals: Array<[string, Params, string]> = [
    ['creative_types values are the creative type enum', { creative_types: 'BANNER,POSTER' }, 'creative_types'],
    ['account_media_ids takes at most 200 ids', { account_media_ids: Array.from({ length: 201 }, (_, i) => `m${i}`).join(',') }, 'account_media_ids'],
    ['sort_by needs a supported attribute', { sort_by: 'media_key-asc' }, 'sort_by'],
    ['unknown parameters are refused', { media_type: 'IMAGE' }, 'media_type'],
  ];
  it.each(refusals)('%s', async (_name, params, parameter) => {
    expectError(await client.get(accountMedia(), params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('GET /:id answers the record; an unknown id is 404', async () => {
    const r = await client.get(accountMedia(`/${media['BANNER']}`));
    expect(r.body).toMatchObject({ request: { params: { account_id: account, account_media_id: media['BANNER'] } }, data: { id: media['BANNER'], creative_type: 'BANNER' } });
    expectError(await client.get(accountMedia('/zzzzzz')), 404, 'NOT_FOUND', 'account_media_id');
  });

  it('is read-only here: POST and PUT are 405', async () => {
    expectError(await client.post(accountMedia(), { media_key: '3_1' }), 405, 'METHOD_NOT_ALLOWED');
    expectError(await client.put(accountMedia(`/${media['BANNER']}`), { name: 'x' }), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('POST media_creatives', () => {
  it('answers 201 with the record; creative_type comes from the account media', async () => {
    const li = await prerollLineItem();
    const r = await client.post(creatives(), { line_item_id: li, account_media_id: media['INTERSTITIAL_LANDSCAPE_TABLET']!, landing_url: 'https://dev.x.com' }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body.data).sort()).toEqual(MC_FIELDS);
    expect(r.body.data).toMatchObject({
      line_item_id: li,
      account_media_id: media['INTERSTITIAL_LANDSCAPE_TABLET'],
      creative_type: 'INTERSTITIAL_LANDSCAPE_TABLET',
      landing_url: 'https://dev.x.com',
      entity_status: 'ACTIVE',
      approval_status: 'ACCEPTED',
      deleted: false,
    });
    expect(r.body.request.params).toEqual({ account_id: account, line_item_id: li, account_media_id: media['INTERSTITIAL_LANDSCAPE_TABLET'], landing_url: 'https://dev.x.com' });
  });

  const rows: Array<[string, () => Promise<string>, string, Params, 'query' | 'form', Record<string, unknown>]> = [
    ['landing_url is optional outside WEBSITE_CLICKS', prerollLineItem, 'BANNER', {}, 'form', { landing_url: null, creative_type: 'BANNER' }],
    ['landing_url is ignored for pre-roll assets', prerollLineItem, 'PREROLL', { landing_url: 'https://example.com/video' }, 'form', { landing_url: null, creative_type: 'PREROLL' }],
    ['a WEBSITE_CLICKS line item with its landing_url', webLineItem, 'MEDIUM_RECTANGLE', { landing_url: 'https://example.com/' }, 'form', { landing_url: 'https://example.com/' }],
    ['a landing_url with reserved characters through the query string', webLineItem, 'BANNER', { landing_url: RESERVED_URL }, 'query', { landing_url: RESERVED_URL }],
    ['a landing_url with reserved characters through a form body', webLineItem, 'INTERSTITIAL', { landing_url: RESERVED_URL }, 'form', { landing_url: RESERVED_URL }],
  ];
  it.each(rows)('%s', async (_name, lineItem, type, extra, as, expected) => {
    const li = await lineItem();
    const r = await client.post(creatives(), { line_item_id: li, account_media_id: media[type]!, ...extra }, { as });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject(expected);
    expect((await client.get(creatives(`/${r.body.data.id}`))).body.data).toMatchObject(expected);
  });

  const refusals: Array<[string, (li: string, web: string) => Params, number, string, string]> = [
    ['account_media_id is required', (li) => ({ line_item_id: li }), 400, 'MISSING_PARAMETER', 'account_media_id'],
    ['line_item_id is required', () => ({ account_media_id: media['BANNER']! }), 400, 'MISSING_PARAMETER', 'line_item_id'],
    ['landing_url is required for WEBSITE_CLICKS', (_li, web) => ({ line_item_id: web, account_media_id: media['BANNER']! }), 400, 'MISSING_PARAMETER', 'landing_url'],
    ['an empty landing_url does not satisfy WEBSITE_CLICKS', (_li, web) => ({ line_item_id: web, account_media_id: media['BANNER']!, landing_url: '' }), 400, 'MISSING_PARAMETER', 'landing_url'],
    ['landing_url must be an http(s) URL', (li) => ({ line_item_id: li, account_media_id: media['BANNER']!, landing_url: 'dev.x.com' }), 400, 'INVALID_PARAMETER', 'landing_url'],
    ['the account media must exist in the account', (li) => ({ line_item_id: li, account_media_id: 'zzzzzz' }), 404, 'NOT_FOUND', 'account_media_id'],
    ['the line item must exist', () => ({ line_item_id: 'zzzzzz', account_media_id: media['BANNER']! }), 404, 'NOT_FOUND', 'line_item_id'],
    ['unknown parameters are refused', (li) => ({ line_item_id: li, account_media_id: media['BANNER']!, creative_type: 'PREROLL' }), 400, 'INVALID_PARAMETER', 'creative_type'],
  ];
  it.each(refusals)('%s', async (_name, params, status, code, parameter) => {
    const li = await prerollLineItem();
    const web = await webLineItem();
    expectError(await client.post(creatives(), params(li, web), { as: 'form' }), status, code, parameter);
    expect(await listIds({ line_item_ids: `${li},${web}`, with_deleted: true })).toEqual([]);
  });

  it('refuses a deleted line item', async () => {
    const li = await prerollLineItem();
    await client.delete(`/12/accounts/${account}/line_items/${li}`);
    expectError(await client.post(creatives(), { line_item_id: li, account_media_id: media['BANNER']! }), 404, 'NOT_FOUND', 'line_item_id');
  });
});

describe('GET media_creatives', () => {
  let li: string;
  let web: string;
  let ids: string[];
  let webIds: string[];
  let ownCampaign: string;
  beforeAll(async () => {
    li = await prerollLineItem();
    ownCampaign = (await createCampaign(client, account)).id;
    web = (await createLineItem(client, account, ownCampaign, { product_type: 'MEDIA', objective: 'WEBSITE_CLICKS' })).id;
    ids = [];
    for (const type of ['PREROLL', 'BANNER', 'INTERSTITIAL']) ids.push((await create({ line_item_id: li, account_media_id: media[type]! })).id);
    webIds = [(await create({ line_item_id: web, account_media_id: media['BANNER']!, landing_url: 'https://example.com/' })).id];
  });

  const filters: Array<[string, () => Params, () => string[]]> = [
    ['line_item_ids', () => ({ line_item_ids: li }), () => ids],
    ['several line items', () => ({ line_item_ids: `${web},${li}` }), () => [...ids, ...webIds]],
    ['campaign_id', () => ({ campaign_id: ownCampaign }), () => webIds],
    ['campaign_id with line_item_ids of another campaign', () => ({ campaign_id: ownCampaign, line_item_ids: li }), () => []],
    ['media_creative_ids', () => ({ media_creative_ids: `${ids[2]},${ids[0]}` }), () => [ids[0]!, ids[2]!]],
    ['media_creative_ids with line_item_ids', () => ({ media_creative_ids: `${ids[0]},${webIds[0]}`, line_item_ids: web }), () => webIds],
  ];
  it.each(filters)('filters by %s', async (_name, params, expected) => {
    expect(await listIds(params())).toEqual(expected());
  });

  it('lists the account without filters', async () => {
    const all = await listIds({});
    for (const id of [...ids, ...webIds]) expect(all).toContain(id);
  });

  it('pages with count and cursor and counts with with_total_count', async () => {
    const p1 = await client.get(creatives(), { line_item_ids: li, count: 2 });
    const p2 = await client.get(creatives(), { line_item_ids: li, count: 2, cursor: p1.body.next_cursor });
    expect([...p1.body.data, ...p2.body.data].map((d: { id: string }) => d.id)).toEqual(ids);
    expect(p2.body.next_cursor).toBeNull();
    expect((await client.get(creatives(), { line_item_ids: li, with_total_count: true })).body.total_count).toBe(3);
  });

  const refusals: Array<[string, Params, string]> = [
    ['line_item_ids takes at most 200 ids', { line_item_ids: Array.from({ length: 201 }, (_, i) => `l${i}`).join(',') }, 'line_item_ids'],
    ['media_creative_ids takes at most 200 ids', { media_creative_ids: Array.from({ length: 201 }, (_, i) => `m${i}`).join(',') }, 'media_creative_ids'],
    ['sort_by needs a supported attribute', { sort_by: 'creative_type-asc' }, 'sort_by'],
  ];
  it.each(refusals)('%s', async (_name, params, parameter) => {
    expectError(await client.get(creatives(), params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('GET /:id answers the record; an unknown id is 404', async () => {
    const r = await client.get(creatives(`/${ids[1]}`));
    expect(r.body.request.params).toEqual({ account_id: account, media_creative_id: ids[1] });
    expect(r.body.data).toMatchObject({ id: ids[1], creative_type: 'BANNER' });
    expectError(await client.get(creatives('/zzzzzz')), 404, 'NOT_FOUND', 'media_creative_id');
  });
});

describe('DELETE media_creatives; no PUT', () => {
  it('marks it deleted; hidden unless with_deleted; a second DELETE is 404', async () => {
    const li = await prerollLineItem();
    const mc = await create({ line_item_id: li, account_media_id: media['BANNER']! });
    const r = await client.delete(creatives(`/${mc.id}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: mc.id, deleted: true });
    expect(await listIds({ line_item_ids: li })).toEqual([]);
    expect(await listIds({ campaign_id: prerollCampaign, media_creative_ids: mc.id, with_deleted: true })).toEqual([mc.id]);
    expectError(await client.get(creatives(`/${mc.id}`)), 404, 'NOT_FOUND');
    expect((await client.get(creatives(`/${mc.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(creatives(`/${mc.id}`)), 404, 'NOT_FOUND');
  });

  it.each([['/:id', true], ['the collection', false]])('PUT on %s is 405', async (_name, withId) => {
    const li = await prerollLineItem();
    const mc = await create({ line_item_id: li, account_media_id: media['BANNER']! });
    expectError(await client.put(withId ? creatives(`/${mc.id}`) : creatives(), { landing_url: 'https://example.com/' }), 405, 'METHOD_NOT_ALLOWED');
  });
});
