/**
 * Issue 23: what `apply --refresh-only` writes into an account's state (`acceptLive`), table by
 * table: the live value of each drifted attribute becomes its value last applied, an object
 * deleted outside adsctl leaves the state with what is under it, a member added by hand is bound
 * with its live values, and the unmanaged objects seen become the ones seen now; nothing to write
 * when nothing drifted, and under `--target` the unmanaged objects are left as recorded.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { UnmanagedObject } from '../../src/diff/unmanaged.js';
import { acceptedScope, acceptLive } from '../../src/engine/accept-live.js';
import type { AccountPlan } from '../../src/plan/types.js';
import type { AccountState, StateResource } from '../../src/state/state-file.js';
import { accountPlan, attr, change, plan } from '../render/plan-builder.js';

const campaign = (id: string, applied: Record<string, unknown>): StateResource => ({ kind: 'campaign', id, applied });
const lineItem = (id: string, applied: Record<string, unknown> = { name: 'US' }): StateResource => ({ kind: 'line_item', id, applied });

/** The state every row starts from: a campaign with two line items, one with a criterion, and one unmanaged campaign seen. */
function startState(): AccountState {
  return {
    format_version: 1,
    account: 'acct',
    account_id: '18ce54d4x5t',
    endpoint: 'local',
    serial: 4,
    unmanaged_seen: { campaign: ['old-hand'] },
    resources: {
      'campaigns.a': { ...campaign('c1', { name: 'A', daily_budget_amount_local_micro: 10_000_000, entity_status: 'PAUSED' }), created: true },
      'campaigns.a.line_items.us': lineItem('l1'),
      'campaigns.a.line_items.us.targeting["AGE:AGE_25_TO_49"]': { kind: 'targeting_criterion', id: 't1', applied: { targeting_type: 'AGE', targeting_value: 'AGE_25_TO_49' } },
      'campaigns.a.line_items.usa': lineItem('l3', { name: 'USA' }),
      'campaigns.gone': campaign('c2', { name: 'Gone' }),
    },
  };
}

const unmanaged = (id: string, isNew: boolean): UnmanagedObject => ({ kind: 'campaign', id, name: id, status: 'PAUSED', parentId: null, parentAddress: null, dailyBudgetMicros: 1_000_000, serves: false, currency: 'USD', new: isNew });

const budgetDrift = (): ResourceChange =>
  change('campaigns.a', 'update', { id: 'c1', changes: [attr('daily_budget_amount_local_micro', 7_000_000, 10_000_000, { drift: true }), attr('name', 'A', 'A renamed')] }, { entity_status: 'PAUSED' });

interface Row {
  name: string;
  changes: ResourceChange[];
  unmanaged?: UnmanagedObject[];
  targeted?: boolean;
  /** undefined: nothing to write. */
  expected?: {
    accepted: string[];
    forgotten: string[];
    bound: string[];
    seen: number;
    /** The resources that differ from the start, by address (undefined: gone). */
    resources: Record<string, StateResource | undefined>;
    unmanagedSeen: Record<string, string[]> | undefined;
  };
}

/** The state entry of campaigns.a once `budgetDrift`'s live budget is accepted. */
const BUDGET_ACCEPTED = { ...campaign('c1', { name: 'A', daily_budget_amount_local_micro: 7_000_000, entity_status: 'PAUSED' }), created: true };

