import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { TestClient, startTestEmulator, type Params, type Reply, type SendOptions } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { emails, hashes, memberCounts, usersOp } from '../support/audiences.js';
import { expectWire } from '../support/wire.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');

/** Signs with the emulator's clock, so requests stay inside the OAuth timestamp window. */
class ClockedClient extends TestClient {
  override send<T = any>(method: string, path: string, params: Params = {}, opts: SendOptions = {}): Promise<Reply<T>> {
    return super.send(method, path, params, { timestamp: Math.floor(NOW / 1000), ...opts });
  }
}

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let list: any;

const lists = (suffix = ''): string => `/12/accounts/${account}/do_not_reach_lists${suffix}`;
const users = (ops: unknown, id = list.id): Promise<Reply> => client.post(`/12/batch/accounts/${account}/do_not_reach_lists/${id}/users`, {}, { json: ops });

beforeAll(async () => {
  ({ emulator, account } = await startTestEmulator({ rateLimitScale: 0, clock: { now: () => new Date(NOW) } }));
  client = new ClockedClient(emulator.info);
});
afterAll(() => emulator.close());

describe('do_not_reach_lists', () => {
  it('creates one list an account; a second is refused until the first is deleted', async () => {
    expect((await client.get(lists())).body.data).toEqual([]);
    const r = await client.post(lists(), { description: 'opted out' });
    expect(r.status, r.text).toBe(201);
    list = r.body.data;
    expectWire('DoNotReachList', list);
    expect(list).toMatchObject({ name: 'Do Not Reach List', description: 'opted out', targetable: false, reasons_not_targetable: ['PROCESSING', 'TOO_SMALL'], list_size: null, created_at: '2026-06-15T12:00:00Z' });
    expectError(await client.post(lists()), 400, 'INVALID_PARAMETER');
    const got = await client.get(lists());
    expect(got.body).toMatchObject({ next_cursor: null, data: [list] });

    const temp = await client.post('/12/accounts', {}, { base: 'sandbox' });
    const other = temp.body.data[0].id;
    const first = (await client.post(`/12/accounts/${other}/do_not_reach_lists`)).body.data;
    const del = await client.delete(`/12/accounts/${other}/do_not_reach_lists/${first.id}`);
    expect(del.body.data.deleted).toBe(true);
    expectWire('DoNotReachList', del.body.data);
    expectError(await client.delete(`/12/accounts/${other}/do_not_reach_lists/${first.id}`), 404, 'NOT_FOUND', 'do_not_reach_list_id');
    expect((await client.get(`/12/accounts/${other}/do_not_reach_lists`)).body.data).toEqual([]);
    expect((await client.get(`/12/accounts/${other}/do_not_reach_lists`, { with_deleted: true })).body.data).toHaveLength(1);
    expect((await client.post(`/12/accounts/${other}/do_not_reach_lists`)).status).toBe(201);
  });

  it('takes users batches: the answer data is an array, request an array of the operations', async () => {
    const values = hashes(120, 'dnrl');
    const r = await users([
      usersOp('Update', [...emails(values.slice(0, 100)), { phone_number: values.slice(100) }], { expires_at: '2027-01-01T00:00:00Z' }),
      usersOp('Delete', emails(values.slice(0, 10))),
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual([{ success_count: 111, total_count: 111 }]);
    expectWire('AudienceUsersResult', ...r.body.data);
    expect(r.body.request).toEqual([
      { params: { account_id: account, do_not_reach_list_id: list.id, expires_at: '2027-01-01T00:00:00Z' }, operation_type: 'Update' },
      { params: { account_id: account, do_not_reach_list_id: list.id, expires_at: '2027-07-15T12:00:00Z' }, operation_type: 'Delete' },
    ]);
    expect(await memberCounts(client, list.id)).toEqual({ members: 110, unmatched: 0 });
    expect((await client.get(lists())).body.data[0]).toMatchObject({ targetable: true, list_size: 110, reasons_not_targetable: [] });
  });

  const refusals: Array<[string, () => unknown[], string, string]> = [
    ['effective_at (always now)', () => [usersOp('Update', emails(hashes(1)), { effective_at: '2026-06-15T12:00:00Z' })], 'INVALID_PARAMETER', 'effective_at'],
    ['expires_at now', () => [usersOp('Update', emails(hashes(1)), { expires_at: '2026-06-15T12:00:00Z' })], 'INVALID_PARAMETER', 'expires_at'],
    ['expires_at past 13 months', () => [usersOp('Update', emails(hashes(1)), { expires_at: '2027-07-15T12:00:01Z' })], 'INVALID_PARAMETER', 'expires_at'],
    ['a handle (email and phone_number only)', () => [usersOp('Update', [{ handle: hashes(1) }])], 'INVALID_PARAMETER', 'users'],
    ['missing users', () => [{ operation_type: 'Delete', params: {} }], 'MISSING_PARAMETER', 'users'],
  ];
  it.each(refusals)('refuses %s under operation_errors, keeping nothing', async (_what, ops, code, parameter) => {
    const before = await memberCounts(client, list.id);
    const r = await users([usersOp('Update', emails(hashes(5, 'dnrl-kept'))), ...ops()]);
    expect(r.status, r.text).toBe(400);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1].some((e: any) => e.code === code && e.parameter === parameter), r.text).toBe(true);
    expect(r.body.request).toHaveLength(2);
    expect(await memberCounts(client, list.id)).toEqual(before);
  });

  it('refuses request-level problems under errors, and unknown lists with 404', async () => {
    expectError(await users([]), 400, 'INVALID_PARAMETER');
    expectError(await users(Array.from({ length: 2501 }, () => usersOp('Update', emails(hashes(1))))), 400, 'INVALID_PARAMETER');
    expectError(await users([usersOp('Update', emails(hashes(1)))], 'zzzzzz'), 404, 'NOT_FOUND', 'do_not_reach_list_id');
  });
});
