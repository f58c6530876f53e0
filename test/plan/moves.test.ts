/**
 * The `moved` and `removed` entries as a transform of the state (src/plan/moves.ts), on small
 * in-memory states: a move takes everything under its source along and leaves look-alike
 * neighbours, a finished move or removal does nothing, a move onto a bound address is an error at
 * its entry and moves nothing, a removal forgets everything under it; the helpers apply and
 * `state mv` share (`addressMoves`, `takenDestination`, `moveEntries`, `removeEntries`) row by
 * row; and a moved audience hands its membership to the member-store move apply makes next.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRange } from '../../src/diag/source-range.js';
import { formatAddress } from '../../src/manifest/address.js';
import type { DesiredAccount } from '../../src/manifest/types.js';
import { membershipMoves } from '../../src/members/store-move.js';
import { addressMoves, moveEntries, refactorState, removeEntries, takenDestination, type PlannedMove, type PlannedRemoval } from '../../src/plan/moves.js';
import type { AccountState, StateResource } from '../../src/state/state-file.js';
import { ACCOUNT_ID, addr } from './builders.js';

const LI = 'campaigns.a.line_items.us';
const CRIT = `${LI}.targeting["BROAD_KEYWORD:sun"]`;
const POST = `${LI}.promoted_posts["1346184843436720128"]`;

/** A state binding each address text (written in its canonical form) to an id; `applied` holds the address, to follow the entry. */
function stateOf(bound: Record<string, string>): AccountState {
  const resources: Record<string, StateResource> = {};
  for (const [text, id] of Object.entries(bound)) {
    const address = addr(text);
    if (formatAddress(address) !== text) throw new Error(`test address ${text} is not canonical: ${formatAddress(address)}`);
    resources[text] = { kind: address.kind, id, applied: { was: text } };
  }
  return { format_version: 1, account: ACCOUNT_ID, endpoint: 'local', serial: 7, resources };
}

/** The state as `address → id (where the entry was bound before)`, in key order. */
const bindings = (state: AccountState): Record<string, string> =>
  Object.fromEntries(Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : 1)).map(([text, e]) => [text, e.applied['was'] === text ? e.id : `${e.id} (from ${String(e.applied['was'])})`]));

/** The range of the entry on `line` of m.yaml. */
const at = (line: number): SourceRange => ({ file: 'm.yaml', start: { line, column: 5, offset: line * 10 }, end: { line, column: 40, offset: line * 10 + 35 } });

/** An account whose manifest has these entries, one a line from line 20 (moves, then removals, then imports). */
function desired(entries: { moved?: Array<[string, string]>; removed?: string[]; imports?: Array<[string, string]> }): DesiredAccount {
  let line = 20;
  const moved = (entries.moved ?? []).map(([from, to]) => ({ from: addr(from), to: addr(to), source: at(line++) }));
  const removed = (entries.removed ?? []).map((from) => ({ from: addr(from), source: at(line++) }));
  const imports = (entries.imports ?? []).map(([address, id]) => ({ address: addr(address), id, source: at(line++) }));
  return {
    file: 'm.yaml',
    key: ACCOUNT_ID,
    resources: [],
    ...(moved.length === 0 ? {} : { moved }),
    ...(removed.length === 0 ? {} : { removed }),
    ...(imports.length === 0 ? {} : { imports }),
  };
}

const TREE = { 'campaigns.a': 'c1', [LI]: 'l1', [CRIT]: 't1', [POST]: 'p1', 'campaigns.ab': 'c9', 'campaigns.keep': 'k1' };

