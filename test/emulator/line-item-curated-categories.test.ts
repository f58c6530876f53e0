import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { CURATED_CATEGORIES } from '../../src/emulator/lookups/curated-categories.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError, listIds as listIdsOf } from '../support/assertions.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let lineItem: any;
let otherLineItem: any;
let offsetMs = 0;
const clock = { now: (): Date => new Date(testNow() + offsetMs) };

const CATEGORY = CURATED_CATEGORIES[0]!.id;
const OTHER_CATEGORY = CURATED_CATEGORIES[1]!.id;
const FIELDS = ['created_at', 'curated_category_id', 'deleted', 'id', 'line_item_id', 'updated_at'];

const path = (suffix = ''): string => `/12/accounts/${account}/line_item_curated_categories${suffix}`;


async function associate(params: Params = {}): Promise<any> {
  const r = await client.post(path(), { curated_category_id: CATEGORY, line_item_id: lineItem.id, ...params }, { as: 'form' });
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}


const listIds = (params: Params = {}): Promise<string[]> => listIdsOf(client, path(), params);

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ clock, rateLimitScale: 0 }));
  const campaign = await createCampaign(client, account);
  lineItem = await createLineItem(client, account, campaign.id, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS', placements: 'ALL_ON_SERVICE' });
  otherLineItem = await createLineItem(client, account, campaign.id, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS', placements: 'ALL_ON_SERVICE' });
});
afterAll(() => emulator.close());

describe('POST line_item_curated_categories', () => {
  it('answers 201 with the record and the echo', async () => {
    const r = await client.post(path(), { curated_category_id: CATEGORY, line_item_id: lineItem.id }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.request.params).toEqual({ account_id: account, curated_category_id: CATEGORY, line_item_id: lineItem.id });
    expect(Object.keys(r.body.data).sort()).toEqual(FIELDS);
    expect(r.body.data).toMatchObject({ curated_category_id: CATEGORY, line_item_id: lineItem.id, deleted: false });
    expect(r.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body.data.updated_at).toBe(r.body.data.created_at);
  });

  const rows: Array<[string, () => Params, number, string, string]> = [
    ['curated_category_id is required', () => ({ line_item_id: lineItem.id }), 400, 'MISSING_PARAMETER', 'curated_category_id'],
    ['line_item_id is required', () => ({ curated_category_id: CATEGORY }), 400, 'MISSING_PARAMETER', 'line_item_id'],
    ['an unknown curated category is refused', () => ({ curated_category_id: 'zzzz', line_item_id: lineItem.id }), 400, 'INVALID_PARAMETER', 'curated_category_id'],
    ['an unknown line item is not found', () => ({ curated_category_id: CATEGORY, line_item_id: 'nope1' }), 404, 'NOT_FOUND', 'line_item_id'],
    ['unknown parameters are refused', () => ({ curated_category_id: CATEGORY, line_item_id: lineItem.id, name: 'x' }), 400, 'INVALID_PARAMETER', 'name'],
  ];
  it.each(rows)('%s', async (_name, params, status, code, parameter) => {
    const before = await listIds({ with_deleted: true });
    expectError(await client.post(path(), params(), { as: 'form' }), status, code, parameter);
    expect(await listIds({ with_deleted: true })).toEqual(before);
  });

  it('a deleted line item is not found', async () => {
    const campaign = await createCampaign(client, account);
    const li = await createLineItem(client, account, campaign.id);
    await client.delete(`/12/accounts/${account}/line_items/${li.id}`);
    expectError(await client.post(path(), { curated_category_id: CATEGORY, line_item_id: li.id }, { as: 'form' }), 404, 'NOT_FOUND', 'line_item_id');
  });
});

