import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { createAudience, createSandboxAccount, emails, filledAudience, hashes, setBusiness, uploadUsers, usersOp } from '../support/audiences.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let owner: string;
let sibling: string;
let stranger: string;

const perms = (account: string, audience: string, v5 = false): string =>
  v5 ? `/5/accounts/${account}/tailored_audiences/${audience}/permissions` : `/12/accounts/${account}/custom_audiences/${audience}/permissions`;

beforeAll(async () => {
  ({ emulator, client, account: owner } = await startTestEmulator({ rateLimitScale: 0 }));
  sibling = await createSandboxAccount(client);
  stranger = await createSandboxAccount(client);
  await setBusiness(client, owner, 'biz-1');
  await setBusiness(client, sibling, 'biz-1');
  await setBusiness(client, stranger, 'biz-2');
});
afterAll(() => emulator.close());

describe('sharing an audience within the business', () => {
  let audience: any;
  let permission: any;
  beforeAll(async () => {
    audience = await filledAudience(client, owner, 200, 'Shared buyers');
  });

  it('grants, and the granted account lists it with permission_scope=SHARED', async () => {
    const r = await client.post(perms(owner, audience.id), { granted_account_id: sibling, permission_level: 'READ_ONLY' });
    expect(r.status, r.text).toBe(201);
    permission = r.body.data;
    expectWire('CustomAudiencePermission', permission);
    expect(permission).toMatchObject({ custom_audience_id: audience.id, granted_account_id: sibling, permission_level: 'READ_ONLY', deleted: false });

    const shared = await client.get(`/12/accounts/${sibling}/custom_audiences`, { permission_scope: 'SHARED' });
    expect(shared.body.data.map((a: any) => a.id)).toEqual([audience.id]);
    const seen = shared.body.data[0];
    expectWire('CustomAudience', seen);
    expect(seen).toMatchObject({ is_owner: false, permission_level: 'READ_ONLY', owner_account_id: owner, targetable: true });
    expect((await client.get(`/12/accounts/${sibling}/custom_audiences`)).body.data).toEqual([]);
    expect((await client.get(`/12/accounts/${sibling}/custom_audiences/${audience.id}`)).body.data.is_owner).toBe(false);
  });

  it('lists permissions at version 12 and 5 with their filters', async () => {
    const v12 = await client.get(perms(owner, audience.id));
    expect(v12.body.data).toEqual([permission]);
    const v5 = await client.get(perms(owner, audience.id, true), { tailored_audience_permission_ids: permission.id, granted_account_ids: sibling, with_total_count: true });
    expect(v5.status, v5.text).toBe(200);
    expect(v5.body.total_count).toBe(1);
    expectWire('TailoredAudiencePermission', ...v5.body.data);
    expect(v5.body.data[0]).toEqual({ ...Object.fromEntries(Object.entries(permission).filter(([k]) => k !== 'custom_audience_id')), tailored_audience_id: audience.id });
    expect((await client.get(perms(owner, audience.id), { granted_account_ids: stranger })).body.data).toEqual([]);
    expect((await client.get(perms(sibling, audience.id))).body.data.map((p: any) => p.id)).toEqual([permission.id]);
    expectError(await client.get(perms(owner, audience.id), { custom_audience_permission_ids: Array.from({ length: 201 }, (_, i) => `p${i}`).join(',') }), 400, 'INVALID_PARAMETER', 'custom_audience_permission_ids');
  });

  it('leaves changes to the owner', async () => {
    expectError(await client.put(`/12/accounts/${sibling}/custom_audiences/${audience.id}`, { name: 'mine now' }), 403, 'ACTION_NOT_ALLOWED');
    expectError(await client.delete(`/12/accounts/${sibling}/custom_audiences/${audience.id}`), 403, 'ACTION_NOT_ALLOWED');
    expectError(await client.post(perms(sibling, audience.id), { granted_account_id: stranger, permission_level: 'READ_ONLY' }), 403, 'ACTION_NOT_ALLOWED');
    expectError(await client.delete(`${perms(sibling, audience.id)}/${permission.id}`), 403, 'ACTION_NOT_ALLOWED');
    expectError(await uploadUsers(client, sibling, audience.id, [usersOp('Update', emails(hashes(1)))]), 403, 'ACTION_NOT_ALLOWED');
  });

  const refusals: Array<[string, () => Record<string, string>, number, string, string]> = [
    ['granted_account_id is required', () => ({ permission_level: 'READ_ONLY' }), 400, 'MISSING_PARAMETER', 'granted_account_id'],
    ['permission_level is required', () => ({ granted_account_id: sibling }), 400, 'MISSING_PARAMETER', 'permission_level'],
    ['an unknown permission_level', () => ({ granted_account_id: sibling, permission_level: 'ADMIN' }), 400, 'INVALID_PARAMETER', 'permission_level'],
    ['an unknown account', () => ({ granted_account_id: 'nosuch', permission_level: 'READ_ONLY' }), 400, 'INVALID_PARAMETER', 'granted_account_id'],
    ['the owner itself', () => ({ granted_account_id: owner, permission_level: 'READ_ONLY' }), 400, 'INVALID_PARAMETER', 'granted_account_id'],
    ['a second live grant', () => ({ granted_account_id: sibling, permission_level: 'READ_WRITE' }), 400, 'INVALID_PARAMETER', 'granted_account_id'],
    ['an account outside the business', () => ({ granted_account_id: stranger, permission_level: 'READ_ONLY' }), 400, 'FEATURE_NOT_AVAILABLE', 'granted_account_id'],
  ];
  it.each(refusals)('refuses %s', async (_what, params, status, code, parameter) => {
    expectError(await client.post(perms(owner, audience.id), params()), status, code, parameter);
  });

  it('revokes: the audience leaves the granted account, and a second revoke is 404', async () => {
    const r = await client.delete(`${perms(owner, audience.id)}/${permission.id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.deleted).toBe(true);
    expect((await client.get(`/12/accounts/${sibling}/custom_audiences`, { permission_scope: 'SHARED' })).body.data).toEqual([]);
    expectError(await client.get(`/12/accounts/${sibling}/custom_audiences/${audience.id}`), 404, 'NOT_FOUND');
    expectError(await client.delete(`${perms(owner, audience.id)}/${permission.id}`), 404, 'NOT_FOUND', 'custom_audience_permission_id');
    expectError(await client.delete(`${perms(owner, audience.id, true)}/${permission.id}`), 404, 'NOT_FOUND', 'tailored_audience_permission_id');
  });
});

describe('targeting a shared audience', () => {
  it('is allowed while shared and refused after the revoke; criteria made before stay', async () => {
    const audience = await filledAudience(client, owner, 100);
    const grant = await client.post(perms(owner, audience.id, true), { granted_account_id: sibling, permission_level: 'READ_WRITE' });
    expect(grant.status, grant.text).toBe(201);
    expectWire('TailoredAudiencePermission', grant.body.data);
    const fi = (await client.post(`/12/accounts/${sibling}/funding_instruments`, { currency: 'USD', start_time: '2026-01-01T00:00:00Z', type: 'CREDIT_CARD' }, { base: 'sandbox' })).body.data;
    const campaign = await createCampaign(client, sibling, { funding_instrument_id: fi.id });
    const lineItem = await createLineItem(client, sibling, campaign.id);
    const criterion = (type: string) =>
      client.post(`/12/accounts/${sibling}/targeting_criteria`, { line_item_id: lineItem.id, targeting_type: type, targeting_value: audience.id, operator_type: 'EQ' });
    expect((await criterion('CUSTOM_AUDIENCE')).status).toBe(201);
    expect((await uploadUsers(client, sibling, audience.id, [usersOp('Update', emails(hashes(2, 'rw')))])).status).toBe(200);
    expect((await client.get(`/12/accounts/${sibling}/custom_audiences/${audience.id}/targeted`)).body.data[0].campaign_id).toBe(campaign.id);
    await client.delete(`${perms(owner, audience.id, true)}/${grant.body.data.id}`);
    expectError(await criterion('CUSTOM_AUDIENCE_EXPANDED'), 400, 'INVALID_PARAMETER', 'targeting_value');
    const kept = await client.get(`/12/accounts/${sibling}/targeting_criteria`, { line_item_ids: lineItem.id });
    expect(kept.body.data.map((c: any) => c.targeting_value)).toContain(audience.id);
  });
});

describe('sharing outside the business', () => {
  it('needs the owner to have SHARE_AUDIENCE_OUTSIDE_BUSINESS', async () => {
    const audience = await createAudience(client, owner);
    const grant = () => client.post(perms(owner, audience.id), { granted_account_id: stranger, permission_level: 'READ_ONLY' });
    expectError(await grant(), 400, 'FEATURE_NOT_AVAILABLE', 'granted_account_id');
    const feature = await client.post(`/12/accounts/${owner}/features`, { feature_keys: 'SHARE_AUDIENCE_OUTSIDE_BUSINESS' }, { base: 'sandbox' });
    expect(feature.status, feature.text).toBe(200);
    expect((await grant()).status).toBe(201);
    await client.delete(`/12/accounts/${owner}/features`, { feature_keys: 'SHARE_AUDIENCE_OUTSIDE_BUSINESS' }, { base: 'sandbox' });
  });

  it('never shares between accounts without a business', async () => {
    const a = await createSandboxAccount(client);
    const b = await createSandboxAccount(client);
    const audience = await createAudience(client, a);
    expectError(await client.post(perms(a, audience.id), { granted_account_id: b, permission_level: 'READ_ONLY' }), 400, 'FEATURE_NOT_AVAILABLE');
  });
});
