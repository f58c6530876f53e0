/**
 * The journal's outcomes replayed on a checkpoint (src/state/apply-journal.ts): only those above
 * the checkpoint's serial count, in order; compaction after a checkpoint keeps the open entries
 * and the outcomes the checkpoint lacks, so a reader still arrives at the same state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApplyJournal, loadState, noChanges, replayOutcomes } from '../../src/state/apply-journal.js';
import type { JournalDone } from '../../src/state/journal-record.js';
import { LocalStore } from '../../src/state/local-store.js';
import { emptyState, type AccountState, type StateResource } from '../../src/state/state-file.js';

const KEY = '18ce54d4x5t';
const bound = (id: string): StateResource => ({ kind: 'campaign', id, applied: { name: id } });
const stateAt = (serial: number, resources: Record<string, StateResource>): AccountState => ({ ...emptyState(KEY, 'local'), serial, resources });

describe('replayOutcomes', () => {
  it.each<{ name: string; state: AccountState; outcomes: JournalDone[]; resources: Record<string, StateResource>; serial: number; accountId?: string }>([
    { name: 'applies outcomes above the serial, in order', state: stateAt(3, {}), outcomes: [{ done: 1, serial: 4, set: { a: bound('1') } }, { done: 2, serial: 5, set: { a: bound('2'), b: bound('3') } }], resources: { a: bound('2'), b: bound('3') }, serial: 5 },
    { name: 'skips those the checkpoint holds', state: stateAt(5, { a: bound('9') }), outcomes: [{ done: 1, serial: 4, drop: ['a'] }, { done: 2, serial: 5, set: { a: bound('2') } }], resources: { a: bound('9') }, serial: 5 },
    { name: 'drops addresses', state: stateAt(1, { a: bound('1'), b: bound('2') }), outcomes: [{ done: 7, serial: 2, drop: ['a'] }], resources: { b: bound('2') }, serial: 2 },
    { name: 'ignores closings without an outcome', state: stateAt(1, {}), outcomes: [{ done: 7 }], resources: {}, serial: 1 },
    { name: 'binds the account id', state: stateAt(0, {}), outcomes: [{ done: 1, serial: 1, account_id: 'abc' }], resources: {}, serial: 1, accountId: 'abc' },
  ])('$name', ({ state, outcomes, resources, serial, accountId }) => {
    replayOutcomes(state, outcomes);
    expect(state.resources).toEqual(resources);
    expect(state.serial).toBe(serial);
    expect(state.account_id).toBe(accountId);
  });
});

describe('a journal compacted after a checkpoint', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'adsctl-apply-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the open entries and the outcomes after the checkpoint, and reads back as the state held', async () => {
    const store = new LocalStore(dir, dir);
    const state = stateAt(0, {});
    const journal = await ApplyJournal.open(store, state);
    const request = async (address: string): Promise<void> => {
      const seq = await journal.intend([{ address, kind: 'campaign', action: 'create', params: {} }], 1);
      state.resources[address] = bound(address);
      state.serial++;
      await journal.close(seq, state.serial, { ...noChanges(), set: { [address]: bound(address) } });
    };
    await request('a');
    await request('b');
    const inFlight = await journal.intend([{ address: 'c', kind: 'campaign', action: 'create', params: {} }], 2);
    await store.checkpoint(state, 'apply', false);
    await request('d');
    await journal.compact(2);
    const read = await store.readJournal(KEY);
    expect(read.open.map((i) => i.seq)).toEqual([inFlight]);
    expect(read.outcomes.map((o) => o.serial)).toEqual([3]);
    const loaded = await loadState(store, KEY, 'local');
    expect(typeof loaded === 'object' && loaded.state).toEqual(state);
  });
});
