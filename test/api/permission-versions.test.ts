/**
 * The permission endpoints at either version, through the real API client against the emulator
 * (src/api/audience-sharing.ts, `PermissionsEndpoint`): version 12 under `custom_audiences`,
 * version 5 under `tailored_audiences`, both reaching the same permissions, each in its own
 * words (`custom_audience_id`, `tailored_audience_id`), and each request counted under its label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { PermissionsEndpoint } from '../../src/api/audience-sharing.js';
import type { ApiClient } from '../../src/api/client.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { setBusiness } from '../support/audiences.js';
import { TestClient } from '../support/client.js';
import { testClock } from '../support/test-clock.js';

const V5: PermissionsEndpoint = { version: 5, audiences: 'tailored_audiences', label: 'v5_permission' };

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;
let sibling: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
  account = emulator.info.account_id;
  sibling = (await api.createSandboxAccount()).id;
  const fixtures = new TestClient(emulator.info);
  await setBusiness(fixtures, account, 'biz-1');
  await setBusiness(fixtures, sibling, 'biz-1');
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('audience permissions at either version', () => {
  it('grants at version 5, lists at both, revokes at version 12', async () => {
    const audience = await api.create('custom_audience', account, { name: 'Shared at five' });
    const granted = await api.grantAudience(account, audience.id, { granted_account_id: sibling, permission_level: 'READ_WRITE' }, V5);
    expect(granted).toMatchObject({ tailored_audience_id: audience.id, granted_account_id: sibling, permission_level: 'READ_WRITE', deleted: false });
    expect((await api.audiencePermissions(account, audience.id, V5)).map((p) => [p['id'], p['tailored_audience_id']])).toEqual([[granted.id, audience.id]]);
    expect((await api.audiencePermissions(account, audience.id)).map((p) => [p['id'], p['custom_audience_id']])).toEqual([[granted.id, audience.id]]);
    expect((await api.revokeAudience(account, audience.id, granted.id)).deleted).toBe(true);
    expect(await api.audiencePermissions(account, audience.id, V5)).toEqual([]);
  });

  it('grants at version 12 and revokes at version 5', async () => {
    const audience = await api.create('custom_audience', account, { name: 'Shared at twelve' });
    const granted = await api.grantAudience(account, audience.id, { granted_account_id: sibling, permission_level: 'READ_ONLY' });
    const revoked = await api.revokeAudience(account, audience.id, granted.id, V5);
    expect(revoked).toMatchObject({ id: granted.id, tailored_audience_id: audience.id, deleted: true });
    expect(await api.audiencePermissions(account, audience.id)).toEqual([]);
  });
});
