import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { TestClient, startTestEmulator, type Params, type Reply, type SendOptions } from '../support/client.js';
import { createCampaign } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { expectError } from '../support/assertions.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;


async function newSandboxAccount(): Promise<string> {
  const r = await client.post('/12/accounts', {}, { base: 'sandbox' });
  expect(r.status, r.text).toBe(201);
  return r.body.data[0].id;
}

/** Every record of a list endpoint, paging with `params` until next_cursor is null. */
async function pageAll(path: string, params: Params): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: Reply = await client.get(path, cursor === null ? params : { ...params, cursor });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.length).toBeLessThanOrEqual(Number(params['count']));
    items.push(...r.body.data);
    cursor = r.body.next_cursor;
    pages++;
  } while (cursor !== null && pages < 50);
  return { items, pages };
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator());
});
afterAll(() => emulator.close());

/** The common list rules, for the two plain account lists (apps and promotable users). */
describe.each([
  ['account_apps', ['app_store_identifier', 'conversion_tracking_enabled', 'created_at', 'deep_link_pattern', 'deleted', 'id', 'os_type', 'updated_at'], undefined],
  ['promotable_users', ['created_at', 'deleted', 'id', 'promotable_user_type', 'updated_at', 'user_id'], 'promotable_user_ids'],
] as const)('GET %s', (resource, fields, idsParam) => {
  const path = (): string => `/12/accounts/${account}/${resource}`;

  it('defaults: list envelope, the seeded records in creation order, no total_count', async () => {
    const r = await client.get(path());
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account } });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body).not.toHaveProperty('total_count');
    expect(r.body.data).toHaveLength(2);
    for (const x of r.body.data) {
      expect(Object.keys(x).sort()).toEqual([...fields]);
      expect(x.deleted).toBe(false);
    }
    expect(r.body.data[0].created_at <= r.body.data[1].created_at).toBe(true);
  });
  it('echoes typed parameters', async () => {
    const r = await client.get(path(), { count: 5, with_deleted: 'true', sort_by: 'created_at-asc' });
    expect(r.body.request.params).toEqual({ account_id: account, count: 5, with_deleted: true, sort_by: 'created_at-asc' });
  });
  it.each<[string, Params, string, string]>([
    ['count=0', { count: 0 }, 'INVALID_PARAMETER', 'count'],
    ['count=1001', { count: 1001 }, 'INVALID_PARAMETER', 'count'],
    ['a sort attribute not sortable here', { sort_by: 'user_id-asc' }, 'INVALID_PARAMETER', 'sort_by'],
    ['with_total_count with cursor', { with_total_count: 'true', cursor: 's1' }, 'EXCLUSIVE_PARAMETERS', 'with_total_count'],
    ['with_deleted not a boolean', { with_deleted: 'yes' }, 'INVALID_PARAMETER', 'with_deleted'],
    ['an unknown parameter', { q: 'acme' }, 'INVALID_PARAMETER', 'q'],
  ])('refuses %s with 400', async (_label, params, code, parameter) => {
    expectError(await client.get(path(), params), 400, code, parameter);
  });
  it('pages with count=1 until next_cursor is null, without duplicates or gaps', async () => {
    const all = (await client.get(path())).body.data.map((x: { id: string }) => x.id);
    const { items, pages } = await pageAll(path(), { count: 1 });
    expect(items.map((x: { id: string }) => x.id)).toEqual(all);
    expect(pages).toBe(all.length);
  });
  it.each([
    ['created_at-desc', true],
    ['updated_at-asc', false],
    ['deleted-desc', true],
  ] as const)('sorts by %s (ties keep creation order)', async (sortBy, desc) => {
    const all = (await client.get(path())).body.data.map((x: { id: string }) => x.id);
    const r = await client.get(path(), { sort_by: sortBy });
    expect(r.status, r.text).toBe(200);
    const field = sortBy.slice(0, sortBy.lastIndexOf('-'));
    const values = r.body.data.map((x: Record<string, unknown>) => String(x[field]));
    const sorted = [...values].sort();
    expect(values).toEqual(desc ? sorted.reverse() : sorted);
    if (new Set(values).size === 1) expect(r.body.data.map((x: { id: string }) => x.id)).toEqual(all);
  });
  it('adds total_count when asked', async () => {
    const r = await client.get(path(), { with_total_count: 'true', count: 1 });
    expect(r.body.total_count).toBe(2);
    expect(r.body.data).toHaveLength(1);
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.get(`/12/accounts/nosuchacct/${resource}`), 403, 'ACCOUNT_NOT_FOUND');
  });
  if (idsParam === undefined) {
    it('takes no id filter', async () => {
      expectError(await client.get(path(), { account_app_ids: 'x' }), 400, 'INVALID_PARAMETER', 'account_app_ids');
    });
  } else {
    it('filters by ids, leaving out unknown ones, and refuses more than 200', async () => {
      const all = (await client.get(path())).body.data.map((x: { id: string }) => x.id);
      const r = await client.get(path(), { [idsParam]: `${all[1]},nosuchid` });
      expect(r.body.request.params[idsParam]).toEqual([all[1], 'nosuchid']);
      expect(r.body.data.map((x: { id: string }) => x.id)).toEqual([all[1]]);
      const many = Array.from({ length: 201 }, (_, i) => `p${i}`);
      expectError(await client.get(path(), { [idsParam]: many }), 400, 'INVALID_PARAMETER', idsParam);
      expect((await client.get(path(), { [idsParam]: many.slice(1) })).status).toBe(200);
    });
  }
});