describe('GET line_item_curated_categories', () => {
  it('GET by id answers the record', async () => {
    const x = await associate();
    const r = await client.get(path(`/${x.id}`));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account, line_item_curated_category_id: x.id } }, data: x });
  });

  it('GET by id of an unknown record is 404', async () => {
    expectError(await client.get(path('/nope1')), 404, 'NOT_FOUND', 'line_item_curated_category_id');
  });

  it('lists in creation order and pages with count and cursor', async () => {
    await associate();
    await associate();
    const all = await listIds();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await client.get(path(), { count: 2 });
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual(all.slice(0, 2));
    const second = await client.get(path(), { count: 2, cursor: first.body.next_cursor });
    expect(second.body.data.map((x: { id: string }) => x.id)).toEqual(all.slice(2, 4));
  });

  it('with_total_count adds total_count', async () => {
    const all = await listIds();
    expect((await client.get(path(), { with_total_count: true })).body.total_count).toBe(all.length);
  });

  it('sort_by created_at-desc puts newer records first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      offsetMs += 2000;
      made.push((await associate()).id);
    }
    const sorted = (await listIds({ sort_by: 'created_at-desc' })).filter((id) => made.includes(id));
    expect(sorted).toEqual([...made].reverse());
  });

  const refused: Array<[string, Params, string]> = [
    ['an unsupported sort_by', { sort_by: 'name-asc' }, 'sort_by'],
    ['a line_item_ids filter (not a parameter of this list)', { line_item_ids: 'x' }, 'line_item_ids'],
    ['count 0', { count: 0 }, 'count'],
  ];
  it.each(refused)('refuses %s', async (_name, params, parameter) => {
    expectError(await client.get(path(), params), 400, 'INVALID_PARAMETER', parameter);
  });
});

describe('PUT line_item_curated_categories/:id', () => {
  const rows: Array<[string, () => Params, () => Record<string, unknown>]> = [
    ['changes the curated category', () => ({ curated_category_id: OTHER_CATEGORY }), () => ({ curated_category_id: OTHER_CATEGORY, line_item_id: lineItem.id })],
    ['moves to another line item', () => ({ line_item_id: otherLineItem.id }), () => ({ curated_category_id: CATEGORY, line_item_id: otherLineItem.id })],
    ['changes nothing when nothing is sent', () => ({}), () => ({ curated_category_id: CATEGORY, line_item_id: lineItem.id })],
  ];
  it.each(rows)('%s', async (_name, params, expected) => {
    const x = await associate();
    offsetMs += 2000;
    const r = await client.put(path(`/${x.id}`), params(), { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject(expected());
    expect(r.body.data.updated_at > x.updated_at).toBe(true);
    expect((await client.get(path(`/${x.id}`))).body.data).toEqual(r.body.data);
  });

  const refused: Array<[string, Params, number, string, string]> = [
    ['an unknown curated category', { curated_category_id: 'zzzz' }, 400, 'INVALID_PARAMETER', 'curated_category_id'],
    ['an unknown line item', { line_item_id: 'nope1' }, 404, 'NOT_FOUND', 'line_item_id'],
    ['an unknown parameter', { deleted: true }, 400, 'INVALID_PARAMETER', 'deleted'],
  ];
  it.each(refused)('refuses %s', async (_name, params, status, code, parameter) => {
    const x = await associate();
    expectError(await client.put(path(`/${x.id}`), params, { as: 'form' }), status, code, parameter);
    expect((await client.get(path(`/${x.id}`))).body.data).toEqual(x);
  });

  it('answers 404 for a deleted record', async () => {
    const x = await associate();
    await client.delete(path(`/${x.id}`));
    expectError(await client.put(path(`/${x.id}`), { curated_category_id: OTHER_CATEGORY }), 404, 'NOT_FOUND', 'line_item_curated_category_id');
  });
});

describe('DELETE line_item_curated_categories/:id', () => {
  it('answers the record with deleted=true; a second DELETE is 404', async () => {
    const x = await associate();
    const r = await client.delete(path(`/${x.id}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: x.id, deleted: true });
    expectError(await client.delete(path(`/${x.id}`)), 404, 'NOT_FOUND', 'line_item_curated_category_id');
  });

  const reads: Array<[string, Params, number]> = [
    ['GET by id without with_deleted is 404', {}, 404],
    ['GET by id with with_deleted=true finds it', { with_deleted: true }, 200],
  ];
  it.each(reads)('%s', async (_name, params, status) => {
    const x = await associate();
    await client.delete(path(`/${x.id}`));
    expect((await client.get(path(`/${x.id}`), params)).status).toBe(status);
  });

  const lists: Array<[string, Params, boolean]> = [
    ['left out of the list by default', {}, false],
    ['listed with with_deleted=true', { with_deleted: true }, true],
  ];
  it.each(lists)('%s', async (_name, params, listed) => {
    const x = await associate();
    await client.delete(path(`/${x.id}`));
    expect((await listIds(params)).includes(x.id)).toBe(listed);
  });
});
