import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { rfc3986 } from '../support/signer.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let allIab: Array<{ id: string; parent_id: string | null; name: string }>;
beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  allIab = (await client.get('/12/iab_categories', { count: 1000 })).body.data;
});
afterAll(() => emulator.close());

const IAB_TOTAL = 392;

/** Every page of a list, following next_cursor. */
async function allPages(path: string, params: Params): Promise<Reply[]> {
  const pages: Reply[] = [];
  let cursor: string | null = null;
  do {
    const r: Reply = await client.get(path, cursor === null ? params : { ...params, cursor });
    expect(r.status).toBe(200);
    pages.push(r);
    cursor = r.body.next_cursor;
  } while (cursor !== null && pages.length < 50);
  return pages;
}

describe('GET iab_categories', () => {
  it('serves the IAB tree: 26 tiers with parent_id null, children IAB<n>-<m> under their tier', () => {
    expect(allIab).toHaveLength(IAB_TOTAL);
    const tiers = allIab.filter((c) => c.parent_id === null);
    expect(tiers.map((c) => c.id)).toEqual(Array.from({ length: 26 }, (_, i) => `IAB${i + 1}`));
    for (const c of allIab) {
      expect(Object.keys(c)).toEqual(['id', 'parent_id', 'name']);
      if (c.parent_id !== null) expect(c.id.startsWith(`${c.parent_id}-`)).toBe(true);
    }
    expect(allIab).toContainEqual({ id: 'IAB3-1', parent_id: 'IAB3', name: 'Advertising' });
    expect(allIab).toContainEqual({ id: 'IAB9-30', parent_id: 'IAB9', name: 'Video & Computer Games' });
    expect(new Set(allIab.map((c) => c.id)).size).toBe(IAB_TOTAL);
  });

  it('pages by the default count of 200 and the cursor, without gaps or repeats', async () => {
    const pages = await allPages('/12/iab_categories', {});
    expect(pages.map((p) => p.body.data.length)).toEqual([200, IAB_TOTAL - 200]);
    expect(pages.flatMap((p) => p.body.data)).toEqual(allIab);
    expect(pages[0]!.body.request).toEqual({ params: {} });
    expect(pages[0]!.body).not.toHaveProperty('total_count');
  });

  it('pages by a small count', async () => {
    const pages = await allPages('/12/iab_categories', { count: 97 });
    expect(pages).toHaveLength(5);
    expect(pages.flatMap((p) => p.body.data)).toEqual(allIab);
  });

  const cases: Array<{ rule: string; params: Params; status: number; code?: string; check?: (r: Reply) => void }> = [
    { rule: 'count 1', params: { count: 1 }, status: 200, check: (r) => expect(r.body.data).toEqual([{ id: 'IAB1', parent_id: null, name: 'Arts & Entertainment' }]) },
    { rule: 'count echoed as a number', params: { count: 5 }, status: 200, check: (r) => expect(r.body.request.params).toEqual({ count: 5 }) },
    { rule: 'count 1000 returns everything', params: { count: 1000 }, status: 200, check: (r) => expect(r.body.next_cursor).toBeNull() },
    { rule: 'count 0', params: { count: 0 }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'count 1001', params: { count: 1001 }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'count not a number', params: { count: 'ten' }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'with_total_count', params: { with_total_count: true, count: 3 }, status: 200, check: (r) => expect(r.body.total_count).toBe(IAB_TOTAL) },
    { rule: 'with_total_count with cursor', params: { with_total_count: true, cursor: 'o5' }, status: 400, code: 'EXCLUSIVE_PARAMETERS' },
    { rule: 'malformed cursor', params: { cursor: 'not a cursor' }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'cursor past the end', params: { cursor: 'o200' }, status: 200, check: (r) => expect(r.body).toMatchObject({ data: [], next_cursor: null }) },
    { rule: 'with_deleted is not a parameter here', params: { with_deleted: true }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'sort_by is not a parameter here', params: { sort_by: 'name-asc' }, status: 400, code: 'INVALID_PARAMETER' },
    { rule: 'q is not a parameter here', params: { q: 'Arts' }, status: 400, code: 'INVALID_PARAMETER' },
  ];
  it.each(cases)('$rule → $status', async ({ params, status, code, check }) => {
    const r = await client.get('/12/iab_categories', params);
    expect(r.status).toBe(status);
    if (code !== undefined) expect(r.body.errors[0].code).toBe(code);
    check?.(r);
  });
});