describe('GET promotable_users/:promotable_user_id', () => {
  it('returns the promotable user in the single envelope', async () => {
    const full = (await client.get(`/12/accounts/${account}/promotable_users`)).body.data[0];
    const r = await client.get(`/12/accounts/${account}/promotable_users/${full.id}`, { with_deleted: 'false' });
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account, promotable_user_id: full.id, with_deleted: false } });
    expect(r.body.data).toEqual(full);
    expect(r.body.data).toMatchObject({ user_id: emulator.info.user_id, promotable_user_type: 'FULL' });
  });
  it.each<[string, string, Params, number, string]>([
    ['an unknown id', 'nosuchid', {}, 404, 'NOT_FOUND'],
    ['an unknown parameter', 'nosuchid', { count: 1 }, 400, 'INVALID_PARAMETER'],
  ])('refuses %s', async (_label, id, params, status, code) => {
    expectError(await client.get(`/12/accounts/${account}/promotable_users/${id}`, params), status, code);
  });
  it('does not show another account\'s promotable user', async () => {
    const other = await newSandboxAccount();
    const mine = (await client.get(`/12/accounts/${account}/promotable_users`)).body.data[0].id;
    expectError(await client.get(`/12/accounts/${other}/promotable_users/${mine}`), 404, 'NOT_FOUND', 'promotable_user_id');
  });
});

describe('GET authenticated_user_access', () => {
  it('returns the caller and their permissions on the account', async () => {
    const r = await client.get(`/12/accounts/${account}/authenticated_user_access`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account } }, data: { user_id: emulator.info.user_id, permissions: ['ACCOUNT_ADMIN', 'TWEET_COMPOSER'] } });
  });
  it.each<[string, string, Params, number, string]>([
    ['a parameter (the endpoint takes none)', 'seed', { user_id: '1' }, 400, 'INVALID_PARAMETER'],
    ['an account that does not exist', 'nosuchacct', {}, 403, 'ACCOUNT_NOT_FOUND'],
  ])('refuses %s', async (_label, id, params, status, code) => {
    expectError(await client.get(`/12/accounts/${id === 'seed' ? account : id}/authenticated_user_access`, params), status, code);
  });
});

