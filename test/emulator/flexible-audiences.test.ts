import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Reply, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { createAudience, filledAudience } from '../support/audiences.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let big: any;
let small: any;
let serial = 0;

type Body = Record<string, unknown>;
const batch = (items: unknown): Promise<Reply> => client.post(`/12/batch/accounts/${account}/custom_audiences`, {}, { json: items });
const leaf = (id: string, extra: Body = {}): Body => ({ custom_audience_id: id, ...extra });
const create = (params: Body): Body => ({ operation_type: 'Create', params: { audience_type: 'FLEXIBLE', name: `flex ${++serial}`, ...params } });

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  big = await filledAudience(client, account, 150, 'big leaf');
  small = await createAudience(client, account, 'small leaf');
});
afterAll(() => emulator.close());

describe('POST batch custom_audiences: Create', () => {
  it('creates flexible audiences from top-level child_segments or a segments object, with defaults', async () => {
    const r = await batch([
      create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { lookback_window: 7, negate: false })] }),
      create({ segments: { boolean_operator: 'OR', child_segments: [leaf(big.id), { boolean_operator: 'AND', child_segments: [leaf(small.id, { frequency: 3, frequency_comparator: 'NUM_LT' })] }] } }),
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.request).toHaveLength(2);
    const [a, b] = r.body.data;
    expectWire('CustomAudience', a, b);
    expect(a).toMatchObject({ audience_type: 'FLEXIBLE', targetable: true, audience_size: null, is_owner: true, targetable_types: ['FLEXIBLE'] });
    expect(a.segments).toEqual({ boolean_operator: 'AND', child_segments: [{ custom_audience_id: big.id, lookback_window: 7, frequency: 1, frequency_comparator: 'NUM_GTE', negate: false }] });
    expect(b).toMatchObject({ targetable: false, reasons_not_targetable: ['TOO_SMALL'] });
    expect(b.segments.child_segments[1].child_segments[0]).toEqual({ custom_audience_id: small.id, lookback_window: 30, frequency: 3, frequency_comparator: 'NUM_LT', negate: true });
    expect((await client.get(`/12/accounts/${account}/custom_audiences/${a.id}`)).body.data).toEqual(a);
  });

  const itemRefusals: Array<[string, () => Body, string, string]> = [
    ['audience_type is required', () => ({ operation_type: 'Create', params: { name: 'x', child_segments: [leaf(big.id)], boolean_operator: 'AND' } }), 'MISSING_PARAMETER', 'audience_type'],
    ['a MOBILE_AUDIENCE', () => create({ audience_type: 'MOBILE_AUDIENCE', child_segments: [leaf(big.id)], boolean_operator: 'AND' }), 'INVALID_TAILORED_AUDIENCE_TYPE', 'audience_type'],
    ['name is required', () => ({ operation_type: 'Create', params: { audience_type: 'FLEXIBLE', child_segments: [leaf(big.id)], boolean_operator: 'AND' } }), 'MISSING_PARAMETER', 'name'],
    ['a name already used', () => create({ name: 'big leaf', child_segments: [leaf(big.id)], boolean_operator: 'AND' }), 'INVALID_PARAMETER', 'name'],
    ['no segments at all', () => create({}), 'MISSING_PARAMETER', 'child_segments'],
    ['segments and child_segments together', () => create({ segments: { boolean_operator: 'AND', child_segments: [leaf(big.id)] }, child_segments: [leaf(big.id)] }), 'EXCLUSIVE_PARAMETERS', 'segments'],
    ['boolean_operator missing beside children', () => create({ child_segments: [leaf(big.id)] }), 'MISSING_PARAMETER', 'boolean_operator'],
    ['boolean_operator XOR', () => create({ boolean_operator: 'XOR', child_segments: [leaf(big.id)] }), 'INVALID_PARAMETER', 'boolean_operator'],
    ['no leaf', () => create({ boolean_operator: 'AND', child_segments: [] }), 'INVALID_PARAMETER', 'child_segments'],
    ['11 leaves', () => create({ boolean_operator: 'OR', child_segments: Array.from({ length: 11 }, () => leaf(big.id)) }), 'INVALID_PARAMETER', 'child_segments'],
    ['an unknown leaf audience', () => create({ boolean_operator: 'AND', child_segments: [leaf('zzzzzz')] }), 'TAILORED_AUDIENCE_NOT_FOUND', 'custom_audience_id'],
    ['lookback_window 3', () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { lookback_window: 3 })] }), 'INVALID_PARAMETER', 'lookback_window'],
    ['frequency 0', () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { frequency: 0 })] }), 'INVALID_PARAMETER', 'frequency'],
    ['frequency_comparator NUM_NE', () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { frequency_comparator: 'NUM_NE' })] }), 'INVALID_PARAMETER', 'frequency_comparator'],
    ['negate "yes"', () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { negate: 'yes' })] }), 'INVALID_PARAMETER', 'negate'],
    ['an unknown leaf field', () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id, { weight: 2 })] }), 'INVALID_PARAMETER', 'weight'],
  ];
  it.each(itemRefusals)('refuses %s under operation_errors, keeping nothing', async (_what, item, code, parameter) => {
    const before = (await client.get(`/12/accounts/${account}/custom_audiences`, { count: 1000 })).body.data.length;
    const r = await batch([create({ boolean_operator: 'AND', child_segments: [leaf(big.id)] }), item()]);
    expect(r.status, r.text).toBe(400);
    expect(r.body.operation_errors[0]).toEqual([]);
    expect(r.body.operation_errors[1].some((e: any) => e.code === code && e.parameter === parameter), r.text).toBe(true);
    expect((await client.get(`/12/accounts/${account}/custom_audiences`, { count: 1000 })).body.data.length).toBe(before);
  });

  it('refuses a flexible audience as a leaf', async () => {
    const flex = (await batch([create({ boolean_operator: 'AND', child_segments: [leaf(big.id)] })])).body.data[0];
    const r = await batch([create({ boolean_operator: 'AND', child_segments: [leaf(flex.id)] })]);
    expect(r.body.operation_errors[0][0].code).toBe('INVALID_TAILORED_AUDIENCE_TYPE');
  });

  it('refuses more than 10 items under errors', async () => {
    const r = await batch(Array.from({ length: 11 }, () => create({ boolean_operator: 'AND', child_segments: [leaf(big.id)] })));
    expectError(r, 400, 'INVALID_PARAMETER');
    expect(r.body.operation_errors).toBeUndefined();
  });
});

describe('POST batch custom_audiences: Update and Delete', () => {
  it('refuses Update (flexible audiences are immutable) and deletes with Delete', async () => {
    const flex = (await batch([create({ boolean_operator: 'AND', child_segments: [leaf(big.id)] })])).body.data[0];
    const upd = await batch([{ operation_type: 'Update', params: { custom_audience_id: flex.id, name: 'renamed' } }]);
    expect(upd.status).toBe(400);
    expect(upd.body.operation_errors[0][0]).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'operation_type' });
    const del = await batch([{ operation_type: 'Delete', params: { custom_audience_id: flex.id } }]);
    expect(del.status, del.text).toBe(200);
    expect(del.body.data[0]).toMatchObject({ id: flex.id, deleted: true });
    expectWire('CustomAudience', del.body.data[0]);
    const again = await batch([{ operation_type: 'Delete', params: { custom_audience_id: flex.id } }]);
    expect(again.body.operation_errors[0][0].code).toBe('TAILORED_AUDIENCE_NOT_FOUND');
    const crm = await batch([{ operation_type: 'Delete', params: { custom_audience_id: small.id } }]);
    expect(crm.body.operation_errors[0][0].code).toBe('INVALID_TAILORED_AUDIENCE_TYPE');
  });
});