describe('refactorState', () => {
  const rows: Array<{
    name: string;
    state: Record<string, string>;
    entries: Parameters<typeof desired>[0];
    after: Record<string, string>;
    moves?: PlannedMove[];
    removals?: PlannedRemoval[];
    diagnostics?: string[];
  }> = [
    {
      name: 'a move takes the line item, its targeting and its promoted post along, and leaves campaigns.ab',
      state: TREE,
      entries: { moved: [['campaigns.a', 'campaigns.b']] },
      after: {
        'campaigns.ab': 'c9',
        'campaigns.b': 'c1 (from campaigns.a)',
        'campaigns.b.line_items.us': `l1 (from ${LI})`,
        'campaigns.b.line_items.us.promoted_posts["1346184843436720128"]': `p1 (from ${POST})`,
        'campaigns.b.line_items.us.targeting["BROAD_KEYWORD:sun"]': `t1 (from ${CRIT})`,
        'campaigns.keep': 'k1',
      },
      moves: [{ from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 4 }],
    },
    {
      name: 'a move of one line item to another campaign takes its children, not its siblings',
      state: { ...TREE, 'campaigns.a.line_items.us2': 'l2' },
      entries: { moved: [[LI, 'campaigns.keep.line_items.eu']] },
      after: {
        'campaigns.a': 'c1',
        'campaigns.a.line_items.us2': 'l2',
        'campaigns.ab': 'c9',
        'campaigns.keep': 'k1',
        'campaigns.keep.line_items.eu': `l1 (from ${LI})`,
        'campaigns.keep.line_items.eu.promoted_posts["1346184843436720128"]': `p1 (from ${POST})`,
        'campaigns.keep.line_items.eu.targeting["BROAD_KEYWORD:sun"]': `t1 (from ${CRIT})`,
      },
      moves: [{ from: LI, to: 'campaigns.keep.line_items.eu', kind: 'line_item', id: 'l1', count: 3 }],
    },
    {
      name: 'a finished move (nothing at from, to bound) is harmless',
      state: { 'campaigns.b': 'c1', 'campaigns.b.line_items.us': 'l1' },
      entries: { moved: [['campaigns.a', 'campaigns.b']] },
      after: { 'campaigns.b': 'c1', 'campaigns.b.line_items.us': 'l1' },
    },
    {
      name: 'a move onto a bound address is an error at its entry, and moves nothing',
      state: TREE,
      entries: { moved: [['campaigns.a', 'campaigns.keep']] },
      after: TREE,
      diagnostics: ['error move-onto-bound m.yaml:20:5: campaigns.a cannot move to campaigns.keep: campaigns.keep is already bound to campaign k1; remove this entry, or the binding of campaigns.keep first (adsctl state rm)'],
    },
    {
      name: 'a move whose destination is free but a child of it bound is an error naming the child',
      state: { 'campaigns.a': 'c1', [LI]: 'l1', 'campaigns.b.line_items.us': 'l2' },
      entries: { moved: [['campaigns.a', 'campaigns.b']] },
      after: { 'campaigns.a': 'c1', [LI]: 'l1', 'campaigns.b.line_items.us': 'l2' },
      diagnostics: ['error move-onto-bound m.yaml:20:5: campaigns.a cannot move to campaigns.b: campaigns.b.line_items.us is already bound to line item l2; remove this entry, or the binding of campaigns.b.line_items.us first (adsctl state rm)'],
    },
    {
      name: 'a refused move leaves the next entry free to move',
      state: TREE,
      entries: { moved: [['campaigns.a', 'campaigns.keep'], ['campaigns.ab', 'campaigns.z']] },
      after: { 'campaigns.a': 'c1', [LI]: 'l1', [CRIT]: 't1', [POST]: 'p1', 'campaigns.keep': 'k1', 'campaigns.z': 'c9 (from campaigns.ab)' },
      moves: [{ from: 'campaigns.ab', to: 'campaigns.z', kind: 'campaign', id: 'c9', count: 1 }],
      diagnostics: ['error move-onto-bound m.yaml:20:5: campaigns.a cannot move to campaigns.keep: campaigns.keep is already bound to campaign k1; remove this entry, or the binding of campaigns.keep first (adsctl state rm)'],
    },
    {
      name: 'a chain in file order lands at its end',
      state: { 'campaigns.a': 'c1', [LI]: 'l1' },
      entries: { moved: [['campaigns.a', 'campaigns.b'], ['campaigns.b', 'campaigns.c']] },
      after: { 'campaigns.c': 'c1 (from campaigns.a)', 'campaigns.c.line_items.us': `l1 (from ${LI})` },
      moves: [
        { from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 2 },
        { from: 'campaigns.b', to: 'campaigns.c', kind: 'campaign', id: 'c1', count: 2 },
      ],
    },
    {
      name: 'a chain written backwards lands at its end too, the moves made in the order they chain',
      state: { 'campaigns.a': 'c1', [LI]: 'l1' },
      entries: { moved: [['campaigns.b', 'campaigns.c'], ['campaigns.a', 'campaigns.b']] },
      after: { 'campaigns.c': 'c1 (from campaigns.a)', 'campaigns.c.line_items.us': `l1 (from ${LI})` },
      moves: [
        { from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 2 },
        { from: 'campaigns.b', to: 'campaigns.c', kind: 'campaign', id: 'c1', count: 2 },
      ],
    },
    {
      name: 'a line item moved out of a campaign that is renamed, written before the rename, follows it',
      state: { 'campaigns.a': 'c1', [LI]: 'l1', 'campaigns.keep': 'k1' },
      entries: { moved: [['campaigns.b.line_items.us', 'campaigns.keep.line_items.us'], ['campaigns.a', 'campaigns.b']] },
      after: { 'campaigns.b': 'c1 (from campaigns.a)', 'campaigns.keep': 'k1', 'campaigns.keep.line_items.us': `l1 (from ${LI})` },
      moves: [
        { from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 2 },
        { from: 'campaigns.b.line_items.us', to: 'campaigns.keep.line_items.us', kind: 'line_item', id: 'l1', count: 1 },
      ],
    },
    {
      name: 'two bound sources onto one destination: the second is refused, the first made',
      state: { 'campaigns.a': 'c1', 'campaigns.b': 'c2' },
      entries: { moved: [['campaigns.a', 'campaigns.c'], ['campaigns.b', 'campaigns.c']] },
      after: { 'campaigns.b': 'c2', 'campaigns.c': 'c1 (from campaigns.a)' },
      moves: [{ from: 'campaigns.a', to: 'campaigns.c', kind: 'campaign', id: 'c1', count: 1 }],
      diagnostics: ['error move-onto-bound m.yaml:21:5: campaigns.b cannot move to campaigns.c: campaigns.c is already bound to campaign c1; remove this entry, or the binding of campaigns.c first (adsctl state rm)'],
    },
    {
      name: 'a move whose source binds only children carries no id',
      state: { [LI]: 'l1' },
      entries: { moved: [['campaigns.a', 'campaigns.b']] },
      after: { 'campaigns.b.line_items.us': `l1 (from ${LI})` },
      moves: [{ from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', count: 1 }],
    },
    {
      name: 'a removal forgets the campaign and everything under it, and leaves campaigns.ab',
      state: TREE,
      entries: { removed: ['campaigns.a'] },
      after: { 'campaigns.ab': 'c9', 'campaigns.keep': 'k1' },
      removals: [{ address: 'campaigns.a', kind: 'campaign', id: 'c1', count: 4 }],
    },
    {
      name: 'a removal of one targeting criterion forgets it alone',
      state: TREE,
      entries: { removed: [CRIT] },
      after: { 'campaigns.a': 'c1', [LI]: 'l1', [POST]: 'p1', 'campaigns.ab': 'c9', 'campaigns.keep': 'k1' },
      removals: [{ address: CRIT, kind: 'targeting_criterion', id: 't1', count: 1 }],
    },
    {
      name: 'a removal of an address the state does not bind is harmless',
      state: TREE,
      entries: { removed: ['campaigns.gone'] },
      after: TREE,
    },
    {
      name: 'a removal whose address binds only children carries no id',
      state: { [LI]: 'l1', [CRIT]: 't1' },
      entries: { removed: ['campaigns.a'] },
      after: {},
      removals: [{ address: 'campaigns.a', kind: 'campaign', count: 2 }],
    },
    {
      name: 'moves are made before removals: a removal of a moved source finds nothing',
      state: { 'campaigns.a': 'c1' },
      entries: { moved: [['campaigns.a', 'campaigns.b']], removed: ['campaigns.a'] },
      after: { 'campaigns.b': 'c1 (from campaigns.a)' },
      moves: [{ from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 1 }],
    },
    {
      name: 'a moved audience takes its membership and its permissions along',
      state: { 'custom_audiences.fans': 'ca1', 'custom_audiences.fans.users': 'ca1', 'custom_audiences.fans.permissions["2iqph"]': 'gp1', 'custom_audiences.fansy': 'ca2' },
      entries: { moved: [['custom_audiences.fans', 'custom_audiences.friends']] },
      after: {
        'custom_audiences.fansy': 'ca2',
        'custom_audiences.friends': 'ca1 (from custom_audiences.fans)',
        'custom_audiences.friends.permissions["2iqph"]': 'gp1 (from custom_audiences.fans.permissions["2iqph"])',
        'custom_audiences.friends.users': 'ca1 (from custom_audiences.fans.users)',
      },
      moves: [{ from: 'custom_audiences.fans', to: 'custom_audiences.friends', kind: 'custom_audience', id: 'ca1', count: 3 }],
    },
    {
      name: 'an import whose resource is bound to its id is done, as a warning; one bound elsewhere or not at all says nothing',
      state: { 'campaigns.a': 'c1', 'campaigns.b': 'c2' },
      entries: { imports: [['campaigns.a', 'c1'], ['campaigns.b', 'other'], ['campaigns.c', 'c3']] },
      after: { 'campaigns.a': 'c1', 'campaigns.b': 'c2' },
      diagnostics: ['warning import-done m.yaml:20:5: campaigns.a is already bound to id c1: this import entry has nothing left to do, and may be removed'],
    },
    {
      name: 'an import is judged against the moved state',
      state: { 'campaigns.a': 'c1' },
      entries: { moved: [['campaigns.a', 'campaigns.b']], imports: [['campaigns.b', 'c1']] },
      after: { 'campaigns.b': 'c1 (from campaigns.a)' },
      moves: [{ from: 'campaigns.a', to: 'campaigns.b', kind: 'campaign', id: 'c1', count: 1 }],
      diagnostics: ['warning import-done m.yaml:21:5: campaigns.b is already bound to id c1: this import entry has nothing left to do, and may be removed'],
    },
  ];

  it.each(rows)('$name', ({ state, entries, after, moves = [], removals = [], diagnostics = [] }) => {
    const input = stateOf(state);
    const result = refactorState(desired(entries), input);
    expect(bindings(result.state)).toEqual(after);
    expect(result.moves).toStrictEqual(moves);
    expect(result.removals).toStrictEqual(removals);
    expect(result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.range?.file}:${d.range?.start.line}:${d.range?.start.column}: ${d.message}`)).toEqual(diagnostics);
    expect(bindings(input)).toEqual(bindings(stateOf(state)));
  });

  it('works on a copy when there are entries, and hands the state back untouched when there are none', () => {
    const state = stateOf(TREE);
    const moved = refactorState(desired({ moved: [['campaigns.a', 'campaigns.b']] }), state);
    expect(moved.state).not.toBe(state);
    expect(moved.state.serial).toBe(7);
    expect(moved.state.resources['campaigns.b']).toBe(state.resources['campaigns.a']);
    expect(Object.keys(state.resources)).toEqual(Object.keys(TREE));
    expect(refactorState(desired({}), state).state).toBe(state);
    expect(refactorState(undefined, state)).toEqual({ state, moves: [], removals: [], diagnostics: [] });
  });
});

describe('addressMoves', () => {
  const rows: Array<{ name: string; from: string; to: string; pairs: Array<[string, string]> }> = [
    {
      name: 'a campaign and everything under it, in state order, not campaigns.ab',
      from: 'campaigns.a',
      to: 'campaigns.b',
      pairs: [
        ['campaigns.a', 'campaigns.b'],
        [LI, 'campaigns.b.line_items.us'],
        [CRIT, 'campaigns.b.line_items.us.targeting["BROAD_KEYWORD:sun"]'],
        [POST, 'campaigns.b.line_items.us.promoted_posts["1346184843436720128"]'],
      ],
    },
    {
      name: 'a line item to a key that needs quoting, under another campaign',
      from: LI,
      to: 'campaigns.keep.line_items["u s"]',
      pairs: [
        [LI, 'campaigns.keep.line_items["u s"]'],
        [CRIT, 'campaigns.keep.line_items["u s"].targeting["BROAD_KEYWORD:sun"]'],
        [POST, 'campaigns.keep.line_items["u s"].promoted_posts["1346184843436720128"]'],
      ],
    },
    { name: 'a bracketed leaf alone', from: CRIT, to: `${LI}.targeting["BROAD_KEYWORD:moon"]`, pairs: [[CRIT, `${LI}.targeting["BROAD_KEYWORD:moon"]`]] },
    { name: 'nothing for an address the state does not bind', from: 'campaigns.x', to: 'campaigns.y', pairs: [] },
    { name: 'nothing for a prefix of a bound name', from: 'campaigns.k', to: 'campaigns.y', pairs: [] },
  ];

  it.each(rows)('$name', ({ from, to, pairs }) => {
    expect(addressMoves(stateOf(TREE), addr(from), addr(to))).toEqual(pairs);
  });
});

describe('takenDestination', () => {
  const rows: Array<{ name: string; moves: Array<[string, string]>; taken: string | undefined }> = [
    { name: 'free destinations', moves: [['campaigns.a', 'campaigns.b'], [LI, 'campaigns.b.line_items.us']], taken: undefined },
    { name: 'a bound destination', moves: [['campaigns.a', 'campaigns.keep']], taken: 'campaigns.keep' },
    { name: 'the first bound one, in move order', moves: [['campaigns.a', 'campaigns.x'], [LI, 'campaigns.ab'], [CRIT, 'campaigns.keep']], taken: 'campaigns.ab' },
    { name: 'a destination bound by an entry that moves itself is free', moves: [['campaigns.keep', 'campaigns.z'], ['campaigns.ab', 'campaigns.keep']], taken: undefined },
  ];

  it.each(rows)('$name', ({ moves, taken }) => {
    expect(takenDestination(stateOf(TREE), moves)).toBe(taken);
  });
});

describe('moveEntries', () => {
  it('renames each entry, skips a source the state does not bind, and returns the entries moved', () => {
    const state = stateOf({ 'campaigns.a': 'c1', [LI]: 'l1' });
    const entry = state.resources['campaigns.a'];
    const moved = moveEntries(state, [['campaigns.a', 'campaigns.b'], ['campaigns.nothing', 'campaigns.n'], [LI, 'campaigns.b.line_items.us']]);
    expect(moved.map(([from, to, e]) => [from, to, e.id])).toEqual([['campaigns.a', 'campaigns.b', 'c1'], [LI, 'campaigns.b.line_items.us', 'l1']]);
    expect(moved[0]?.[2]).toBe(entry);
    expect(bindings(state)).toEqual({ 'campaigns.b': 'c1 (from campaigns.a)', 'campaigns.b.line_items.us': `l1 (from ${LI})` });
  });

  it('removes every source before binding a destination, so a swap and a shift through a moving address hold', () => {
    const swap = stateOf({ 'campaigns.a': 'c1', 'campaigns.b': 'c2' });
    moveEntries(swap, [['campaigns.a', 'campaigns.b'], ['campaigns.b', 'campaigns.a']]);
    expect(bindings(swap)).toEqual({ 'campaigns.a': 'c2 (from campaigns.b)', 'campaigns.b': 'c1 (from campaigns.a)' });
    const shift = stateOf({ 'campaigns.a': 'c1', 'campaigns.b': 'c2' });
    moveEntries(shift, [['campaigns.a', 'campaigns.b'], ['campaigns.b', 'campaigns.c']]);
    expect(bindings(shift)).toEqual({ 'campaigns.b': 'c1 (from campaigns.a)', 'campaigns.c': 'c2 (from campaigns.b)' });
  });

  it('gives apply the moved audience membership, the one member store to move with it', () => {
    const state = stateOf({ 'custom_audiences.fans': 'ca1', 'custom_audiences.fans.users': 'ca1', 'custom_audiences.fans.permissions["2iqph"]': 'gp1' });
    const users = state.resources['custom_audiences.fans.users'];
    if (users !== undefined) users.applied['members'] = { hash: 'h1' };
    const moved = moveEntries(state, addressMoves(state, addr('custom_audiences.fans'), addr('custom_audiences.friends')));
    expect(membershipMoves(moved)).toEqual([{ from: 'custom_audiences.fans.users', to: 'custom_audiences.friends.users', id: 'ca1', hash: 'h1' }]);
  });
});

describe('removeEntries', () => {
  const rows: Array<{ name: string; address: string; count: number; left: string[] }> = [
    { name: 'a campaign and everything under it, not campaigns.ab', address: 'campaigns.a', count: 4, left: ['campaigns.ab', 'campaigns.keep'] },
    { name: 'a line item and its children', address: LI, count: 3, left: ['campaigns.a', 'campaigns.ab', 'campaigns.keep'] },
    { name: 'a bracketed leaf', address: POST, count: 1, left: ['campaigns.a', LI, CRIT, 'campaigns.ab', 'campaigns.keep'] },
    { name: 'nothing for an unbound address', address: 'campaigns.gone', count: 0, left: Object.keys(TREE) },
    { name: 'nothing for a prefix of a bound name', address: 'campaigns.ke', count: 0, left: Object.keys(TREE) },
  ];

  it.each(rows)('$name', ({ address, count, left }) => {
    const state = stateOf(TREE);
    expect(removeEntries(state, address)).toBe(count);
    expect(Object.keys(state.resources)).toEqual(left);
  });
});
