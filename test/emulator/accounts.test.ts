import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { expectError } from '../support/assertions.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
/** Sandbox accounts created in beforeAll, in creation order. */
const sandbox: string[] = [];

const ACCOUNT_FIELDS = ['approval_status', 'business_id', 'business_name', 'created_at', 'deleted', 'id', 'name', 'timezone', 'timezone_switch_at', 'updated_at'];


async function createSandboxAccount(): Promise<any> {
  const r = await client.post('/12/accounts', {}, { base: 'sandbox' });
  expect(r.status, r.text).toBe(201);
  return r.body.data[0];
}

async function listAll(params: Params): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: Reply = await client.get('/12/accounts', cursor === null ? params : { ...params, cursor });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.length).toBeLessThanOrEqual(Number(params['count'] ?? 200));
    ids.push(...r.body.data.map((a: { id: string }) => a.id));
    cursor = r.body.next_cursor;
    pages++;
  } while (cursor !== null && pages < 50);
  return { ids, pages };
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator());
  for (let i = 0; i < 4; i++) sandbox.push((await createSandboxAccount()).id);
});
afterAll(() => emulator.close());

describe('POST accounts (sandbox only)', () => {
  it('answers 201 with a list of one new "Sandbox account" and no industry_type', async () => {
    const r = await client.post('/12/accounts', {}, { base: 'sandbox' });
    expect(r.status).toBe(201);
    expect(r.body.request).toEqual({ params: {} });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.data).toHaveLength(1);
    const a = r.body.data[0];
    expect(Object.keys(a).sort()).toEqual(ACCOUNT_FIELDS);
    expect(a).toMatchObject({ name: 'Sandbox account', approval_status: 'ACCEPTED', deleted: false, business_id: null, business_name: null, timezone_switch_at: null });
    expect(a.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(a.updated_at).toBe(a.created_at);
    sandbox.push(a.id);
  });
  it('makes the caller ACCOUNT_ADMIN of the new account', async () => {
    const r = await client.get(`/12/accounts/${sandbox[0]}/authenticated_user_access`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ user_id: emulator.info.user_id, permissions: ['ACCOUNT_ADMIN'] });
  });
  it('gives the new account the caller as its one FULL promotable user', async () => {
    const r = await client.get(`/12/accounts/${sandbox[0]}/promotable_users`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ user_id: emulator.info.user_id, promotable_user_type: 'FULL', deleted: false });
  });
  it('lists the new accounts among the caller\'s accounts', async () => {
    const r = await client.get('/12/accounts');
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([account, ...sandbox]));
  });
  it.each<[string, () => Promise<Reply>, number, string]>([
    ['a parameter (the endpoint takes none)', () => client.post('/12/accounts', { name: 'x' }, { base: 'sandbox' }), 400, 'INVALID_PARAMETER'],
    ['the production base URL', () => client.post('/12/accounts'), 405, 'METHOD_NOT_ALLOWED'],
  ])('refuses %s', async (_label, send, status, code) => {
    expectError(await send(), status, code);
  });
});

