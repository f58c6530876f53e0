/**
 * Part B audiences through the real API client against the emulator: custom audiences through
 * the generic table operations, sharing them (permissions), flexible audiences (10 a batch) and
 * the do-not-reach list, whose list takes no count, cursor or id filter and which has no GET by id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { BatchOperation } from '../../src/api/batch.js';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { setBusiness } from '../support/audiences.js';
import { TestClient } from '../support/client.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
  account = emulator.info.account_id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('custom audiences', () => {
  it('create, listWhere on custom_audience_ids, update, get, delete', async () => {
    const audience = await api.create('custom_audience', account, { name: 'Buyers', description: 'Bought last year' });
    expect(audience).toMatchObject({ name: 'Buyers', description: 'Bought last year', audience_type: 'CRM', is_owner: true, targetable: false });
    expect((await api.listWhere('custom_audience', account, 'custom_audience_ids', [audience.id])).map((a) => a.id)).toEqual([audience.id]);
    const changed = await api.update('custom_audience', account, audience.id, { name: 'Buyers 2025', description: null });
    expect(changed).toMatchObject({ name: 'Buyers 2025', description: null });
    expect((await api.get('custom_audience', account, audience.id)).name).toBe('Buyers 2025');
    expect((await api.delete('custom_audience', account, audience.id)).deleted).toBe(true);
    expect((await api.get('custom_audience', account, audience.id, true)).deleted).toBe(true);
  });

  it('refuses a name already taken', async () => {
    await api.create('custom_audience', account, { name: 'Taken' });
    const error = await api.create('custom_audience', account, { name: 'Taken' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).parameter).toBe('name');
  });
});

describe('sharing an audience', () => {
  it('grants, lists and revokes permissions', async () => {
    const sibling = (await api.createSandboxAccount()).id;
    const fixtures = new TestClient(emulator.info);
    await setBusiness(fixtures, account, 'biz-1');
    await setBusiness(fixtures, sibling, 'biz-1');
    const audience = await api.create('custom_audience', account, { name: 'Shared' });
    const granted = await api.grantAudience(account, audience.id, { granted_account_id: sibling, permission_level: 'READ_ONLY' });
    expect(granted).toMatchObject({ custom_audience_id: audience.id, granted_account_id: sibling, permission_level: 'READ_ONLY', deleted: false });
    expect((await api.audiencePermissions(account, audience.id)).map((p) => p['id'])).toEqual([granted.id]);
    expect((await api.audiencePermissions(sibling, audience.id)).map((p) => p.granted_account_id)).toEqual([sibling]);
    expect((await api.list('custom_audience', sibling, { permission_scope: 'SHARED' })).map((a) => a.id)).toEqual([audience.id]);
    expect((await api.revokeAudience(account, audience.id, granted.id)).deleted).toBe(true);
    expect(await api.audiencePermissions(account, audience.id)).toEqual([]);
    const again = await api.revokeAudience(account, audience.id, granted.id).catch((e: unknown) => e);
    expect((again as ApiError).status).toBe(404);
  });
});

describe('flexible audiences', () => {
  it('creates 12 in 2 requests of 10, deletes one, and maps a refused item to its input', async () => {
    const leaf = await api.create('custom_audience', account, { name: 'Leaf' });
    const create = (name: string): BatchOperation => ({
      operation_type: 'Create',
      params: { audience_type: 'FLEXIBLE', name, segments: { boolean_operator: 'AND', child_segments: [{ custom_audience_id: leaf.id, lookback_window: 7 }] } },
    });
    const before = client.counts.byEndpoint['custom_audience.batch'] ?? 0;
    const results = await api.flexibleAudiences(account, Array.from({ length: 12 }, (_, i) => create(`Flexible ${i}`)));
    expect((client.counts.byEndpoint['custom_audience.batch'] ?? 0) - before).toBe(2);
    const made = results.map((r) => (r.ok ? r.data : undefined));
    expect(made.map((a) => a?.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Flexible ${i}`));
    expect(made[0]).toMatchObject({ audience_type: 'FLEXIBLE', segments: { boolean_operator: 'AND', child_segments: [{ custom_audience_id: leaf.id, lookback_window: 7 }] } });

    const [removed, refused, sibling] = await api.flexibleAudiences(account, [
      { operation_type: 'Delete', params: { custom_audience_id: made[0]!.id } },
      { operation_type: 'Update', params: { custom_audience_id: made[1]!.id, name: 'renamed' } },
      create('Flexible 12'),
    ]);
    expect(removed?.ok === false && removed.rejectedBy === 'sibling').toBe(true);
    expect(refused?.ok === false && refused.rejectedBy === 'own' && refused.error.code === 'INVALID_PARAMETER').toBe(true);
    expect(sibling?.ok === false && sibling.rejectedBy === 'sibling').toBe(true);
    const [deleted] = await api.flexibleAudiences(account, [{ operation_type: 'Delete', params: { custom_audience_id: made[0]!.id } }]);
    expect(deleted?.ok === true && deleted.data.deleted).toBe(true);
  });
});

describe('the do-not-reach list', () => {
  it('is created, listed without paging, read through its list, and deleted', async () => {
    expect(await api.doNotReachLists(account)).toEqual([]);
    const list = await api.create('do_not_reach_list', account, { description: 'Opted out' });
    expect(list).toMatchObject({ name: 'Do Not Reach List', description: 'Opted out', deleted: false });
    expect((await api.doNotReachLists(account)).map((l) => l.id)).toEqual([list.id]);
    expect((await api.get('do_not_reach_list', account, list.id)).description).toBe('Opted out');
    expect((await api.listWhere('do_not_reach_list', account, 'id', [list.id, 'other'])).map((l) => l.id)).toEqual([list.id]);
    const missing = await api.get('do_not_reach_list', account, 'nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    const second = await api.create('do_not_reach_list', account, {}).catch((e: unknown) => e);
    expect((second as ApiError).code).toBe('INVALID_PARAMETER');
    expect((await api.delete('do_not_reach_list', account, list.id)).deleted).toBe(true);
    expect(await api.doNotReachLists(account)).toEqual([]);
    expect((await api.doNotReachLists(account, true)).map((l) => l.id)).toEqual([list.id]);
    expect((await api.get('do_not_reach_list', account, list.id, true)).deleted).toBe(true);
    expect((await api.list('do_not_reach_list', account)).length).toBe(0);
  });
});
