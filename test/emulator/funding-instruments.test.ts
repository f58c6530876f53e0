import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { expectError } from '../support/assertions.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let seeded: string;
/** Instruments created in beforeAll, in creation order (after the seeded one). */
const created: any[] = [];

const FI_FIELDS = [
  'able_to_fund', 'account_id', 'created_at', 'credit_limit_local_micro', 'credit_remaining_local_micro', 'currency', 'deleted',
  'description', 'end_time', 'entity_status', 'funded_amount_local_micro', 'id', 'io_header', 'reasons_not_able_to_fund',
  'start_time', 'type', 'updated_at',
];

const path = (suffix = ''): string => `/12/accounts/${account}/funding_instruments${suffix}`;


async function create(params: Params, accountId = account): Promise<Reply> {
  return client.post(`/12/accounts/${accountId}/funding_instruments`, params, { base: 'sandbox' });
}

async function pageAll(params: Params): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: Reply = await client.get(path(), cursor === null ? params : { ...params, cursor });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.length).toBeLessThanOrEqual(Number(params['count']));
    ids.push(...r.body.data.map((f: { id: string }) => f.id));
    cursor = r.body.next_cursor;
    pages++;
  } while (cursor !== null && pages < 50);
  return { ids, pages };
}

const CREATIONS: Array<[string, Params]> = [
  ['a CREDIT_CARD without end_time', { currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD', credit_limit_local_micro: 500_000_000 }],
  ['an INSERTION_ORDER with a funded amount', { currency: 'EUR', start_time: '2026-02-01', type: 'INSERTION_ORDER', end_time: '2026-08-01T00:00:00Z', funded_amount_local_micro: 140_000_000_000 }],
  ['a CREDIT_LINE with a credit limit', { currency: 'GBP', start_time: '2026-03-01T00:00:00+01:00', type: 'CREDIT_LINE', end_time: '2027-03-01T00:00:00Z', credit_limit_local_micro: 9_000_000 }],
  ['an AGENCY_CREDIT_LINE', { currency: 'JPY', start_time: '2026-04-01T00:00:00Z', type: 'AGENCY_CREDIT_LINE', end_time: '2027-04-01T00:00:00Z' }],
  ['a PARTNER_MANAGED with a funded amount', { currency: 'CAD', start_time: '2026-05-01T00:00:00Z', type: 'PARTNER_MANAGED', funded_amount_local_micro: 1_000_000 }],
];

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator());
  seeded = emulator.info.funding_instrument_id;
  for (const [, params] of CREATIONS) {
    const r = await create(params);
    expect(r.status, r.text).toBe(201);
    created.push(r.body.data);
  }
});
afterAll(() => emulator.close());