describe('GET advertiser_business_categories and content_categories', () => {
  it.each(['/12/advertiser_business_categories', '/12/content_categories'])('%s lists every record mapped to existing IAB categories', async (path) => {
    const r = await client.get(path);
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: {} });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.data.length).toBeGreaterThanOrEqual(10);
    const known = new Set(allIab.map((c) => c.id));
    for (const c of r.body.data) {
      expect(Object.keys(c)).toEqual(['id', 'name', 'iab_categories']);
      expect(c.iab_categories.length).toBeGreaterThan(0);
      for (const iab of c.iab_categories) expect(known.has(iab)).toBe(true);
    }
    expect(new Set(r.body.data.map((c: { id: string }) => c.id)).size).toBe(r.body.data.length);
  });

  it.each(['/12/advertiser_business_categories', '/12/content_categories'])('%s takes no parameters', async (path) => {
    const r = await client.get(path, { count: 10 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ code: 'INVALID_PARAMETER', message: 'setting count is not allowed', parameter: 'count' }]);
  });
});

describe('GET bidding_rules', () => {
  const cases: Array<{ rule: string; params: Params; status: number; currencies?: string[] }> = [
    { rule: 'no currency: every rule', params: {}, status: 200, currencies: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'BRL', 'INR', 'JPY'] },
    { rule: 'currency USD', params: { currency: 'USD' }, status: 200, currencies: ['USD'] },
    { rule: 'an ISO 4217 code without a rule', params: { currency: 'XAF' }, status: 200, currencies: [] },
    { rule: 'lower case', params: { currency: 'usd' }, status: 400 },
    { rule: 'not an ISO 4217 code', params: { currency: 'XYZ' }, status: 400 },
    { rule: 'an unknown parameter', params: { count: 5 }, status: 400 },
  ];
  it.each(cases)('$rule → $status', async ({ params, status, currencies }) => {
    const r = await client.get('/12/bidding_rules', params);
    expect(r.status).toBe(status);
    if (currencies === undefined) {
      expect(r.body.errors[0].code).toBe('INVALID_PARAMETER');
      return;
    }
    expect(r.body).toMatchObject({ request: { params }, data_type: 'bidding_rule', total_count: currencies.length, next_cursor: null });
    expect(r.body.data.map((d: { currency: string }) => d.currency)).toEqual(currencies);
  });

  it('returns integer micro amounts', async () => {
    const r = await client.get('/12/bidding_rules', { currency: 'USD' });
    expect(r.body.data).toEqual([{ currency: 'USD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 }]);
  });
});

describe('GET line_items/placements', () => {
  const cases: Array<{ rule: string; params: Params; status: number; types?: string[] }> = [
    { rule: 'no product_type: all three', params: {}, status: 200, types: ['MEDIA', 'PROMOTED_ACCOUNT', 'PROMOTED_TWEETS'] },
    { rule: 'PROMOTED_TWEETS', params: { product_type: 'PROMOTED_TWEETS' }, status: 200, types: ['PROMOTED_TWEETS'] },
    { rule: 'PROMOTED_ACCOUNT', params: { product_type: 'PROMOTED_ACCOUNT' }, status: 200, types: ['PROMOTED_ACCOUNT'] },
    { rule: 'an unknown product type', params: { product_type: 'VIDEO' }, status: 400 },
  ];
  it.each(cases)('$rule → $status', async ({ params, status, types }) => {
    const r = await client.get('/12/line_items/placements', params);
    expect(r.status).toBe(status);
    if (types === undefined) {
      expect(r.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_PARAMETER', parameter: 'product_type' })]);
      return;
    }
    expect(r.body.request).toEqual({ params });
    expect(r.body.data.map((d: { product_type: string }) => d.product_type)).toEqual(types);
    for (const d of r.body.data) {
      expect(Object.keys(d)).toEqual(['product_type', 'placements']);
      expect(d.placements.length).toBeGreaterThan(0);
      for (const combo of d.placements) expect(combo.every((p: unknown) => typeof p === 'string')).toBe(true);
    }
  });

  it('lists ALL_ON_SERVICE alone as a promoted tweets combination', async () => {
    const r = await client.get('/12/line_items/placements', { product_type: 'PROMOTED_TWEETS' });
    expect(r.body.data[0].placements).toContainEqual(['ALL_ON_SERVICE']);
  });
});

describe('GET accounts/:account_id/curated_categories', () => {
  const path = (): string => `/12/accounts/${account}/curated_categories`;

  it('lists every category with total_count and the documented fields', async () => {
    const r = await client.get(path());
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account } });
    expect(r.body.total_count).toBe(r.body.data.length);
    expect(r.body.data.length).toBeGreaterThanOrEqual(8);
    for (const c of r.body.data) {
      expect(Object.keys(c).sort()).toEqual(
        ['country_codes', 'created_at', 'description', 'id', 'name', 'publisher_user_ids', 'updated_at', 'videos_monetized_in_last_thirty_days'].sort(),
      );
      expect(c.country_codes.every((cc: string) => /^[A-Z]{2}$/.test(cc))).toBe(true);
      expect(Number.isInteger(c.videos_monetized_in_last_thirty_days)).toBe(true);
      expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  const cases: Array<{ rule: string; params: Params; status: number; names?: string[] }> = [
    { rule: 'one country', params: { country_codes: 'JP' }, status: 200, names: ['Music', 'Gaming and Esports', 'Anime and Animation'] },
    { rule: 'several countries match any', params: { country_codes: 'in,KR' }, status: 200, names: ['Gaming and Esports', 'Business and Finance', 'Cricket'] },
    { rule: 'a country without categories', params: { country_codes: 'NZ' }, status: 200, names: [] },
    { rule: 'a three-letter code', params: { country_codes: 'USA' }, status: 400 },
    { rule: 'an empty entry', params: { country_codes: 'US,' }, status: 400 },
    { rule: 'with_total_count is not a parameter here', params: { with_total_count: true }, status: 400 },
    { rule: 'with_deleted is not a parameter here', params: { with_deleted: true }, status: 400 },
  ];
  it.each(cases)('$rule → $status', async ({ params, status, names }) => {
    const r = await client.get(path(), params);
    expect(r.status).toBe(status);
    if (names === undefined) {
      expect(r.body.errors[0].code).toBe('INVALID_PARAMETER');
      return;
    }
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual(names);
    expect(r.body.total_count).toBe(names.length);
  });

  it('pages with count and cursor, total_count on every page', async () => {
    const pages = await allPages(path(), { count: 3 });
    const whole = (await client.get(path())).body;
    expect(pages.flatMap((p) => p.body.data)).toEqual(whole.data);
    for (const p of pages) expect(p.body.total_count).toBe(whole.total_count);
  });

  it('looks one up by id', async () => {
    const first = (await client.get(path(), { count: 1 })).body.data[0];
    const r = await client.get(`${path()}/${first.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account, curated_category_id: first.id } }, data: first });
  });

  it.each<{ rule: string; id: string; params: Params; status: number; code: string }>([
    { rule: 'unknown id', id: 'zzzz', params: {}, status: 404, code: 'NOT_FOUND' },
    { rule: 'a parameter', id: '1hd2', params: { with_deleted: true }, status: 400, code: 'INVALID_PARAMETER' },
  ])('lookup with $rule → $status', async ({ id, params, status, code }) => {
    const r = await client.get(`${path()}/${rfc3986(id)}`, params);
    expect(r.status).toBe(status);
    expect(r.body.errors[0]).toMatchObject({ code, parameter: status === 404 ? 'curated_category_id' : 'with_deleted' });
  });

  it('is readable by any user of the account and refused to others', async () => {
    const analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    expect((await analyst.get(path())).status).toBe(200);
    const outsider = client.as(await loginAs(client, 'adsctl_outsider'));
    const refused = await outsider.get(path());
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('ACCOUNT_NOT_FOUND');
  });
});

describe('bearer tokens on the lookups', () => {
  it.each(['/12/advertiser_business_categories', '/12/iab_categories', '/12/content_categories', '/12/bidding_rules', '/12/line_items/placements'])(
    '%s accepts an application-only bearer token',
    async (path) => {
      const token = await client.post('/oauth2/token', { grant_type: 'client_credentials' }, {
        as: 'form',
        base: 'root',
        creds: null,
        headers: { authorization: `Basic ${Buffer.from(`${client.info.consumer_key}:${client.info.consumer_secret}`).toString('base64')}` },
      });
      const r = await client.get(path, {}, { bearer: token.body.access_token });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body.data)).toBe(true);
    },
  );
});

describe('global read rate limit', () => {
  let limited: Awaited<ReturnType<typeof startTestEmulator>>;
  beforeAll(async () => {
    limited = await startTestEmulator();
  });
  afterAll(() => limited.emulator.close());

  it('allows 5 calls per 15 minutes per endpoint and token, then answers 429', async () => {
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await limited.client.get('/12/iab_categories', { count: 1 }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(replies.map((r) => r.headers['x-rate-limit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
    const over = replies[5]!;
    expect(over.headers['x-rate-limit-limit']).toBe('5');
    const reset = Number(over.headers['x-rate-limit-reset']);
    expect(reset - Math.floor(testNow() / 1000)).toBeGreaterThan(800);
    expect(over.body.errors[0].code).toBe('TOO_MANY_REQUESTS');
    expect((await limited.client.get('/12/bidding_rules')).status).toBe(200);
  });
});
