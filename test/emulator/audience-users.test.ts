import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { TestClient, startTestEmulator } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { createAudience, emails, hashes, memberCounts, uploadUsers, usersOp } from '../support/audiences.js';
import { expectWire } from '../support/wire.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

const HEX = hashes(1, 'one')[0]!;

describe('POST custom_audiences/:id/users', () => {
  it('adds and removes members; counts are the user entries received', async () => {
    const a = await createAudience(client, account);
    const values = hashes(300, 'add');
    const r = await uploadUsers(client, account, a.id, [
      usersOp('Update', [...emails(values.slice(0, 150)), { handle: [values[150]!, values[151]!], service_id: [values[152]!] }], { effective_at: '2026-01-01T00:00:00Z', expires_at: '2027-01-01T00:00:00Z' }),
      usersOp('Update', [...emails(values.slice(153)), { twitter_id: [values[0]!] }, { partner_user_id: ['crm-42'] }]),
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account, custom_audience_id: a.id } }, data: { success_count: 300, total_count: 300 } });
    expectWire('AudienceUsersResult', r.body.data);
    expect(await memberCounts(client, a.id)).toEqual({ members: 301, unmatched: 0 });
    const del = await uploadUsers(client, account, a.id, [usersOp('Delete', emails(values.slice(0, 100)))]);
    expect(del.body.data).toEqual({ success_count: 100, total_count: 100 });
    expect(await memberCounts(client, a.id)).toEqual({ members: 201, unmatched: 0 });
    const got = (await client.get(`/12/accounts/${account}/custom_audiences/${a.id}`)).body.data;
    expect(got).toMatchObject({ targetable: true, audience_size: 200 });
  });

  it('counts values that are not lowercase SHA-256 hex as unmatched, and keeps no duplicates', async () => {
    const a = await createAudience(client, account);
    const r = await uploadUsers(client, account, a.id, [
      usersOp('Update', [{ email: ['someone@example.com', HEX.toUpperCase(), HEX.slice(1), HEX] }, { phone_number: [HEX, '+15551234567'] }, { device_id: [''] }]),
    ]);
    expect(r.body.data).toEqual({ success_count: 3, total_count: 3 });
    expect(await memberCounts(client, a.id)).toEqual({ members: 1, unmatched: 5 });
  });

  const refusals: Array<[string, () => unknown, number, string, string | undefined]> = [
    ['a body that is not an array', () => ({ operation_type: 'Update' }), 400, 'INVALID_PARAMETER', undefined],
    ['an empty array', () => [], 400, 'INVALID_PARAMETER', undefined],
    ['2,501 operations', () => Array.from({ length: 2501 }, () => usersOp('Update', emails([HEX]))), 400, 'INVALID_PARAMETER', undefined],
    ['a missing operation_type', () => [{ params: { users: emails([HEX]) } }], 400, 'MISSING_PARAMETER', 'operation_type'],
    ['operation_type Create', () => [usersOp('Create' as 'Update', emails([HEX]))], 400, 'INVALID_PARAMETER', 'operation_type'],
    ['missing params', () => [{ operation_type: 'Update' }], 400, 'MISSING_PARAMETER', 'params'],
    ['missing users', () => [{ operation_type: 'Update', params: {} }], 400, 'MISSING_PARAMETER', 'users'],
    ['empty users', () => [usersOp('Update', [])], 400, 'INVALID_PARAMETER', 'users'],
    ['an unknown identifier', () => [usersOp('Update', [{ fax: [HEX] }])], 400, 'INVALID_PARAMETER', 'users'],
    ['an identifier that is not an array', () => [{ operation_type: 'Update', params: { users: [{ email: HEX }] } }], 400, 'INVALID_PARAMETER', 'users'],
    ['a user with no value', () => [usersOp('Update', [{ email: [] }])], 400, 'INVALID_PARAMETER', 'users'],
    ['expires_at not after effective_at', () => [usersOp('Update', emails([HEX]), { effective_at: '2026-05-01T00:00:00Z', expires_at: '2026-05-01T00:00:00Z' })], 400, 'INVALID_PARAMETER', 'expires_at'],
    ['a malformed effective_at', () => [usersOp('Update', emails([HEX]), { effective_at: 'soon' })], 400, 'INVALID_PARAMETER', 'effective_at'],
    ['an unknown params field', () => [usersOp('Update', emails([HEX]), { list_type: 'EMAIL' })], 400, 'INVALID_PARAMETER', 'list_type'],
  ];
  it.each(refusals)('refuses %s, keeping nothing', async (_what, body, status, code, parameter) => {
    const a = await createAudience(client, account);
    const ok = usersOp('Update', emails(hashes(3, `kept-${a.id}`)));
    const payload = body();
    const r = await uploadUsers(client, account, a.id, Array.isArray(payload) && payload.length > 0 && payload.length < 10 ? [ok, ...payload] : payload);
    expectError(r, status, code, parameter);
    expect(await memberCounts(client, a.id)).toEqual({ members: 0, unmatched: 0 });
  });

  it('answers 413 for a body over 5,000,000 bytes', async () => {
    const a = await createAudience(client, account);
    const values = hashes(64_000, 'big');
    const body = [usersOp('Update', emails(values))];
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(5_000_000);
    const r = await uploadUsers(client, account, a.id, body);
    expectError(r, 413, 'INVALID_PARAMETER', 'body');
    expect(await memberCounts(client, a.id)).toEqual({ members: 0, unmatched: 0 });
  });

  it('takes JSON only, on an audience of the account, not a flexible one', async () => {
    const a = await createAudience(client, account);
    expectError(await client.post(`/12/accounts/${account}/custom_audiences/${a.id}/users`, { users: HEX }, { as: 'form' }), 400, 'INVALID_PARAMETER', 'content-type');
    expectError(await uploadUsers(client, account, 'zzzzzz', [usersOp('Update', emails([HEX]))]), 404, 'NOT_FOUND', 'custom_audience_id');
    const leaf = await createAudience(client, account);
    const flex = await client.post(`/12/batch/accounts/${account}/custom_audiences`, {}, { json: [{ operation_type: 'Create', params: { audience_type: 'FLEXIBLE', name: `flex ${a.id}`, boolean_operator: 'AND', child_segments: [{ custom_audience_id: leaf.id }] } }] });
    expect(flex.status, flex.text).toBe(200);
    expectError(await uploadUsers(client, account, flex.body.data[0].id, [usersOp('Update', emails([HEX]))]), 400, 'INVALID_TAILORED_AUDIENCE_TYPE');
  });
});