describe('GET accounts', () => {
  it('defaults: list envelope, creation order, no total_count, no industry_type', async () => {
    const r = await client.get('/12/accounts');
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: {} });
    expect(r.body.next_cursor).toBeNull();
    expect(r.body).not.toHaveProperty('total_count');
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual([account, ...sandbox]);
    for (const a of r.body.data) expect(Object.keys(a).sort()).toEqual(ACCOUNT_FIELDS);
  });
  it('echoes typed parameters', async () => {
    const r = await client.get('/12/accounts', { count: 3, with_deleted: 'true', sort_by: 'name-asc', account_ids: `${account},${sandbox[0]}`, q: 'Sand' });
    expect(r.status).toBe(200);
    expect(r.body.request.params).toEqual({ count: 3, with_deleted: true, sort_by: 'name-asc', account_ids: [account, sandbox[0]], q: 'Sand' });
  });
  it.each<[string, Params, string, string]>([
    ['count=0', { count: 0 }, 'INVALID_PARAMETER', 'count'],
    ['count=1001', { count: 1001 }, 'INVALID_PARAMETER', 'count'],
    ['count not an integer', { count: 'ten' }, 'INVALID_PARAMETER', 'count'],
    ['an unsupported sort attribute', { sort_by: 'timezone-asc' }, 'INVALID_PARAMETER', 'sort_by'],
    ['sort_by without direction', { sort_by: 'name' }, 'INVALID_PARAMETER', 'sort_by'],
    ['with_total_count with cursor', { with_total_count: 'true', cursor: 's1' }, 'EXCLUSIVE_PARAMETERS', 'with_total_count'],
    ['a malformed cursor', { cursor: '!!' }, 'INVALID_PARAMETER', 'cursor'],
    ['201 account ids', { account_ids: Array.from({ length: 201 }, (_, i) => `a${i}`) }, 'INVALID_PARAMETER', 'account_ids'],
    ['an empty q', { q: '' }, 'INVALID_PARAMETER', 'q'],
    ['q longer than 255', { q: 'x'.repeat(256) }, 'INVALID_PARAMETER', 'q'],
    ['with_deleted not a boolean', { with_deleted: 'yes' }, 'INVALID_PARAMETER', 'with_deleted'],
    ['an unknown parameter', { campaign_ids: 'abc' }, 'INVALID_PARAMETER', 'campaign_ids'],
  ])('refuses %s with 400', async (_label, params, code, parameter) => {
    expectError(await client.get('/12/accounts', params), 400, code, parameter);
  });
  it.each([1, 1000])('accepts count=%i', async (count) => {
    const r = await client.get('/12/accounts', { count });
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBe(Math.min(count, 1 + sandbox.length));
  });
  it('pages with count=2 until next_cursor is null, without duplicates or gaps', async () => {
    const { ids, pages } = await listAll({ count: 2 });
    expect(ids).toEqual([account, ...sandbox]);
    expect(pages).toBe(Math.ceil(ids.length / 2));
  });
  it('pages a sorted list the same way', async () => {
    const all = (await client.get('/12/accounts', { sort_by: 'created_at-desc' })).body.data.map((a: { id: string }) => a.id);
    const { ids } = await listAll({ count: 2, sort_by: 'created_at-desc' });
    expect(ids).toEqual(all);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it.each<[string, (names: string[]) => string[]]>([
    ['name-asc', (n) => [...n].sort((a, b) => a.localeCompare(b))],
    ['name-desc', (n) => [...n].sort((a, b) => b.localeCompare(a))],
  ])('sorts by %s', async (sortBy, order) => {
    const r = await client.get('/12/accounts', { sort_by: sortBy });
    const names = r.body.data.map((a: { name: string }) => a.name);
    expect(names).toEqual(order(names));
  });
  it('filters by account_ids, leaving out ids the caller cannot see', async () => {
    const r = await client.get('/12/accounts', { account_ids: `${sandbox[1]},${account},nosuchacct` });
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual([account, sandbox[1]]);
  });
  it('filters by q as a case-insensitive name prefix', async () => {
    const r = await client.get('/12/accounts', { q: 'SANDBOX acc' });
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual(sandbox);
    const none = await client.get('/12/accounts', { q: 'account' });
    expect(none.body.data).toEqual([]);
  });
  it('adds total_count when asked', async () => {
    const r = await client.get('/12/accounts', { with_total_count: 'true', count: 1 });
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBe(1 + sandbox.length);
    expect(r.body.data).toHaveLength(1);
  });
});

describe('GET accounts/:account_id', () => {
  it('returns the account with industry_type', async () => {
    const r = await client.get(`/12/accounts/${account}`);
    expect(r.status).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: account } });
    expect(Object.keys(r.body.data).sort()).toEqual([...ACCOUNT_FIELDS, 'industry_type'].sort());
    expect(r.body.data.id).toBe(account);
  });
  it.each<[string, string, Params, number, string]>([
    ['an account that does not exist', 'nosuchacct', {}, 403, 'ACCOUNT_NOT_FOUND'],
    ['an unknown parameter', '', { name: 'x' }, 400, 'INVALID_PARAMETER'],
    ['with_deleted not a boolean', '', { with_deleted: '1' }, 400, 'INVALID_PARAMETER'],
  ])('refuses %s', async (_label, id, params, status, code) => {
    expectError(await client.get(`/12/accounts/${id === '' ? account : id}`, params), status, code);
  });
});

