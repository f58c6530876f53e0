/**
 * Refusals of chosen requests (`/_emulator/refusals`): a rule names a route and parameters; a
 * matching request is answered with the rule's error as the service answers it and changes
 * nothing, a matching batch item fails its whole batch with aligned `operation_errors`.
 */
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { clearRefusals, listRefusals, refuse } from '../support/refusals.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let campaignId: string;

const US = '96683cc9126741d1';
const SF = '5122804691e5fecc';

const criteria = (): string => `/12/accounts/${account}/targeting_criteria`;
const batchCriteria = (): string => `/12/batch/accounts/${account}/targeting_criteria`;
const promoted = (): string => `/12/accounts/${account}/promoted_tweets`;

async function criteriaOf(lineItemId: string): Promise<Array<Record<string, unknown>>> {
  const r = await client.get(criteria(), { line_item_ids: lineItemId });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

const create = (lineItemId: string, value: string): unknown => ({ operation_type: 'Create', params: { line_item_id: lineItemId, targeting_type: 'LOCATION', targeting_value: value } });

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  campaignId = (await createCampaign(client, account)).id;
});
afterEach(() => clearRefusals(emulator.info));
afterAll(() => emulator.close());

describe('a refused request', () => {
  it('is answered with the rule\'s status and error envelope, and nothing changes', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    const rule = await refuse(emulator.info, { method: 'POST', path: '/targeting_criteria$', match: { targeting_value: SF }, status: 400, code: 'INVALID_PARAMETER', message: `Unknown location ${SF}`, parameter: 'targeting_value' });
    expect(rule.id).toMatch(/^r\d+$/);
    expect(rule).toMatchObject({ method: 'POST', path: '/targeting_criteria$', match: { targeting_value: SF }, fired: 0 });

    const r = await client.post(criteria(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: SF }, { as: 'form' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ code: 'INVALID_PARAMETER', message: `Unknown location ${SF}`, parameter: 'targeting_value' }]);
    expect(r.body.request.params).toMatchObject({ account_id: account });
    expect(await criteriaOf(li)).toEqual([]);

    const other = await client.post(criteria(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: US }, { as: 'form' });
    expect(other.status, other.text).toBe(201);
    expect((await listRefusals(emulator.info)).map((x) => [x.id, x.fired])).toEqual([[rule.id, 1]]);
  });

  it('matches the query string, a JSON object body and one entry of a comma list', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    const [a, b] = SEED_POST_IDS.slice(0, 2) as [string, string];
    await refuse(emulator.info, { path: '/promoted_tweets$', match: { tweet_ids: b }, status: 404, code: 'NOT_FOUND', message: `Tweet ${b} was not found`, parameter: 'tweet_ids' });
    const both = await client.post(promoted(), { line_item_id: li, tweet_ids: `${a},${b}` });
    expect(both.status).toBe(404);
    expect(both.body.errors).toEqual([{ code: 'NOT_FOUND', message: `Tweet ${b} was not found`, parameter: 'tweet_ids' }]);
    const one = await client.post(promoted(), { line_item_id: li, tweet_ids: a });
    expect(one.status, one.text).toBe(201);
    expect(one.body.data.map((p: { tweet_id: string }) => p.tweet_id)).toEqual([a]);

    const byName = await refuse(emulator.info, { path: '/cards$', match: { name: 'refused card' } });
    const card = await client.post(`/12/accounts/${account}/cards`, {}, { json: { name: 'refused card', components: [] } });
    expect(card.status).toBe(400);
    expect(card.body.errors).toEqual([{ code: 'INVALID_PARAMETER', message: `Refused by emulator rule ${byName.id} (name=refused card)` }]);
  });

  it('with times stops after refusing that many requests; a method or path that differs is not refused', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    await refuse(emulator.info, { method: 'POST', path: '/targeting_criteria$', times: 1 });
    expect((await client.get(criteria(), { line_item_ids: li })).status).toBe(200);
    const first = await client.post(criteria(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: US }, { as: 'form' });
    expect(first.status).toBe(400);
    expect(first.body.errors[0].code).toBe('INVALID_PARAMETER');
    const second = await client.post(criteria(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: US }, { as: 'form' });
    expect(second.status, second.text).toBe(201);
    expect((await listRefusals(emulator.info))[0]).toMatchObject({ times: 1, fired: 1 });
  });

  it('a 5xx rule answers that status with the service body', async () => {
    await refuse(emulator.info, { method: 'GET', path: `^/12/accounts/${account}$`, status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' });
    const r = await client.get(`/12/accounts/${account}`);
    expect(r.status).toBe(503);
    expect(r.body.errors).toEqual([{ code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }]);
  });
});