describe('users upload rate limit', () => {
  it('is its own family of 1,500 a minute (scaled), apart from writes', async () => {
    const { emulator: limited, client: c, account: acct } = await startTestEmulator({ rateLimitScale: 0.004 });
    try {
      const a = await createAudience(c, acct);
      const first = await uploadUsers(c, acct, a.id, [usersOp('Update', emails([HEX]))]);
      expect(first.headers['x-rate-limit-limit']).toBe('6');
      for (let i = 0; i < 5; i++) expect((await uploadUsers(c, acct, a.id, [usersOp('Update', emails([HEX]))])).status).toBe(200);
      expectError(await uploadUsers(c, acct, a.id, [usersOp('Update', emails([HEX]))]), 429, 'TOO_MANY_REQUESTS');
      expect((await c.post(`/12/accounts/${acct}/custom_audiences`, { name: 'still writable' })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('members survive a restart with --data', () => {
  it('keeps members, unmatched counts and deletions across restarts and compaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adsctl-audiences-'));
    const file = join(dir, 'state.json');
    try {
      const first = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
      const c1 = new TestClient(first.info);
      const acct = first.info.account_id;
      const a = await createAudience(c1, acct, 'persisted');
      const values = hashes(500, 'persist');
      expect((await uploadUsers(c1, acct, a.id, [usersOp('Update', [...emails(values), { email: ['not-a-hash'] }])])).status).toBe(200);
      expect((await uploadUsers(c1, acct, a.id, [usersOp('Delete', emails(values.slice(0, 40)))])).status).toBe(200);
      // a failed upload leaves nothing behind in the journal either
      expect((await uploadUsers(c1, acct, a.id, [usersOp('Update', emails(hashes(10, 'x'))), usersOp('Update', [])])).status).toBe(400);
      await first.close();

      const second = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
      const c2 = new TestClient(second.info);
      expect(await memberCounts(c2, a.id)).toEqual({ members: 460, unmatched: 1 });
      expect((await uploadUsers(c2, acct, a.id, [usersOp('Delete', emails(values.slice(40, 60)))])).status).toBe(200);
      expect((await c2.get(`/12/accounts/${acct}/custom_audiences/${a.id}`)).body.data).toMatchObject({ targetable: true, audience_size: 440 });
      await second.close();

      const third = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
      expect(await memberCounts(new TestClient(third.info), a.id)).toEqual({ members: 440, unmatched: 1 });
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