describe('features', () => {
  let sandbox: string;
  const path = (id: string): string => `/12/accounts/${id}/features`;
  beforeAll(async () => {
    sandbox = await newSandboxAccount();
  });

  it('GET lists the granted keys, sorted, in the single envelope', async () => {
    const r = await client.get(path(account));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account } }, data: ['AGE_TARGETING', 'CITY_TARGETING', 'CONVERSATION_CARD'] });
  });
  it('a new sandbox account has no features', async () => {
    expect((await client.get(path(sandbox))).body.data).toEqual([]);
  });
  it.each<[string, Params, number, string | string[]]>([
    ['a filter value the account lacks gives an empty list', { feature_keys: 'REACH_FREQUENCY_CAP' }, 200, []],
    ['every filter value is accepted', { feature_keys: 'REACH_AND_FREQUENCY_ANALYTICS,REACH_FREQUENCY_CAP,WEBSITE_CLICKS_CPM_BILLING' }, 200, []],
    ['a granted key that is not a filter value is refused', { feature_keys: 'AGE_TARGETING' }, 400, 'INVALID_PARAMETER'],
    ['an unknown key is refused', { feature_keys: 'TELEPORTATION' }, 400, 'INVALID_PARAMETER'],
    ['an empty filter is refused', { feature_keys: '' }, 400, 'INVALID_PARAMETER'],
    ['an unknown parameter is refused', { feature_key: 'REACH_FREQUENCY_CAP' }, 400, 'INVALID_PARAMETER'],
  ])('GET: %s', async (_label, params, status, expected) => {
    const r = await client.get(path(account), params);
    if (status === 200) {
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual(expected);
    } else expectError(r, status, expected as string);
  });

  /** Applied in order to the new sandbox account: method, feature_keys, expected full array. */
  const steps: Array<[string, 'POST' | 'DELETE', string, string[]]> = [
    ['POST grants keys and answers the full sorted array', 'POST', 'VALIDATED_AGE_TARGETING,REACH_FREQUENCY_CAP', ['REACH_FREQUENCY_CAP', 'VALIDATED_AGE_TARGETING']],
    ['POST of a granted key changes nothing', 'POST', 'REACH_FREQUENCY_CAP', ['REACH_FREQUENCY_CAP', 'VALIDATED_AGE_TARGETING']],
    ['POST adds to the existing keys', 'POST', 'AGE_TARGETING', ['AGE_TARGETING', 'REACH_FREQUENCY_CAP', 'VALIDATED_AGE_TARGETING']],
    ['DELETE withdraws keys', 'DELETE', 'VALIDATED_AGE_TARGETING,AGE_TARGETING', ['REACH_FREQUENCY_CAP']],
    ['DELETE of a key not granted changes nothing', 'DELETE', 'DR_TAP', ['REACH_FREQUENCY_CAP']],
  ];
  it.each(steps)('%s', async (_label, method, keys, expected) => {
    const r = await client.send(method, path(sandbox), { feature_keys: keys }, { base: 'sandbox' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request.params).toEqual({ account_id: sandbox, feature_keys: keys.split(',') });
    expect(r.body.data).toEqual(expected);
    expect((await client.get(path(sandbox))).body.data).toEqual(expected);
  });
  it('GET filters to the granted filter values', async () => {
    const r = await client.get(path(sandbox), { feature_keys: 'REACH_FREQUENCY_CAP,REACH_AND_FREQUENCY_ANALYTICS' });
    expect(r.body.data).toEqual(['REACH_FREQUENCY_CAP']);
  });
  it.each<[string, 'POST' | 'DELETE', Params, 'ads' | 'sandbox', number, string]>([
    ['POST without feature_keys', 'POST', {}, 'sandbox', 400, 'MISSING_PARAMETER'],
    ['DELETE without feature_keys', 'DELETE', {}, 'sandbox', 400, 'MISSING_PARAMETER'],
    ['POST of a key that is not a sandbox key', 'POST', { feature_keys: 'CITY_TARGETING' }, 'sandbox', 400, 'INVALID_PARAMETER'],
    ['POST of a filter-only key', 'POST', { feature_keys: 'WEBSITE_CLICKS_CPM_BILLING' }, 'sandbox', 400, 'INVALID_PARAMETER'],
    ['DELETE of an unknown key', 'DELETE', { feature_keys: 'AGE_TARGETING,NOPE' }, 'sandbox', 400, 'INVALID_PARAMETER'],
    ['POST with an unknown parameter', 'POST', { feature_keys: 'DR_TAP', note: 'x' }, 'sandbox', 400, 'INVALID_PARAMETER'],
    ['POST at the production base URL', 'POST', { feature_keys: 'DR_TAP' }, 'ads', 405, 'METHOD_NOT_ALLOWED'],
    ['DELETE at the production base URL', 'DELETE', { feature_keys: 'DR_TAP' }, 'ads', 405, 'METHOD_NOT_ALLOWED'],
  ])('refuses %s', async (_label, method, params, base, status, code) => {
    expectError(await client.send(method, path(sandbox), params, { base }), status, code);
    expect((await client.get(path(sandbox))).body.data).toEqual(['REACH_FREQUENCY_CAP']);
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.post(path('nosuchacct'), { feature_keys: 'DR_TAP' }, { base: 'sandbox' }), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('GET account_history', () => {
  const path = (): string => `/12/accounts/${account}/account_history`;
  let campaign: any;
  let window: { start: string; end: string };
  const hourOf = (time: string, plusHours = 0): string =>
    new Date(Date.parse(`${time.slice(0, 13)}:00:00Z`) + plusHours * 3_600_000).toISOString().replace('.000Z', 'Z');
  const query = (extra: Params = {}): Params => ({ entity_type: 'CAMPAIGN', entity_id: campaign.id, start_time: window.start, end_time: window.end, ...extra });

  beforeAll(async () => {
    campaign = await createCampaign(client, account, { name: 'history original' });
    for (const name of ['history one', 'history two', 'history three']) {
      const r = await client.put(`/12/accounts/${account}/campaigns/${campaign.id}`, { name });
      expect(r.status, r.text).toBe(200);
    }
    const d = await client.delete(`/12/accounts/${account}/campaigns/${campaign.id}`);
    expect(d.status, d.text).toBe(200);
    // two hours from the creation hour hold every change even if an hour boundary passed meanwhile
    window = { start: hourOf(campaign.created_at), end: hourOf(campaign.created_at, 2) };
  });

  it('lists the entity\'s changes oldest first with the record fields of the spec', async () => {
    const r = await client.get(path(), query());
    expect(r.status, r.text).toBe(200);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'DELETE']);
    for (const h of r.body.data) {
      expect(Object.keys(h).sort()).toEqual(['change_by', 'change_time', 'change_type', 'changes', 'entity', 'entity_data', 'entity_id']);
      expect(h).toMatchObject({ entity: 'CAMPAIGN', entity_id: campaign.id, change_by: { user_id: emulator.info.user_id } });
    }
    const [create, first] = r.body.data;
    expect(create.entity_data).toMatchObject({ id: campaign.id, name: 'history original' });
    expect(create.changes).toEqual({});
    expect(first.changes.name).toEqual({ old: 'history original', new: 'history one' });
    expect(r.body.data[4].entity_data.deleted).toBe(true);
  });
  it('echoes typed parameters', async () => {
    const r = await client.get(path(), query({ count: 2, user_id: emulator.info.user_id, start_time: window.start.replace('Z', '+00:00') }));
    expect(r.body.request.params).toEqual({ account_id: account, ...query(), count: 2, user_id: emulator.info.user_id });
  });
  it('pages with count=2 until next_cursor is null, without duplicates or gaps', async () => {
    const all = (await client.get(path(), query())).body.data;
    const { items, pages } = await pageAll(path(), query({ count: 2 }));
    expect(pages).toBe(3);
    expect(items).toEqual(all);
  });
  it.each<[string, (w: { start: string; end: string }) => Params, number]>([
    ['a window ending at the creation hour holds nothing', (w) => ({ start_time: hourOf(w.start, -1), end_time: w.start }), 0],
    ['a window after the changes holds nothing', (w) => ({ start_time: w.end, end_time: hourOf(w.end, 1) }), 0],
    ['a window around the changes holds all of them', (w) => ({ start_time: hourOf(w.start, -24), end_time: hourOf(w.end, 24) }), 5],
    ['user_id of the author keeps them', () => ({ user_id: emulator.info.user_id }), 5],
    ['user_id of another user drops them', () => ({ user_id: '783214' }), 0],
    ['another entity type drops them', () => ({ entity_type: 'LINE_ITEM' }), 0],
    ['another entity id drops them', () => ({ entity_id: 'nosuchid' }), 0],
  ])('%s', async (_label, extra, count) => {
    const r = await client.get(path(), query(extra(window)));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(count);
  });
  it('does not show another account\'s history of the same entity', async () => {
    const other = await newSandboxAccount();
    const r = await client.get(`/12/accounts/${other}/account_history`, query());
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual([]);
  });
  it('reports every missing required parameter at once', async () => {
    const r = await client.get(path());
    expect(r.status).toBe(400);
    const missing = r.body.errors.filter((e: { code: string }) => e.code === 'MISSING_PARAMETER').map((e: { parameter: string }) => e.parameter);
    expect(missing.sort()).toEqual(['end_time', 'entity_id', 'entity_type', 'start_time']);
  });
  it.each<[string, Params, string, string]>([
    ['an entity_type outside the enum', { entity_type: 'ACCOUNT' }, 'INVALID_PARAMETER', 'entity_type'],
    ['a start_time with minutes', { start_time: '2026-01-01T10:30:00Z' }, 'INVALID_PARAMETER', 'start_time'],
    ['an end_time with seconds', { end_time: '2099-01-01T10:00:05Z' }, 'INVALID_PARAMETER', 'end_time'],
    ['a start_time with a fraction of a second', { start_time: '2026-01-01T10:00:00.500Z' }, 'INVALID_PARAMETER', 'start_time'],
    ['a start_time whose offset leaves minutes in UTC', { start_time: '2026-01-01T10:00:00+05:30' }, 'INVALID_PARAMETER', 'start_time'],
    ['a malformed end_time', { end_time: 'later' }, 'INVALID_PARAMETER', 'end_time'],
    ['end_time equal to start_time', { start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T10:00:00Z' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['end_time before start_time', { start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T09:00:00Z' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['user_id that is not a long', { user_id: 'owner' }, 'INVALID_PARAMETER', 'user_id'],
    ['count=0', { count: 0 }, 'INVALID_PARAMETER', 'count'],
    ['count=1001', { count: 1001 }, 'INVALID_PARAMETER', 'count'],
    ['a malformed cursor', { cursor: '??' }, 'INVALID_PARAMETER', 'cursor'],
    ['with_total_count (not a parameter here)', { with_total_count: 'true' }, 'INVALID_PARAMETER', 'with_total_count'],
    ['sort_by (not a parameter here)', { sort_by: 'created_at-asc' }, 'INVALID_PARAMETER', 'sort_by'],
    ['with_deleted (not a parameter here)', { with_deleted: 'true' }, 'INVALID_PARAMETER', 'with_deleted'],
  ])('refuses %s with 400', async (_label, extra, code, parameter) => {
    expectError(await client.get(path(), query(extra)), 400, code, parameter);
  });
  it.each([1, 1000])('accepts count=%i', async (count) => {
    const r = await client.get(path(), query({ count }));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(Math.min(count, 5));
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.get('/12/accounts/nosuchacct/account_history', query()), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('GET account_history window bounds (emulator on a settable clock)', () => {
  let clocked: RunningEmulator;
  let at = Date.parse('2026-03-01T10:00:00Z');
  /** Signs with the emulator's clock, so requests stay inside the OAuth timestamp window. */
  class ClockedClient extends TestClient {
    override send<T = any>(method: string, path: string, params: Params = {}, opts: SendOptions = {}): Promise<Reply<T>> {
      return super.send(method, path, params, { timestamp: Math.floor(at / 1000), ...opts });
    }
  }
  let c: ClockedClient;
  let campaignId: string;
  const history = (start: string, end: string): Promise<Reply> =>
    c.get(`/12/accounts/${clocked.info.account_id}/account_history`, { entity_type: 'CAMPAIGN', entity_id: campaignId, start_time: start, end_time: end });

  beforeAll(async () => {
    ({ emulator: clocked } = await startTestEmulator({ clock: { now: () => new Date(at) } }));
    c = new ClockedClient(clocked.info);
    campaignId = (await createCampaign(c, clocked.info.account_id, { name: 'clocked' })).id;
    for (const [time, name] of [['2026-03-01T10:59:59Z', 'last second'], ['2026-03-01T11:00:00Z', 'next hour']] as const) {
      at = Date.parse(time);
      const r = await c.put(`/12/accounts/${clocked.info.account_id}/campaigns/${campaignId}`, { name });
      expect(r.status, r.text).toBe(200);
    }
  });
  afterAll(() => clocked.close());

  it.each<[string, string, string, string[]]>([
    ['start_time is inclusive and end_time exclusive', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z', ['2026-03-01T10:00:00Z', '2026-03-01T10:59:59Z']],
    ['a change exactly at start_time is in', '2026-03-01T11:00:00Z', '2026-03-01T12:00:00Z', ['2026-03-01T11:00:00Z']],
    ['a change exactly at end_time is out', '2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z', []],
  ])('%s', async (_label, start, end, times) => {
    const r = await history(start, end);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((h: { change_time: string }) => h.change_time)).toEqual(times);
  });
});

describe('POST audience_estimate', () => {
  const path = (id = account): string => `/12/accounts/${id}/audience_estimate`;
  const estimate = (criteria: unknown, id = account): Promise<Reply> => client.post(path(id), {}, { json: { targeting_criteria: criteria } });
  const sizeOf = async (criteria: unknown): Promise<{ min: number; max: number }> => {
    const r = await estimate(criteria);
    expect(r.status, r.text).toBe(200);
    return r.body.data.audience_size;
  };
  const nba = { targeting_type: 'BROAD_KEYWORD', targeting_value: 'nba' };
  const tech = { targeting_type: 'BROAD_KEYWORD', targeting_value: 'tech', operator_type: 'NE' };
  const sf = { targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1', operator_type: 'EQ' };
  const similar = { targeting_type: 'SIMILAR_TO_FOLLOWERS_OF_USER', targeting_value: '14230524' };

  it('answers audience_size with integer min <= max and echoes the criteria with defaults', async () => {
    const r = await estimate([nba, tech, sf, similar]);
    expect(r.status, r.text).toBe(200);
    const { min, max } = r.body.data.audience_size;
    expect(Number.isInteger(min) && Number.isInteger(max)).toBe(true);
    expect(min).toBeGreaterThan(0);
    expect(min).toBeLessThanOrEqual(max);
    expect(Object.keys(r.body.data)).toEqual(['audience_size']);
    expect(r.body.request.params).toEqual({
      account_id: account,
      targeting_criteria: [{ ...nba, operator_type: 'EQ' }, tech, sf, { ...similar, operator_type: 'EQ' }],
    });
  });
  it('is deterministic and independent of the criteria order', async () => {
    const a = await sizeOf([nba, tech, sf, similar]);
    expect(await sizeOf([nba, tech, sf, similar])).toEqual(a);
    expect(await sizeOf([similar, sf, tech, nba])).toEqual(a);
  });
  it.each<[string, unknown[], unknown[], 'narrower' | 'wider']>([
    ['a location narrows it', [nba], [nba, sf], 'narrower'],
    ['an exclusion narrows it', [nba, sf], [nba, sf, tech], 'narrower'],
    ['a second primary criterion widens it', [nba], [nba, similar], 'wider'],
  ])('%s', async (_label, base, more, direction) => {
    const a = await sizeOf(base);
    const b = await sizeOf(more);
    if (direction === 'narrower') expect(b.max).toBeLessThan(a.max);
    else expect(b.min).toBeGreaterThan(a.min);
  });
  it.each<[string, unknown, string, string]>([
    ['an empty object body', {}, 'MISSING_PARAMETER', 'targeting_criteria'],
    ['a body that is an array', [nba], 'INVALID_PARAMETER', 'body'],
    ['an empty criteria array', { targeting_criteria: [] }, 'INVALID_PARAMETER', 'targeting_criteria'],
    ['criteria that are not an array', { targeting_criteria: nba }, 'INVALID_PARAMETER', 'targeting_criteria'],
    ['a criterion that is not an object', { targeting_criteria: ['nba'] }, 'INVALID_PARAMETER', 'targeting_criteria'],
    ['a criterion without targeting_type', { targeting_criteria: [{ targeting_value: 'nba' }] }, 'MISSING_PARAMETER', 'targeting_type'],
    ['a criterion without targeting_value', { targeting_criteria: [{ targeting_type: 'INTEREST' }] }, 'MISSING_PARAMETER', 'targeting_value'],
    ['an unknown targeting_type', { targeting_criteria: [nba, { targeting_type: 'MOOD', targeting_value: 'happy' }] }, 'INVALID_TARGETING_TYPE', 'targeting_type'],
    ['operator_type outside EQ, NE', { targeting_criteria: [{ ...nba, operator_type: 'GTE' }] }, 'INVALID_PARAMETER', 'operator_type'],
    ['an unknown key in a criterion', { targeting_criteria: [{ ...nba, line_item_id: 'abc' }] }, 'INVALID_PARAMETER', 'line_item_id'],
    ['an unknown top-level key', { targeting_criteria: [nba], objective: 'REACH' }, 'INVALID_PARAMETER', 'objective'],
    ['no primary criterion', { targeting_criteria: [sf] }, 'INVALID_PARAMETER', 'targeting_criteria'],
    ['a primary criterion only as an exclusion', { targeting_criteria: [sf, tech] }, 'INVALID_PARAMETER', 'targeting_criteria'],
  ])('refuses %s with 400', async (_label, body, code, parameter) => {
    expectError(await client.post(path(), {}, { json: body }), 400, code, parameter);
  });
  it.each<[string, () => Promise<Reply>, number, string]>([
    ['a form body', () => client.post(path(), { targeting_criteria: 'nba' }, { as: 'form' }), 400, 'INVALID_PARAMETER'],
    ['an unknown query parameter', () => client.post(path(), { dry_run: 'true' }, { json: { targeting_criteria: [nba] } }), 400, 'INVALID_PARAMETER'],
    ['an account that does not exist', () => estimate([nba], 'nosuchacct'), 403, 'ACCOUNT_NOT_FOUND'],
  ])('refuses %s', async (_label, send, status, code) => {
    expectError(await send(), status, code);
  });
  it.each(['INTEREST', 'FOLLOWERS_OF_USER', 'CUSTOM_AUDIENCE', 'EXACT_KEYWORD', 'TV_SHOW'])('accepts %s as a primary criterion', async (type) => {
    expect((await sizeOf([{ targeting_type: type, targeting_value: '1234' }])).min).toBeGreaterThan(0);
  });
});

describe('who may do what (other seeded users, logged in through the three-legged flow)', () => {
  let manager: TestClient;
  let analyst: TestClient;
  let creative: TestClient;
  beforeAll(async () => {
    manager = client.as(await loginAs(client, 'adsctl_manager'));
    analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    creative = client.as(await loginAs(client, 'adsctl_creative'));
  });
  const nba = { targeting_type: 'BROAD_KEYWORD', targeting_value: 'nba' };

  it.each<[string, () => TestClient, string, string[]]>([
    ['an AD_MANAGER', () => manager, '756201191646691329', ['AD_MANAGER']],
    ['a CAMPAIGN_ANALYST', () => analyst, '756201191646691331', ['CAMPAIGN_ANALYST']],
    ['a CREATIVE_MANAGER', () => creative, '756201191646691330', ['CREATIVE_MANAGER']],
  ])('authenticated_user_access answers the permissions of %s', async (_label, who, userId, permissions) => {
    const r = await who().get(`/12/accounts/${account}/authenticated_user_access`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ user_id: userId, permissions });
  });
  it.each<[string, () => Promise<Reply>, number, string | undefined]>([
    ['a CAMPAIGN_ANALYST may read features', () => analyst.get(`/12/accounts/${account}/features`), 200, undefined],
    ['a CAMPAIGN_ANALYST may list account apps', () => analyst.get(`/12/accounts/${account}/account_apps`), 200, undefined],
    ['a CAMPAIGN_ANALYST may list promotable users', () => analyst.get(`/12/accounts/${account}/promotable_users`), 200, undefined],
    ['a CAMPAIGN_ANALYST may estimate an audience', () => analyst.post(`/12/accounts/${account}/audience_estimate`, {}, { json: { targeting_criteria: [nba] } }), 200, undefined],
    [
      'a CREATIVE_MANAGER may read account history',
      () => creative.get(`/12/accounts/${account}/account_history`, { entity_type: 'CAMPAIGN', entity_id: 'x', start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' }),
      200,
      undefined,
    ],
    ['granting features needs ACCOUNT_ADMIN', () => manager.post(`/12/accounts/${account}/features`, { feature_keys: 'DR_TAP' }, { base: 'sandbox' }), 403, 'ACTION_NOT_ALLOWED'],
    ['withdrawing features needs ACCOUNT_ADMIN', () => manager.delete(`/12/accounts/${account}/features`, { feature_keys: 'AGE_TARGETING' }, { base: 'sandbox' }), 403, 'ACTION_NOT_ALLOWED'],
  ])('%s', async (_label, send, status, code) => {
    const r = await send();
    if (code === undefined) expect(r.status, r.text).toBe(status);
    else expectError(r, status, code);
  });
  it('refused feature changes leave the features as they were', async () => {
    expect((await client.get(`/12/accounts/${account}/features`)).body.data).toEqual(['AGE_TARGETING', 'CITY_TARGETING', 'CONVERSATION_CARD']);
  });
});