const ROWS: Row[] = [
  { name: 'a manifest edit is no drift: nothing to write', changes: [change('campaigns.a', 'update', { id: 'c1', changes: [attr('name', 'A', 'A renamed')] })] },
  { name: 'unmanaged objects seen before are no drift', changes: [], unmanaged: [unmanaged('old-hand', false)] },
  {
    name: 'a drifted attribute takes its live value; a manifest edit of the same object is left to the plan',
    changes: [budgetDrift()],
    expected: {
      accepted: ['campaigns.a'],
      forgotten: [],
      bound: [],
      seen: 0,
      resources: { 'campaigns.a': BUDGET_ACCEPTED },
      unmanagedSeen: { campaign: ['old-hand'] },
    },
  },
  {
    name: 'an object deleted outside adsctl leaves the state with what is under it, not its namesakes',
    changes: [change('campaigns.a.line_items.us', 'create', { reason: 'deleted_outside', drift: true, after: { name: 'US' } })],
    expected: {
      accepted: [],
      forgotten: ['campaigns.a.line_items.us', 'campaigns.a.line_items.us.targeting["AGE:AGE_25_TO_49"]'],
      bound: [],
      seen: 0,
      resources: { 'campaigns.a.line_items.us': undefined, 'campaigns.a.line_items.us.targeting["AGE:AGE_25_TO_49"]': undefined },
      unmanagedSeen: { campaign: ['old-hand'] },
    },
  },
  {
    name: 'an object only in state, deleted outside adsctl, is forgotten',
    changes: [change('campaigns.gone', 'noop', { id: 'c2', reason: 'deleted_outside', drift: true, before: null, after: null })],
    expected: { accepted: [], forgotten: ['campaigns.gone'], bound: [], seen: 0, resources: { 'campaigns.gone': undefined }, unmanagedSeen: { campaign: ['old-hand'] } },
  },
  {
    name: 'a member added by hand is bound with its live values',
    changes: [
      change('campaigns.a.line_items.us.targeting["LOCATION:abc"]', 'delete', {
        id: 't9',
        reason: 'added_outside',
        before: { targeting_type: 'LOCATION', targeting_value: 'abc' },
        changes: [attr('targeting_type', 'LOCATION', undefined, { drift: true }), attr('targeting_value', 'abc', undefined, { drift: true })],
      }),
    ],
    expected: {
      accepted: [],
      forgotten: [],
      bound: ['campaigns.a.line_items.us.targeting["LOCATION:abc"]'],
      seen: 0,
      resources: { 'campaigns.a.line_items.us.targeting["LOCATION:abc"]': { kind: 'targeting_criterion', id: 't9', applied: { targeting_type: 'LOCATION', targeting_value: 'abc' } } },
      unmanagedSeen: { campaign: ['old-hand'] },
    },
  },
  {
    name: 'unmanaged objects: the ones seen now replace the record (one gone from live drops out)',
    changes: [],
    unmanaged: [unmanaged('new-hand', true), unmanaged('another', true)],
    expected: { accepted: [], forgotten: [], bound: [], seen: 2, resources: {}, unmanagedSeen: { campaign: ['another', 'new-hand'] } },
  },
  {
    name: 'drift elsewhere also records the unmanaged objects listed now',
    changes: [budgetDrift()],
    unmanaged: [unmanaged('old-hand', false), unmanaged('new-hand', true)],
    expected: {
      accepted: ['campaigns.a'],
      forgotten: [],
      bound: [],
      seen: 1,
      resources: { 'campaigns.a': BUDGET_ACCEPTED },
      unmanagedSeen: { campaign: ['new-hand', 'old-hand'] },
    },
  },
  { name: 'under --target, new unmanaged objects alone are nothing to write', changes: [], unmanaged: [unmanaged('new-hand', true)], targeted: true },
  {
    name: 'under --target, the targeted drift is accepted and the unmanaged record kept',
    changes: [budgetDrift()],
    unmanaged: [unmanaged('new-hand', true)],
    targeted: true,
    expected: {
      accepted: ['campaigns.a'],
      forgotten: [],
      bound: [],
      seen: 0,
      resources: { 'campaigns.a': BUDGET_ACCEPTED },
      unmanagedSeen: { campaign: ['old-hand'] },
    },
  },
];

/** When the acceptance is recorded. */
const AT = '2026-11-23T12:00:00.000Z';

function accountOf(row: Row): AccountPlan {
  const account = accountPlan(row.changes);
  return row.unmanaged === undefined ? account : { ...account, unmanaged: row.unmanaged };
}

describe('acceptLive', () => {
  it.each(ROWS)('$name', (row) => {
    const state = startState();
    const untouched = JSON.stringify(state);
    const got = acceptLive(accountOf(row), state, { targeted: row.targeted === true }, AT);
    // the state given is never changed: the acceptance is a copy
    expect(JSON.stringify(state)).toBe(untouched);
    if (row.expected === undefined) {
      expect(got).toBeUndefined();
      return;
    }
    expect(got).toBeDefined();
    const { accepted, forgotten, bound, seen } = got!;
    expect({ accepted, forgotten, bound, seen }).toEqual({ accepted: row.expected.accepted, forgotten: row.expected.forgotten, bound: row.expected.bound, seen: row.expected.seen });
    const expectedResources: Record<string, StateResource> = { ...startState().resources };
    for (const [address, entry] of Object.entries(row.expected.resources)) {
      if (entry === undefined) delete expectedResources[address];
      // what is accepted or bound is recorded at the acceptance: its history counts from then
      else expectedResources[address] = [...row.expected.accepted, ...row.expected.bound].includes(address) ? { ...entry, recorded_at: AT } : entry;
    }
    expect(got!.state.resources).toEqual(expectedResources);
    expect(got!.state.unmanaged_seen).toEqual(row.expected.unmanagedSeen);
    // the serial is the store's to bump when it writes
    expect(got!.state.serial).toBe(4);
  });
});

describe('acceptedScope', () => {
  it.each<[string, boolean, boolean]>([
    ['keeps the unmanaged objects of a whole run', false, true],
    ['leaves them out under --target', true, false],
  ])('%s', (_, targeted, kept) => {
    const p = plan([{ ...accountPlan([budgetDrift()]), unmanaged: [unmanaged('new-hand', true)] }]);
    expect(acceptedScope(p, { targeted }).accounts[0]?.unmanaged !== undefined).toBe(kept);
    expect(acceptedScope(p, { targeted }).accounts[0]?.changes).toEqual(p.accounts[0]?.changes);
  });
});