describe('POST funding_instruments (sandbox only)', () => {
  it.each(CREATIONS.map(([label, params], i) => [label, params, i] as const))('creates %s', (_label, params, i) => {
    const fi = created[i];
    expect(Object.keys(fi).sort()).toEqual(FI_FIELDS);
    expect(fi).toMatchObject({
      account_id: account,
      type: params['type'],
      currency: params['currency'],
      entity_status: 'ACTIVE',
      able_to_fund: true,
      reasons_not_able_to_fund: [],
      deleted: false,
      io_header: null,
      description: '(no payment method has been set up yet)',
      credit_limit_local_micro: params['credit_limit_local_micro'] ?? null,
      funded_amount_local_micro: params['funded_amount_local_micro'] ?? null,
    });
    expect(fi.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(fi.end_time).toBe(params['end_time'] ?? null);
  });
  it('normalises times to UTC and starts a credit line with its whole limit remaining', () => {
    expect(created[1].start_time).toBe('2026-02-01T00:00:00Z');
    expect(created[2].start_time).toBe('2026-02-28T23:00:00Z');
    expect(created[2].credit_remaining_local_micro).toBe(9_000_000);
    expect(created[0].credit_remaining_local_micro).toBeNull();
  });
  it('answers 201 with the single envelope echoing typed values', async () => {
    const r = await create({ currency: 'USD', start_time: '2026-06-01T00:00:00-07:00', type: 'INSERTION_ORDER', end_time: '2026-12-01', funded_amount_local_micro: '250000000' });
    expect(r.status).toBe(201);
    expect(r.body.request.params).toEqual({
      account_id: account,
      currency: 'USD',
      start_time: '2026-06-01T07:00:00Z',
      type: 'INSERTION_ORDER',
      end_time: '2026-12-01T00:00:00Z',
      funded_amount_local_micro: 250_000_000,
    });
    expect(r.body).not.toHaveProperty('next_cursor');
    created.push(r.body.data);
  });
  it('reports every missing required parameter at once', async () => {
    const r = await create({});
    expect(r.status).toBe(400);
    const missing = r.body.errors.filter((e: { code: string }) => e.code === 'MISSING_PARAMETER').map((e: { parameter: string }) => e.parameter);
    expect(missing.sort()).toEqual(['currency', 'start_time', 'type']);
  });
  const valid = { currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' };
  it.each<[string, Params, string, string]>([
    ['a lower-case currency', { ...valid, currency: 'usd' }, 'INVALID_PARAMETER', 'currency'],
    ['a currency that is not ISO 4217', { ...valid, currency: 'ZZZ' }, 'INVALID_PARAMETER', 'currency'],
    ['a two-letter currency', { ...valid, currency: 'US' }, 'INVALID_PARAMETER', 'currency'],
    ['a type outside the enum', { ...valid, type: 'DEBIT_CARD' }, 'INVALID_PARAMETER', 'type'],
    ['a malformed start_time', { ...valid, start_time: 'tomorrow' }, 'INVALID_PARAMETER', 'start_time'],
    ['a malformed end_time', { ...valid, end_time: '2026-13-01' }, 'INVALID_PARAMETER', 'end_time'],
    ['an INSERTION_ORDER without end_time', { ...valid, type: 'INSERTION_ORDER' }, 'MISSING_PARAMETER', 'end_time'],
    ['a CREDIT_LINE without end_time', { ...valid, type: 'CREDIT_LINE' }, 'MISSING_PARAMETER', 'end_time'],
    ['an AGENCY_CREDIT_LINE without end_time', { ...valid, type: 'AGENCY_CREDIT_LINE' }, 'MISSING_PARAMETER', 'end_time'],
    ['end_time equal to start_time', { ...valid, end_time: valid.start_time }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['end_time before start_time', { ...valid, end_time: '2025-12-31T00:00:00Z' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['a credit limit on an INSERTION_ORDER', { ...valid, type: 'INSERTION_ORDER', end_time: '2027-01-01', credit_limit_local_micro: 1 }, 'INVALID_PARAMETER', 'credit_limit_local_micro'],
    ['a credit limit on a PARTNER_MANAGED', { ...valid, type: 'PARTNER_MANAGED', credit_limit_local_micro: 1 }, 'INVALID_PARAMETER', 'credit_limit_local_micro'],
    ['a funded amount on a CREDIT_CARD', { ...valid, funded_amount_local_micro: 1 }, 'INVALID_PARAMETER', 'funded_amount_local_micro'],
    ['a funded amount on a CREDIT_LINE', { ...valid, type: 'CREDIT_LINE', end_time: '2027-01-01', funded_amount_local_micro: 1 }, 'INVALID_PARAMETER', 'funded_amount_local_micro'],
    ['a credit limit of 0', { ...valid, credit_limit_local_micro: 0 }, 'INVALID_PARAMETER', 'credit_limit_local_micro'],
    ['a credit limit that is not a long', { ...valid, credit_limit_local_micro: '5.5' }, 'INVALID_PARAMETER', 'credit_limit_local_micro'],
    ['an unknown parameter', { ...valid, description: 'mine' }, 'INVALID_PARAMETER', 'description'],
  ])('refuses %s with 400', async (_label, params, code, parameter) => {
    expectError(await create(params), 400, code, parameter);
  });
  it('is not served at the production base URL', async () => {
    expectError(await client.post(path(), valid), 405, 'METHOD_NOT_ALLOWED');
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await create(valid, 'nosuchacct'), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('GET funding_instruments', () => {
  it('defaults: list envelope with every instrument in creation order', async () => {
    const r = await client.get(path());
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account } });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body).not.toHaveProperty('total_count');
    expect(r.body.data.map((f: { id: string }) => f.id)).toEqual([seeded, ...created.map((f) => f.id)]);
    for (const f of r.body.data) expect(Object.keys(f).sort()).toEqual(FI_FIELDS);
  });
  it('echoes typed parameters', async () => {
    const r = await client.get(path(), { count: 2, sort_by: 'start_time-desc', with_deleted: 'false', funding_instrument_ids: `${seeded},${created[0].id}` });
    expect(r.body.request.params).toEqual({ account_id: account, count: 2, sort_by: 'start_time-desc', with_deleted: false, funding_instrument_ids: [seeded, created[0].id] });
  });
  it.each<[string, Params, string, string]>([
    ['count=0', { count: 0 }, 'INVALID_PARAMETER', 'count'],
    ['count=1001', { count: 1001 }, 'INVALID_PARAMETER', 'count'],
    ['sort_by on an attribute not sortable here', { sort_by: 'name-asc' }, 'INVALID_PARAMETER', 'sort_by'],
    ['sort_by with a bad direction', { sort_by: 'start_time-up' }, 'INVALID_PARAMETER', 'sort_by'],
    ['with_total_count with cursor', { with_total_count: 'true', cursor: 's1' }, 'EXCLUSIVE_PARAMETERS', 'with_total_count'],
    ['201 funding instrument ids', { funding_instrument_ids: Array.from({ length: 201 }, (_, i) => `f${i}`) }, 'INVALID_PARAMETER', 'funding_instrument_ids'],
    ['an empty id in the ids list', { funding_instrument_ids: `${seeded},` }, 'INVALID_PARAMETER', 'funding_instrument_ids'],
    ['an unknown parameter', { q: 'visa' }, 'INVALID_PARAMETER', 'q'],
  ])('refuses %s with 400', async (_label, params, code, parameter) => {
    expectError(await client.get(path(), params), 400, code, parameter);
  });
  it('accepts 200 ids and keeps only the account\'s own, in creation order', async () => {
    const ids = [created[1].id, 'nosuchfi', seeded, ...Array.from({ length: 197 }, (_, i) => `x${i}`)];
    const r = await client.get(path(), { funding_instrument_ids: ids });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((f: { id: string }) => f.id)).toEqual([seeded, created[1].id]);
  });
  it('pages with count=2 until next_cursor is null, without duplicates or gaps', async () => {
    const all = (await client.get(path())).body.data.map((f: { id: string }) => f.id);
    const { ids, pages } = await pageAll({ count: 2 });
    expect(ids).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
  });
  it('pages a sorted list without duplicates or gaps', async () => {
    const all = (await client.get(path(), { sort_by: 'start_time-desc' })).body.data.map((f: { id: string }) => f.id);
    const { ids } = await pageAll({ count: 2, sort_by: 'start_time-desc' });
    expect(ids).toEqual(all);
    expect(new Set(ids).size).toBe(all.length);
  });
  it.each<[string, string, boolean]>([
    ['start_time-asc', 'start_time', false],
    ['start_time-desc', 'start_time', true],
    ['funded_amount_local_micro-desc', 'funded_amount_local_micro', true],
    ['created_at-asc', 'created_at', false],
  ])('sorts by %s', async (sortBy, field, desc) => {
    const r = await client.get(path(), { sort_by: sortBy });
    expect(r.status).toBe(200);
    const values = r.body.data.map((f: Record<string, unknown>) => f[field]).filter((v: unknown) => v !== null);
    const expected = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(values).toEqual(desc ? expected.reverse() : expected);
    if (field === 'funded_amount_local_micro') {
      const nulls = r.body.data.filter((f: Record<string, unknown>) => f[field] === null).length;
      expect(r.body.data.slice(r.body.data.length - nulls).every((f: Record<string, unknown>) => f[field] === null)).toBe(true);
    }
  });
  it('adds total_count when asked', async () => {
    const r = await client.get(path(), { with_total_count: 'true', count: 1 });
    expect(r.body.total_count).toBe(1 + created.length);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.next_cursor).not.toBeNull();
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.get('/12/accounts/nosuchacct/funding_instruments'), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('GET funding_instruments/:funding_instrument_id', () => {
  it('returns the instrument in the single envelope', async () => {
    const r = await client.get(path(`/${seeded}`));
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account, funding_instrument_id: seeded } });
    expect(r.body.data).toMatchObject({ id: seeded, account_id: account, currency: 'USD', deleted: false });
  });
  it.each<[string, string, Params, number, string]>([
    ['an unknown id', 'nosuchfi', {}, 404, 'NOT_FOUND'],
    ['an unknown parameter', '', { count: 1 }, 400, 'INVALID_PARAMETER'],
  ])('refuses %s', async (_label, id, params, status, code) => {
    expectError(await client.get(path(`/${id === '' ? seeded : id}`), params), status, code);
  });
  it('does not show another account\'s instrument', async () => {
    const other = (await client.post('/12/accounts', {}, { base: 'sandbox' })).body.data[0].id;
    expectError(await client.get(`/12/accounts/${other}/funding_instruments/${seeded}`), 404, 'NOT_FOUND', 'funding_instrument_id');
    const listed = await client.get(`/12/accounts/${other}/funding_instruments`, { funding_instrument_ids: seeded });
    expect(listed.body.data).toEqual([]);
  });
});

describe('DELETE funding_instruments/:funding_instrument_id (sandbox only)', () => {
  let victim: any;
  beforeAll(async () => {
    const r = await create({ currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' });
    victim = r.body.data;
  });

  it('is not served at the production base URL', async () => {
    expectError(await client.delete(path(`/${victim.id}`)), 405, 'METHOD_NOT_ALLOWED');
  });
  it('marks it deleted and unable to fund, with reason DELETED', async () => {
    const r = await client.delete(path(`/${victim.id}`), {}, { base: 'sandbox' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account, funding_instrument_id: victim.id } });
    expect(r.body.data).toMatchObject({ id: victim.id, deleted: true, able_to_fund: false, entity_status: 'ACTIVE' });
    expect(r.body.data.reasons_not_able_to_fund).toContain('DELETED');
  });
  it.each<[string, () => Promise<Reply>, number, string | undefined]>([
    ['a second DELETE is 404', () => client.delete(path(`/${victim.id}`), {}, { base: 'sandbox' }), 404, 'NOT_FOUND'],
    ['GET by id is 404', () => client.get(path(`/${victim.id}`)), 404, 'NOT_FOUND'],
    ['GET by id with_deleted=true is 200', () => client.get(path(`/${victim.id}`), { with_deleted: 'true' }), 200, undefined],
    ['DELETE of an unknown id is 404', () => client.delete(path('/nosuchfi'), {}, { base: 'sandbox' }), 404, 'NOT_FOUND'],
  ])('afterwards: %s', async (_label, send, status, code) => {
    const r = await send();
    if (code === undefined) {
      expect(r.status).toBe(status);
      expect(r.body.data).toMatchObject({ id: victim.id, deleted: true, able_to_fund: false });
    } else expectError(r, status, code);
  });
  it.each<[string, (id: string) => Params, boolean]>([
    ['the plain list leaves it out', () => ({}), false],
    ['with_deleted=true lists it', () => ({ with_deleted: 'true' }), true],
    ['an ids filter leaves it out', (id) => ({ funding_instrument_ids: id }), false],
    ['an ids filter with with_deleted=true lists it', (id) => ({ funding_instrument_ids: id, with_deleted: 'true' }), true],
  ])('%s', async (_label, params, included) => {
    const r = await client.get(path(), params(victim.id));
    expect(r.status).toBe(200);
    expect(r.body.data.map((f: { id: string }) => f.id).includes(victim.id)).toBe(included);
  });
  it('counts it in total_count only with with_deleted=true', async () => {
    const live = await client.get(path(), { with_total_count: 'true' });
    const all = await client.get(path(), { with_total_count: 'true', with_deleted: 'true' });
    expect(all.body.total_count).toBe(live.body.total_count + 1);
    expect(live.body.total_count).toBe(live.body.data.length);
  });
});

describe('who may do what (other seeded users, logged in through the three-legged flow)', () => {
  let manager: TestClient;
  let analyst: TestClient;
  let outsider: TestClient;
  beforeAll(async () => {
    manager = client.as(await loginAs(client, 'adsctl_manager'));
    analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    outsider = client.as(await loginAs(client, 'adsctl_outsider'));
  });
  const valid = { currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' };

  it.each<[string, () => Promise<Reply>, number, string | undefined]>([
    ['a CAMPAIGN_ANALYST may list them', () => analyst.get(path()), 200, undefined],
    ['an AD_MANAGER may look one up', () => manager.get(path(`/${seeded}`)), 200, undefined],
    ['a user not associated with the account may not list them', () => outsider.get(path()), 403, 'ACCOUNT_NOT_FOUND'],
    ['creating one needs ACCOUNT_ADMIN', () => manager.post(path(), valid, { base: 'sandbox' }), 403, 'ACTION_NOT_ALLOWED'],
    ['deleting one needs ACCOUNT_ADMIN', () => manager.delete(path(`/${seeded}`), {}, { base: 'sandbox' }), 403, 'ACTION_NOT_ALLOWED'],
  ])('%s', async (_label, send, status, code) => {
    const r = await send();
    if (code === undefined) expect(r.status, r.text).toBe(status);
    else expectError(r, status, code);
  });
  it('a refused delete leaves the instrument as it was', async () => {
    expect((await client.get(path(`/${seeded}`))).body.data).toMatchObject({ deleted: false, able_to_fund: true });
  });
});
