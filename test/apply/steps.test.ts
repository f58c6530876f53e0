/**
 * The pure steps of an apply, on small tables: which operations of a step go and which are
 * skipped with why (`readyOperations`), the requests they go in (`chunksOf`), and how a `together`
 * group's outcomes are read (`readOutcomes`). The end-to-end tests drive the same steps through
 * `applyPlan` against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { chunksOf } from '../../src/apply/chunks.js';
import { readOutcomes } from '../../src/apply/outcomes.js';
import { readyOperations, type Readiness, type Sendable } from '../../src/apply/ready.js';
import type { Outcome } from '../../src/apply/send.js';
import type { Operation, Step } from '../../src/plan/types.js';
import type { AccountState } from '../../src/state/state-file.js';

const op = (address: string, extra: Partial<Operation> = {}): Operation => ({
  key: `${extra.action ?? 'create'}:${address}`,
  address,
  kind: 'targeting_criterion',
  action: 'create',
  params: {},
  after: [],
  ...extra,
});

const stateWith = (ids: Record<string, string>): AccountState => ({
  format_version: 1,
  account: 'acc',
  endpoint: 'http://localhost',
  serial: 0,
  resources: Object.fromEntries(Object.entries(ids).map(([address, id]) => [address, { kind: 'campaign', id, applied: {} }])),
});

const batchStep = (operations: Operation[], limit = 20): Step => ({ type: 'batch', kind: 'targeting_criterion', action: 'create', limit, operations });
const atomicStep = (operations: Operation[], limit = 20): Step => ({ type: 'atomic', kind: 'targeting_criterion', action: 'create', limit, operations });

const refused = (message: string): Outcome => ({
  status: 'failed',
  error: new ApiError({ status: 400, items: [{ code: 'INVALID', message }], retryable: false, outcome: 'rejected', request: 'batch' }),
});

describe('readyOperations', () => {
  const campaign = op('campaign.a', { kind: 'campaign' });
  const oldLine = op('line_item.b', { key: 'delete:line_item.b', kind: 'line_item', action: 'delete', id: 'L1' });
  const rows: Array<{ name: string; ops: Operation[]; readiness: Readiness; sent: Array<{ address: string; id?: string; params: Record<string, unknown> }>; skipped: string[] }> = [
    {
      name: 'an operation whose prerequisite failed is skipped, naming it',
      ops: [op('criterion.x', { after: [campaign.key] })],
      readiness: { planned: new Map([[campaign.key, campaign]]), succeeded: new Set(), state: stateWith({}) },
      sent: [],
      skipped: ['criterion.x: campaign.a was not created'],
    },
    {
      name: 'the create of a replace whose delete failed says the old object stays',
      ops: [op('line_item.b', { kind: 'line_item', after: [oldLine.key] })],
      readiness: { planned: new Map([[oldLine.key, oldLine]]), succeeded: new Set(), state: stateWith({}) },
      sent: [],
      skipped: ['line_item.b: the old object could not be deleted'],
    },
    {
      name: 'references are bound to the ids in state, with their prefix',
      ops: [op('criterion.x', { after: [campaign.key], params: { campaign_id: { $ref: 'campaign.a' }, card_uri: { $ref: 'campaign.a', prefix: 'card://' } } })],
      readiness: { planned: new Map([[campaign.key, campaign]]), succeeded: new Set([campaign.key]), state: stateWith({ 'campaign.a': 'C9' }) },
      sent: [{ address: 'criterion.x', params: { campaign_id: 'C9', card_uri: 'card://C9' } }],
      skipped: [],
    },
    {
      name: 'a reference to nothing bound is skipped, naming it',
      ops: [op('criterion.x', { params: { campaign_id: { $ref: 'campaign.a' } } })],
      readiness: { planned: new Map(), succeeded: new Set(), state: stateWith({}) },
      sent: [],
      skipped: ['criterion.x: campaign.a was not created'],
    },
    {
      name: 'an update of an object created earlier in the apply names the id bound then',
      ops: [op('campaign.a', { key: 'update:campaign.a', kind: 'campaign', action: 'update', phase: 'activate', params: { entity_status: 'ACTIVE' } })],
      readiness: { planned: new Map(), succeeded: new Set(), state: stateWith({ 'campaign.a': 'C9' }) },
      sent: [{ address: 'campaign.a', id: 'C9', params: { entity_status: 'ACTIVE' } }],
      skipped: [],
    },
    {
      name: 'a together group with a member that cannot go is held back whole, after the member',
      ops: [op('criterion.x', { together: 'line_item.l' }), op('criterion.y', { together: 'line_item.l', params: { v: { $ref: 'gone' } } }), op('criterion.z')],
      readiness: { planned: new Map(), succeeded: new Set(), state: stateWith({}) },
      sent: [{ address: 'criterion.z', params: {} }],
      skipped: ['criterion.y: gone was not created', 'criterion.x: it goes in one request with criterion.y: gone was not created'],
    },
  ];
  it.each(rows)('$name', ({ ops, readiness, sent, skipped }) => {
    const ready = readyOperations(batchStep(ops), readiness);
    expect(ready.sendable.map((s) => ({ address: s.op.address, ...(s.op.id === undefined ? {} : { id: s.op.id }), params: s.params }))).toEqual(sent);
    expect(ready.skipped.map((s) => `${s.op.address}: ${s.because}`)).toEqual(skipped);
  });
});

describe('chunksOf', () => {
  const sendable = (ops: Operation[]): Sendable[] => ops.map((o) => ({ op: o, params: { address: o.address } }));
  const addresses = (chunks: Sendable[][]): string[][] => chunks.map((c) => c.map((s) => s.op.address));

  it('cuts a batch step at its limit, in order', () => {
    expect(addresses(chunksOf(batchStep([op('a'), op('b'), op('c')], 2), sendable([op('a'), op('b'), op('c')])))).toEqual([['a', 'b'], ['c']]);
  });

  it('sends a single step one operation a request', () => {
    const step: Step = { type: 'single', kind: 'campaign', action: 'create', operations: [op('a'), op('b')] };
    expect(addresses(chunksOf(step, sendable(step.operations)))).toEqual([['a'], ['b']]);
  });

  it('packs an atomic step by whole groups, deletes first, keeping each operation its parameters', () => {
    const ops = [op('a', { together: 'g1' }), op('b', { together: 'g2' }), op('c', { together: 'g1', action: 'delete', key: 'delete:c' }), op('d', { together: 'g2' })];
    const chunks = chunksOf(atomicStep(ops, 3), sendable(ops));
    expect(addresses(chunks)).toEqual([['c', 'a'], ['b', 'd']]);
    for (const s of chunks.flat()) expect(s.params).toEqual({ address: s.op.address });
  });

  it('packs the mixable operations of an atomic step (no group) into the room the groups leave, up to the limit, deletes first', () => {
    const loose = (address: string, action: 'create' | 'delete'): Operation => op(address, { action, key: `${action}:${address}`, mixable: true });
    const ops = [loose('m1', 'create'), op('a', { together: 'g1' }), loose('m2', 'delete'), op('b', { together: 'g1' }), loose('m3', 'create'), loose('m4', 'delete'), loose('m5', 'create')];
    const chunks = chunksOf(atomicStep(ops, 3), sendable(ops));
    expect(addresses(chunks)).toEqual([['a', 'b', 'm1'], ['m2', 'm4', 'm3'], ['m5']]);
  });
});

describe('readOutcomes', () => {
  const ops = [op('a', { together: 'g' }), op('b', { together: 'g' }), op('c', { together: 'h' })];
  const answers: Outcome[] = [refused('bad value'), { status: 'retry' }, { status: 'retry' }];

  it('in an atomic step, fails a member refused only for its sibling, naming the sibling', () => {
    const read = readOutcomes(atomicStep(ops), ops, answers);
    expect(read[0]).toBe(answers[0]);
    expect(read[1]?.status === 'failed' && read[1].error.describe()).toContain('not applied: it goes in one request with a, which the service refused');
    expect(read[2]).toEqual({ status: 'retry' });
  });

  it('outside an atomic step, takes every answer as it came', () => {
    expect(readOutcomes(batchStep(ops), ops, answers)).toEqual(answers);
  });
});
