/**
 * The contract of a state backend (src/state/store.ts), held by both: local files and a real
 * PostgreSQL server (test/support/postgres.ts). Serials, kept versions, push, the journal, the
 * lookup cache and locks behave the same whichever keeps the state.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ApplyJournal, loadState, noChanges } from '../../src/state/apply-journal.js';
import { journalPath } from '../../src/state/journal.js';
import { LocalStore } from '../../src/state/local-store.js';
import { PostgresStore } from '../../src/state/postgres/store.js';
import { emptyState, statePath, type AccountState } from '../../src/state/state-file.js';
import type { StateStore } from '../../src/state/store.js';
import { freshDatabase } from '../support/postgres.js';

const opened: StateStore[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const BACKENDS: Array<{ name: string; open: () => Promise<StateStore> }> = [
  {
    name: 'local files',
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'adsctl-contract-'));
      dirs.push(dir);
      return Promise.resolve(new LocalStore(join(dir, 'state'), join(dir, 'cache')));
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await freshDatabase('contract');
      const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl', sleep: () => Promise.resolve() });
      databases.set(store, url);
      return store;
    },
  },
];

/** The database of each PostgreSQL store opened, to damage it as a user or an operator could. */
const databases = new Map<StateStore, string>();

/** Runs `sql` on the database of a PostgreSQL store, or `local` on the state directory of local files. */
async function damage(store: StateStore, sql: string, local: (stateDir: string) => void): Promise<void> {
  const url = databases.get(store);
  if (url === undefined) return local((store as LocalStore).stateDir);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

async function storeOf(backend: (typeof BACKENDS)[number]): Promise<StateStore> {
  const store = await backend.open();
  opened.push(store);
  return store;
}

const withCampaign = (state: AccountState, id: string): AccountState => ({ ...state, resources: { ...state.resources, 'campaigns.c': { kind: 'campaign', id, applied: { name: `c ${id}` } } } });

describe.each(BACKENDS)('a state backend: $name', (backend) => {
  it('reads an account it has never seen as empty, and writes versions with serials', async () => {
    const store = await storeOf(backend);
    const first = await store.read('acme', 'local');
    expect(first).toEqual(emptyState('acme', 'local'));
    const state = withCampaign(first as AccountState, '1');
    await store.write(state, 'import');
    expect(state.serial).toBe(1);
    const next = withCampaign(state, '2');
    await store.write(next, 'apply');
    expect(next.serial).toBe(2);
    const read = (await store.read('acme', 'local')) as AccountState;
    expect(read.serial).toBe(2);
    expect(read.resources['campaigns.c']?.id).toBe('2');
    expect(await store.accounts()).toEqual(['acme']);
  });

  it('keeps a version for writes and final checkpoints, not for checkpoints along the way', async () => {
    const store = await storeOf(backend);
    const state = withCampaign(emptyState('acme', 'local'), '1');
    await store.write(state, 'import');
    state.serial = 5;
    await store.checkpoint(withCampaign(state, '5'), 'apply', false);
    state.serial = 7;
    await store.checkpoint(withCampaign(state, '7'), 'apply', true);
    const history = await store.history('acme');
    expect(history.map((v) => [v.serial, v.operation, v.resources])).toEqual([
      [7, 'apply', 1],
      [1, 'import', 1],
    ]);
    expect(history[0]?.written_by).toMatch(/@/);
    expect((await store.version('acme', 1))?.resources['campaigns.c']?.id).toBe('1');
    expect(await store.version('acme', 5)).toBeUndefined();
    expect(((await store.read('acme', 'local')) as AccountState).serial).toBe(7);
  });

  it('keeps versions carried from another backend with their time, writer and operation, in place of its own of the same serial', async () => {
    const store = await storeOf(backend);
    const state = withCampaign(emptyState('acme', 'local'), '3');
    await store.push({ ...state, serial: 3 }, false);
    await store.keepVersions('acme', [
      { serial: 3, written_at: '2026-11-20T10:00:00.000Z', written_by: 'ci@runner', operation: 'apply', state: { ...state, serial: 3 } },
      { serial: 2, written_at: '2026-11-19T10:00:00.000Z', written_by: 'ci@runner', operation: 'state rm', state: { ...withCampaign(state, '2'), serial: 2 } },
    ]);
    const history = await store.history('acme');
    expect(history.map((v) => [v.serial, v.operation, v.written_by])).toEqual([
      [3, 'apply', 'ci@runner'],
      [2, 'state rm', 'ci@runner'],
    ]);
    expect((await store.version('acme', 2))?.resources['campaigns.c']?.id).toBe('2');
  });

  it.each([
    { pushed: 3, force: false, outcome: 'refused' },
    { pushed: 4, force: false, outcome: 'refused' },
    { pushed: 5, force: false, outcome: 'pushed' },
    { pushed: 2, force: true, outcome: 'pushed' },
  ])('refuses a push of serial $pushed over serial 4 unless newer or forced (force: $force)', async ({ pushed, force, outcome }) => {
    const store = await storeOf(backend);
    const state = { ...withCampaign(emptyState('acme', 'local'), 'current'), serial: 3 };
    await store.write(state, 'apply');
    const result = await store.push({ ...withCampaign(emptyState('acme', 'local'), 'pushed'), serial: pushed }, force);
    expect(Object.keys(result)).toEqual([outcome]);
    if ('refused' in result) expect(result.refused).toContain(`is at serial 4, and the state pushed is at serial ${pushed}: it is not newer`);
    const now = (await store.read('acme', 'local')) as AccountState;
    expect(now.resources['campaigns.c']?.id).toBe(outcome === 'pushed' ? 'pushed' : 'current');
  });

  it('appends journal records in order, rewrites and clears them', async () => {
    const store = await storeOf(backend);
    const log = await store.openJournal('acme');
    expect(log.lastSeq).toBe(0);
    const op = { address: 'campaigns.c', kind: 'campaign', action: 'create' as const, params: { name: 'c' } };
    await log.append({ intent: { seq: 1, at: 10, operations: [op] } });
    await log.append({ done: 1, serial: 1, set: { 'campaigns.c': { kind: 'campaign', id: '9', applied: {} } } });
    await log.append({ intent: { seq: 2, at: 11, operations: [op] } });
    const read = await store.readJournal('acme');
    expect(read.open.map((i) => i.seq)).toEqual([2]);
    expect(read.outcomes).toEqual([{ done: 1, serial: 1, set: { 'campaigns.c': { kind: 'campaign', id: '9', applied: {} } } }]);
    expect(read.lastSeq).toBe(2);
    expect((await store.openJournal('acme')).lastSeq).toBe(2);
    await log.rewrite([{ intent: { seq: 2, at: 11, operations: [op] } }]);
    expect(await store.readJournal('acme')).toMatchObject({ open: [{ seq: 2 }], outcomes: [] });
    await store.clearJournal('acme');
    expect(await store.readJournal('acme')).toMatchObject({ open: [], outcomes: [], lastSeq: 0 });
  });

  it('begins a journal that names its checkpoint serial and counts its records: one cut off, or the checkpoint gone beside it, is refused', async () => {
    const store = await storeOf(backend);
    const state = withCampaign(emptyState('acme', 'local'), '1');
    await store.write(state, 'import');
    const journal = await ApplyJournal.open(store, state);
    const op = (address: string) => ({ address, kind: 'campaign', action: 'create' as const, params: { name: address } });
    const seq = await journal.intend([op('campaigns.d')], 10);
    const bound = { kind: 'campaign', id: '2', applied: {} };
    state.resources['campaigns.d'] = bound;
    state.serial++;
    await journal.close(seq, state.serial, { ...noChanges(), set: { 'campaigns.d': bound } });
    await journal.intend([op('campaigns.e')], 11);
    const loaded = await loadState(store, 'acme', 'local');
    if (typeof loaded === 'string') throw new Error(loaded);
    expect(loaded.journal.damage).toBeUndefined();
    expect(loaded.journal.head).toEqual({ journal: state.journal_id, base: 1 });
    expect(loaded.state).toEqual(state);

    await damage(store, "DELETE FROM adsctl.journal WHERE position = (SELECT max(position) FROM adsctl.journal)", (dir) => {
      const path = journalPath(dir, 'acme');
      writeFileSync(path, readFileSync(path, 'utf8').split(/(?<=\n)/).slice(0, -1).join(''));
    });
    const cut = await loadState(store, 'acme', 'local');
    expect(typeof cut === 'object' && cut.journal.damage?.problem).toContain('its end was cut off');

    await damage(store, 'DELETE FROM adsctl.states', (dir) => rmSync(statePath(dir, 'acme')));
    const gone = await store.read('acme', 'local');
    expect(gone).toContain('the checkpoint of account acme is missing, but its apply journal and the versions kept of it (the newest at serial 1) remain');
    expect(gone).toContain('adsctl state pull');
    expect(await store.accounts()).toEqual(['acme']);
  });

  it('keeps the lookup cache', async () => {
    const store = await storeOf(backend);
    expect(await store.readCache('lookups-local')).toBeUndefined();
    await store.writeCache('lookups-local', { bidding_rules: { fetched_at: 5, data: [{ currency: 'USD' }] } });
    expect(await store.readCache('lookups-local')).toEqual({ bidding_rules: { fetched_at: 5, data: [{ currency: 'USD' }] } });
  });

  it('locks an account: a second run is refused, naming the holder, until the first releases it', async () => {
    const store = await storeOf(backend);
    const first = await store.lock('acme', 'apply', 0);
    if ('heldBy' in first) throw new Error('not taken');
    const second = await store.lock('acme', 'plan', 0);
    expect(second).toMatchObject({ heldBy: { id: first.info.id, operation: 'apply', pid: process.pid } });
    expect((await store.lockHolder('acme'))?.id).toBe(first.info.id);
    const other = await store.lock('beta', 'apply', 0);
    expect('heldBy' in other).toBe(false);
    if (!('heldBy' in other)) await other.release();
    await first.release();
    expect(await store.lockHolder('acme')).toBeUndefined();
    const third = await store.lock('acme', 'plan', 0);
    expect('heldBy' in third).toBe(false);
    if (!('heldBy' in third)) await third.release();
  });

  it('removes an account: state, journal and versions', async () => {
    const store = await storeOf(backend);
    await store.write(withCampaign(emptyState('old', 'local'), '1'), 'apply');
    await (await store.openJournal('old')).append({ done: 1 });
    await store.remove('old');
    expect(await store.accounts()).toEqual([]);
    expect(await store.history('old')).toEqual([]);
    expect(await store.read('old', 'local')).toEqual(emptyState('old', 'local'));
  });

  it('names an account\'s state and journal for messages, and the live accounts other states bind', async () => {
    const store = await storeOf(backend);
    const local = databases.get(store) === undefined;
    const of = `of account acme in ${store.where}`;
    const stateDir = local ? (store as LocalStore).stateDir : '';
    expect(store.locate('acme')).toEqual(
      local ? { state: statePath(stateDir, 'acme'), journal: journalPath(stateDir, 'acme'), journalAlone: journalPath(stateDir, 'acme') } : { state: of, journal: of, journalAlone: `the journal ${of}` },
    );
    await store.write({ ...emptyState('a', 'local'), account_id: 'A1' }, 'import');
    await store.write({ ...emptyState('b', 'local'), account_id: 'B1' }, 'import');
    await store.write(emptyState('c', 'local'), 'import');
    expect([...(await store.otherBoundAccounts('c'))].sort()).toEqual(['A1', 'B1']);
  });
});