describe('PUT accounts/:account_id', () => {
  it('updates name and industry_type, echoing them, and returns industry_type', async () => {
    const id = sandbox[2]!;
    const before = (await client.get(`/12/accounts/${id}`)).body.data;
    const r = await client.put(`/12/accounts/${id}`, { name: 'Acme Renamed', industry_type: 'TECHNOLOGY' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request.params).toEqual({ account_id: id, name: 'Acme Renamed', industry_type: 'TECHNOLOGY' });
    expect(r.body.data).toMatchObject({ id, name: 'Acme Renamed', industry_type: 'TECHNOLOGY', created_at: before.created_at });
    expect(r.body.data.updated_at >= before.updated_at).toBe(true);
    expect((await client.get(`/12/accounts/${id}`)).body.data).toMatchObject({ name: 'Acme Renamed', industry_type: 'TECHNOLOGY' });
    const listed = (await client.get('/12/accounts', { account_ids: id })).body.data[0];
    expect(listed.name).toBe('Acme Renamed');
    expect(listed).not.toHaveProperty('industry_type');
  });
  it('accepts parameters in a form body', async () => {
    const r = await client.put(`/12/accounts/${sandbox[2]}`, { industry_type: 'RETAIL' }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.industry_type).toBe('RETAIL');
  });
  it('unsets industry_type with an empty value', async () => {
    const r = await client.put(`/12/accounts/${sandbox[2]}`, { industry_type: '' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.industry_type).toBeNull();
    expect(r.body.data.name).toBe('Acme Renamed');
  });
  it.each<[string, Params, string, string]>([
    ['an industry_type outside the enum', { industry_type: 'SPORTS' }, 'INVALID_PARAMETER', 'industry_type'],
    ['an empty name', { name: '' }, 'INVALID_PARAMETER', 'name'],
    ['a name longer than 255', { name: 'n'.repeat(256) }, 'INVALID_PARAMETER', 'name'],
    ['a read-only field', { timezone: 'UTC' }, 'INVALID_PARAMETER', 'timezone'],
  ])('refuses %s with 400', async (_label, params, code, parameter) => {
    expectError(await client.put(`/12/accounts/${sandbox[2]}`, params), 400, code, parameter);
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.put('/12/accounts/nosuchacct', { name: 'x' }), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('DELETE accounts/:account_id (sandbox only)', () => {
  let deleted: string;
  beforeAll(async () => {
    deleted = (await createSandboxAccount()).id;
  });

  it('is not served at the production base URL', async () => {
    expectError(await client.delete(`/12/accounts/${deleted}`), 405, 'METHOD_NOT_ALLOWED');
  });
  it('refuses a parameter', async () => {
    expectError(await client.delete(`/12/accounts/${deleted}`, { name: 'x' }, { base: 'sandbox' }), 400, 'INVALID_PARAMETER');
  });
  it('marks the account deleted and returns it without industry_type', async () => {
    const r = await client.delete(`/12/accounts/${deleted}`, {}, { base: 'sandbox' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request).toEqual({ params: { account_id: deleted } });
    expect(r.body.data).toMatchObject({ id: deleted, deleted: true });
    expect(Object.keys(r.body.data).sort()).toEqual(ACCOUNT_FIELDS);
  });
  it.each<[string, () => Promise<Reply>, number, string | undefined]>([
    ['a second DELETE is 404', () => client.delete(`/12/accounts/${deleted}`, {}, { base: 'sandbox' }), 404, 'NOT_FOUND'],
    ['GET by id is 404', () => client.get(`/12/accounts/${deleted}`), 404, 'NOT_FOUND'],
    ['GET by id with_deleted=true is 200', () => client.get(`/12/accounts/${deleted}`, { with_deleted: 'true' }), 200, undefined],
    ['PUT is 404', () => client.put(`/12/accounts/${deleted}`, { name: 'x' }), 404, 'NOT_FOUND'],
  ])('afterwards: %s', async (_label, send, status, code) => {
    const r = await send();
    if (code === undefined) {
      expect(r.status).toBe(status);
      expect(r.body.data).toMatchObject({ id: deleted, deleted: true });
    } else expectError(r, status, code);
  });
  it('leaves the account out of lists unless with_deleted=true', async () => {
    const plain = (await client.get('/12/accounts')).body.data.map((a: { id: string }) => a.id);
    expect(plain).not.toContain(deleted);
    const all = await client.get('/12/accounts', { with_deleted: 'true', with_total_count: 'true' });
    expect(all.body.data.map((a: { id: string }) => a.id)).toContain(deleted);
    expect(all.body.total_count).toBe(plain.length + 1);
    const counted = await client.get('/12/accounts', { with_total_count: 'true' });
    expect(counted.body.total_count).toBe(plain.length);
  });
  it('refuses an account that does not exist with 403 ACCOUNT_NOT_FOUND', async () => {
    expectError(await client.delete('/12/accounts/nosuchacct', {}, { base: 'sandbox' }), 403, 'ACCOUNT_NOT_FOUND');
  });
});

describe('who may do what (other seeded users, logged in through the three-legged flow)', () => {
  let manager: TestClient;
  let analyst: TestClient;
  let outsider: TestClient;
  let owned: string;
  beforeAll(async () => {
    manager = client.as(await loginAs(client, 'adsctl_manager'));
    analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    outsider = client.as(await loginAs(client, 'adsctl_outsider'));
    owned = (await createSandboxAccount()).id;
  });

  it.each<[string, () => TestClient, () => Promise<string>, number, string | undefined]>([
    ['an AD_MANAGER may read the account', () => manager, async () => account, 200, undefined],
    ['a CAMPAIGN_ANALYST may read the account', () => analyst, async () => account, 200, undefined],
    ['a user not associated with the account gets ACCOUNT_NOT_FOUND', () => outsider, async () => account, 403, 'ACCOUNT_NOT_FOUND'],
    ['an account\'s users do not reach a sandbox account the owner created', () => manager, async () => owned, 403, 'ACCOUNT_NOT_FOUND'],
  ])('GET accounts/:account_id: %s', async (_label, who, id, status, code) => {
    const r = await who().get(`/12/accounts/${await id()}`);
    if (code === undefined) expect(r.status, r.text).toBe(status);
    else expectError(r, status, code);
  });
  it.each<[string, () => TestClient, () => string[]]>([
    ['the owner sees the seeded account and every account they created', () => client, () => [account, ...sandbox, owned]],
    ['an AD_MANAGER sees only the account they belong to', () => manager, () => [account]],
    ['a user with no account sees none', () => outsider, () => []],
  ])('GET accounts: %s', async (_label, who, expected) => {
    const r = await who().get('/12/accounts');
    expect(r.status).toBe(200);
    const ids = r.body.data.map((a: { id: string }) => a.id);
    expect(ids).toEqual(expect.arrayContaining(expected()));
    expect(ids).toHaveLength(expected().length);
  });
  it.each<[string, () => TestClient]>([
    ['an AD_MANAGER', () => manager],
    ['a CAMPAIGN_ANALYST', () => analyst],
  ])('PUT accounts/:account_id needs ACCOUNT_ADMIN: refused for %s', async (_label, who) => {
    expectError(await who().put(`/12/accounts/${account}`, { name: 'hijacked' }), 403, 'ACTION_NOT_ALLOWED');
    expect((await client.get(`/12/accounts/${account}`)).body.data.name).not.toBe('hijacked');
  });
  it('DELETE accounts/:account_id needs ACCOUNT_ADMIN', async () => {
    expectError(await manager.delete(`/12/accounts/${account}`, {}, { base: 'sandbox' }), 403, 'ACTION_NOT_ALLOWED');
    expect((await client.get(`/12/accounts/${account}`)).body.data.deleted).toBe(false);
  });
  it('a sandbox account created by another user belongs to that user only', async () => {
    const r = await manager.post('/12/accounts', {}, { base: 'sandbox' });
    expect(r.status, r.text).toBe(201);
    const id = r.body.data[0].id;
    expect((await manager.get(`/12/accounts/${id}/authenticated_user_access`)).body.data).toEqual({ user_id: '756201191646691329', permissions: ['ACCOUNT_ADMIN'] });
    expectError(await client.get(`/12/accounts/${id}`), 403, 'ACCOUNT_NOT_FOUND');
  });
});
