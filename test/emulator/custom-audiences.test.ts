import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { expectError, listIds } from '../support/assertions.js';
import { createAudience, emails, filledAudience, hashes, uploadUsers, usersOp } from '../support/audiences.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;

const path = (suffix = ''): string => `/12/accounts/${account}/custom_audiences${suffix}`;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

describe('POST custom_audiences', () => {
  it('creates a CRM audience that is not targetable yet', async () => {
    const r = await client.post(path(), { name: 'Newsletter', description: 'signed up in 2026' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.request.params).toEqual({ account_id: account, name: 'Newsletter', description: 'signed up in 2026' });
    const a = r.body.data;
    expectWire('CustomAudience', a);
    expect(a).toMatchObject({
      name: 'Newsletter',
      description: 'signed up in 2026',
      audience_type: 'CRM',
      targetable: false,
      targetable_types: ['CRM', 'EXCLUDED_CRM'],
      reasons_not_targetable: ['PROCESSING', 'TOO_SMALL'],
      audience_size: null,
      partner_source: 'OTHER',
      permission_level: 'READ_WRITE',
      owner_account_id: account,
      is_owner: true,
      deleted: false,
    });
    expect((await client.get(path(`/${a.id}`))).body.data).toEqual(a);
  });

  const refusals: Array<[string, Record<string, string>, number, string, string]> = [
    ['name is required', { description: 'x' }, 400, 'MISSING_PARAMETER', 'name'],
    ['name is at most 255 characters', { name: 'n'.repeat(256) }, 400, 'INVALID_PARAMETER', 'name'],
    ['an unknown parameter', { name: 'ok', audience_type: 'CRM' }, 400, 'INVALID_PARAMETER', 'audience_type'],
    ['a name already used in the account', { name: 'Taken' }, 400, 'INVALID_PARAMETER', 'name'],
  ];
  it.each(refusals)('refuses %s', async (_what, params, status, code, parameter) => {
    await client.post(path(), { name: 'Taken' });
    expectError(await client.post(path(), params), status, code, parameter);
  });
});

describe('PUT and DELETE custom_audiences/:id', () => {
  it('changes name and description; the name stays unique; an empty description unsets it', async () => {
    const a = await createAudience(client, account, 'Before');
    await createAudience(client, account, 'Other');
    expectError(await client.put(path(`/${a.id}`), { name: 'Other' }), 400, 'INVALID_PARAMETER', 'name');
    const same = await client.put(path(`/${a.id}`), { name: 'Before' });
    expect(same.status, same.text).toBe(200);
    const r = await client.put(path(`/${a.id}`), { name: 'After', description: 'desc' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'After', description: 'desc' });
    expectWire('CustomAudience', r.body.data);
    const unset = await client.put(path(`/${a.id}`), { description: '' });
    expect(unset.body.data.description).toBeNull();
  });

  it('deletes: then 404 unless with_deleted, a second delete is 404, and the name is free again', async () => {
    const a = await createAudience(client, account, 'Short lived');
    const r = await client.delete(path(`/${a.id}`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.deleted).toBe(true);
    expectWire('CustomAudience', r.body.data);
    expectError(await client.get(path(`/${a.id}`)), 404, 'NOT_FOUND', 'custom_audience_id');
    expect((await client.get(path(`/${a.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(path(`/${a.id}`)), 404, 'NOT_FOUND');
    expectError(await client.put(path(`/${a.id}`), { name: 'x' }), 404, 'NOT_FOUND');
    expect((await client.post(path(), { name: 'Short lived' })).status).toBe(201);
  });

  it('answers 404 for an unknown audience', async () => {
    expectError(await client.get(path('/zzzzzz')), 404, 'NOT_FOUND', 'custom_audience_id');
  });
});

describe('GET custom_audiences', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const name of ['list alpha', 'list beta', 'list gamma']) ids.push((await createAudience(client, account, name)).id);
  });

  it('pages with count and cursor, in creation order', async () => {
    const all = await listIds(client, path());
    const first = await client.get(path(), { count: 2 });
    expect(first.body.data.map((a: any) => a.id)).toEqual(all.slice(0, 2));
    const second = await client.get(path(), { count: 2, cursor: first.body.next_cursor });
    expect(second.body.data.map((a: any) => a.id)).toEqual(all.slice(2, 4));
    for (const a of first.body.data) expectWire('CustomAudience', a);
  });

  const filters: Array<[string, () => Record<string, string | number | boolean>, () => string[]]> = [
    ['q is a case-insensitive name prefix', () => ({ q: 'LIST ' }), () => ids],
    ['custom_audience_ids', () => ({ custom_audience_ids: `${ids[2]},${ids[0]}` }), () => [ids[0]!, ids[2]!]],
    ['sort_by name-desc with q', () => ({ q: 'list', sort_by: 'name-desc' }), () => [...ids].reverse()],
    ['permission_scope OWNER is the default', () => ({ q: 'list', permission_scope: 'OWNER' }), () => ids],
    ['permission_scope SHARED holds only shared audiences', () => ({ q: 'list', permission_scope: 'SHARED' }), () => []],
  ];
  it.each(filters)('%s', async (_what, params, expected) => {
    expect(await listIds(client, path(), params())).toEqual(expected());
  });

  it('adds total_count on request', async () => {
    const r = await client.get(path(), { q: 'list', with_total_count: true });
    expect(r.body.total_count).toBe(3);
  });

  const refusals: Array<[string, Record<string, string | number>, string, string]> = [
    ['count over 1000', { count: 1001 }, 'INVALID_PARAMETER', 'count'],
    ['an empty q', { q: '' }, 'INVALID_PARAMETER', 'q'],
    ['an unknown permission_scope', { permission_scope: 'ALL' }, 'INVALID_PARAMETER', 'permission_scope'],
    ['201 ids', { custom_audience_ids: Array.from({ length: 201 }, (_, i) => `a${i}`).join(',') }, 'INVALID_PARAMETER', 'custom_audience_ids'],
    ['an unsupported sort_by', { sort_by: 'audience_size-asc' }, 'INVALID_PARAMETER', 'sort_by'],
    ['with_total_count with a cursor', { with_total_count: 'true', cursor: 's1' }, 'EXCLUSIVE_PARAMETERS', 'with_total_count'],
  ];
  it.each(refusals)('refuses %s', async (_what, params, code, parameter) => {
    expectError(await client.get(path(), params), 400, code, parameter);
  });
});

describe('targetable once it has 100 members', () => {
  const rows: Array<[number, boolean, string[], number | null]> = [
    [1, false, ['TOO_SMALL'], null],
    [99, false, ['TOO_SMALL'], null],
    [100, true, [], 100],
    [1_234, true, [], 1_200],
  ];
  it.each(rows)('%i members: targetable %s', async (members, targetable, reasons, size) => {
    const a = await filledAudience(client, account, members);
    expect(a).toMatchObject({ targetable, reasons_not_targetable: reasons, audience_size: size });
    expectWire('CustomAudience', a);
  });
});

describe('CUSTOM_AUDIENCE targeting and GET custom_audiences/:id/targeted', () => {
  let lineItem: any;
  let paused: any;
  let campaign: any;
  beforeAll(async () => {
    campaign = await createCampaign(client, account, { name: 'audience campaign' });
    lineItem = await createLineItem(client, account, campaign.id, { name: 'active li' });
    paused = await createLineItem(client, account, campaign.id, { name: 'paused li', entity_status: 'PAUSED' });
  });
  const criterion = (li: string, type: string, value: string) =>
    client.post(`/12/accounts/${account}/targeting_criteria`, { line_item_id: li, targeting_type: type, targeting_value: value, operator_type: 'EQ' });

  it('accepts a targetable audience of the account, named after it', async () => {
    const a = await filledAudience(client, account, 150, 'Buyers');
    for (const type of ['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED']) {
      const r = await criterion(lineItem.id, type, a.id);
      expect(r.status, r.text).toBe(201);
      expect(r.body.data).toMatchObject({ targeting_type: type, targeting_value: a.id, name: 'Buyers' });
      expectWire('TargetingCriterion', r.body.data);
    }
  });

  const refusals: Array<[string, () => Promise<string>]> = [
    ['an audience below 100 members', async () => (await filledAudience(client, account, 10)).id],
    ['a new audience', async () => (await createAudience(client, account)).id],
    ['an unknown audience', async () => 'zzzzzz'],
    ['a deleted audience', async () => {
      const a = await filledAudience(client, account, 120);
      await client.delete(path(`/${a.id}`));
      return a.id;
    }],
  ];
  it.each(refusals)('refuses %s', async (_what, id) => {
    expectError(await criterion(lineItem.id, 'CUSTOM_AUDIENCE', await id()), 400, 'INVALID_PARAMETER', 'targeting_value');
  });

  it('lists the campaigns and line items targeting it; with_active=false adds the ones not servable', async () => {
    const a = await filledAudience(client, account, 100, 'Targeted');
    expect((await criterion(lineItem.id, 'CUSTOM_AUDIENCE', a.id)).status).toBe(201);
    expect((await criterion(paused.id, 'CUSTOM_AUDIENCE', a.id)).status).toBe(201);
    const r = await client.get(path(`/${a.id}/targeted`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.data).toEqual([{ campaign_id: campaign.id, campaign_name: 'audience campaign', line_items: [{ id: lineItem.id, name: 'active li', servable: true }] }]);
    const all = await client.get(path(`/${a.id}/targeted`), { with_active: false });
    expect(all.body.data[0].line_items).toEqual([
      { id: lineItem.id, name: 'active li', servable: true },
      { id: paused.id, name: 'paused li', servable: false },
    ]);
    expectWire('CustomAudienceTargeted', ...r.body.data, ...all.body.data);
    const none = await client.get(path(`/${(await createAudience(client, account)).id}/targeted`));
    expect(none.body.data).toEqual([]);
    expectError(await client.get(path('/zzzzzz/targeted')), 404, 'NOT_FOUND');
  });

  it('keeps the upload counts in request order: Update then Delete of the same users', async () => {
    const a = await createAudience(client, account);
    const values = hashes(5, 'order');
    const r = await uploadUsers(client, account, a.id, [usersOp('Update', emails(values)), usersOp('Delete', emails(values.slice(0, 2)))]);
    expect(r.body.data).toEqual({ success_count: 7, total_count: 7 });
  });
});