describe('a refused batch', () => {
  it('fails as a whole with operation_errors aligned to the input; nothing changes', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    const kept = await client.post(criteria(), { line_item_id: li, targeting_type: 'LOCATION', targeting_value: US }, { as: 'form' });
    expect(kept.status, kept.text).toBe(201);
    await refuse(emulator.info, { path: '/batch/accounts/[^/]+/targeting_criteria$', match: { operation_type: 'Create', targeting_value: SF }, code: 'INVALID_PARAMETER', message: `Unknown location ${SF}`, parameter: 'targeting_value' });

    const r = await client.post(batchCriteria(), {}, { json: [{ operation_type: 'Delete', params: { targeting_criterion_id: kept.body.data.id } }, create(li, SF)] });
    expect(r.status).toBe(400);
    expect(r.body.operation_errors).toEqual([[], [{ code: 'INVALID_PARAMETER', message: `Unknown location ${SF}`, parameter: 'targeting_value' }]]);
    expect(r.body.request).toEqual([
      { params: { targeting_criterion_id: kept.body.data.id, account_id: account }, operation_type: 'Delete' },
      { params: { line_item_id: li, targeting_type: 'LOCATION', targeting_value: SF, account_id: account }, operation_type: 'Create' },
    ]);
    expect((await criteriaOf(li)).map((c) => c['targeting_value'])).toEqual([US]);
  });

  it('an operation_type in match must be the item\'s; items no rule matches go through', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    await refuse(emulator.info, { path: '/targeting_criteria$', match: { operation_type: 'Delete' } });
    const r = await client.post(batchCriteria(), {}, { json: [create(li, SF)] });
    expect(r.status, r.text).toBe(200);
    expect((await listRefusals(emulator.info))[0]!.fired).toBe(0);
  });

  it('a 5xx rule refuses the whole request, not an item', async () => {
    const li = (await createLineItem(client, account, campaignId)).id;
    await refuse(emulator.info, { path: '/batch/', match: { targeting_value: SF }, status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' });
    const r = await client.post(batchCriteria(), {}, { json: [create(li, US), create(li, SF)] });
    expect(r.status).toBe(500);
    expect(r.body.errors).toEqual([{ code: 'INTERNAL_ERROR', message: 'Internal error' }]);
    expect(r.body.operation_errors).toBeUndefined();
    expect(await criteriaOf(li)).toEqual([]);
  });
});

describe('the control endpoint', () => {
  const call = async (method: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await request(`${emulator.info.base_url}/_emulator/refusals`, { method: method as 'POST', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    return { status: res.statusCode, body: await res.body.json() };
  };

  it.each([
    [{}, /"path"/],
    [{ path: '(' }, /not a regular expression/],
    [{ path: 'x', status: 200 }, /"status"/],
    [{ path: 'x', times: 0 }, /"times"/],
    [{ path: 'x', match: ['a'] }, /"match"/],
    [{ path: 'x', match: { a: { b: 1 } } }, /"match\.a"/],
    [{ path: 'x', code: 7 }, /"code"/],
  ])('refuses the malformed rule %j', async (rule, message) => {
    const r = await call('POST', rule);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('lists rules with their counts and clears them all, unsigned', async () => {
    await refuse(emulator.info, { path: 'a' });
    await refuse(emulator.info, { path: 'b', method: 'delete', times: 2 });
    const listed = await call('GET');
    expect(listed.status).toBe(200);
    expect(listed.body.refusals.map((r: { path: string; method?: string; status: number; code: string; times?: number; fired: number }) => [r.path, r.method, r.status, r.code, r.times, r.fired])).toEqual([
      ['a', undefined, 400, 'INVALID_PARAMETER', undefined, 0],
      ['b', 'DELETE', 400, 'INVALID_PARAMETER', 2, 0],
    ]);
    expect(await call('DELETE')).toEqual({ status: 200, body: { cleared: 2 } });
    expect((await call('GET')).body).toEqual({ refusals: [] });
  });
});
