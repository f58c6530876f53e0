/**
 * Durability in O(1) per request (src/apply/apply.ts, src/state/apply-journal.ts): every request's
 * outcome is one durable journal append; the state is checkpointed only every few seconds of the
 * injected clock and at the end. What a run left — a checkpoint and outcomes after it — reads back
 * as exactly the state the run held, whatever point it died at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdsApi } from '../../src/api/ads-api.js';
import { ApiClient } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { applyPlan } from '../../src/apply/apply.js';
import { planAccounts } from '../../src/engine/plan-accounts.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import type { AccountPlan } from '../../src/plan/types.js';
import { loadState } from '../../src/state/apply-journal.js';
import type { JournalRecord } from '../../src/state/journal-record.js';
import { LocalStore } from '../../src/state/local-store.js';
import { emptyState, type AccountState } from '../../src/state/state-file.js';
import type { JournalLog } from '../../src/state/store.js';
import { emulatorLookups } from '../golden/plan/harness.js';
import { pipelineAccount } from '../golden/plan/pipeline.js';
import { fleetManifest, type Fleet } from '../support/fleet.js';
import { testClock } from '../support/test-clock.js';
import { testNow } from '../support/test-clock.js';

const ACCOUNT = '18ce54d4x5t';

/** Local files, counting what is written: checkpoints, and journal records by type. */
class CountingStore extends LocalStore {
  checkpoints: Array<{ serial: number; final: boolean }> = [];
  records: JournalRecord[] = [];
  /** Throws at the final checkpoint: the process dies before the end of the apply. */
  dieAtEnd = false;

  override checkpoint(state: AccountState, operation: string, final: boolean): Promise<void> {
    if (final && this.dieAtEnd) throw new Error('killed');
    this.checkpoints.push({ serial: state.serial, final });
    return super.checkpoint(state, operation, final);
  }

  override async openJournal(key: string): Promise<JournalLog> {
    const log = await super.openJournal(key);
    const records = this.records;
    return {
      get lastSeq() {
        return log.lastSeq;
      },
      get head() {
        return log.head;
      },
      begin: (head) => log.begin(head),
      append: (record) => {
        records.push(record);
        return log.append(record);
      },
      rewrite: (kept, base) => log.rewrite(kept, base),
    };
  }
}

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
const dirs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, rateLimitScale: 0, log: () => {} });
  const { info } = emulator;
  client = new ApiClient({
    endpoint: emulatorEndpoint('local', info.base_url),
    credentials: { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret },
    parallelism: 4,
    now: testNow,
  });
  api = new AdsApi(client);
});
afterAll(async () => {
  await client.close();
  await emulator.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The plan of a fleet of `campaigns` campaigns (each with 2 line items, 2 keywords and 2 posts each). */
async function planFleet(prefix: string, campaigns: number, state: AccountState): Promise<AccountPlan> {
  const fleet: Fleet = { prefix, campaigns, lineItems: 2, keywords: 2, posts: 2 };
  const loaded = loadManifestSources([{ file: 'fleet.yaml', text: fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet) }]);
  const desired = loaded.value!.accounts[0]!;
  const plan = await planAccounts([pipelineAccount(desired, state, api, () => client.counts.reads)], { mode: 'plan', targets: [], lookups: () => Promise.resolve(emulatorLookups(ACCOUNT)) });
  return plan.accounts[0]!;
}

function workspace(): { stateDir: string; store: CountingStore; state: AccountState } {
  const stateDir = mkdtempSync(join(tmpdir(), 'adsctl-durability-'));
  dirs.push(stateDir);
  return { stateDir, store: new CountingStore(stateDir, stateDir), state: { ...emptyState(ACCOUNT, 'local'), account_id: ACCOUNT } };
}

/** A clock that moves on `step` ms every time it is read. */
const ticking = (step: number): (() => number) => {
  let t = 1_800_000_000_000;
  return () => (t += step);
};

describe('an apply', () => {
  it.each([
    { name: 'a slow run (a checkpoint every few requests)', step: 1_000, every: 5_000 },
    { name: 'a fast run (one checkpoint, at the end)', step: 1, every: 5_000 },
  ])('journals one outcome per request and checkpoints by the clock: $name', async ({ step, every }) => {
    const { stateDir, store, state } = workspace();
    const plan = await planFleet(`Durable ${step}`, 12, state);
    const result = await applyPlan({ plan, api, accountId: ACCOUNT, state, store, stateDir, parallelism: 1, now: ticking(step), checkpointEveryMs: every });
    expect(result.errors).toEqual([]);
    const intents = store.records.filter((r) => 'intent' in r).length;
    const outcomes = store.records.filter((r) => 'done' in r && r.serial !== undefined).length;
    expect(intents).toBeGreaterThan(10);
    expect(outcomes).toBe(intents);
    // one intent and one outcome a request; the clock, not the requests, decides the checkpoints
    // the first checkpoint, before any request, names the journal the outcomes go to
    expect(store.checkpoints[0]).toEqual({ serial: 0, final: false });
    const intermediate = store.checkpoints.filter((c) => !c.final).length - 1;
    // the clock is read three times a request: when it is sent, when it is answered (what it binds is recorded then), and by the checkpoint's check
    const clockTime = intents * 3 * step;
    expect(intermediate).toBeLessThanOrEqual(Math.ceil(clockTime / every));
    if (step === 1) expect(intermediate).toBe(0);
    else expect(intermediate).toBeGreaterThan(0);
    expect(store.checkpoints.filter((c) => c.final)).toEqual([{ serial: state.serial, final: true }]);
    // the journal is gone, and what is on disk is the state the run held
    const loaded = await loadState(new LocalStore(stateDir, stateDir), ACCOUNT, 'local');
    expect(typeof loaded === 'object' && loaded.journal).toEqual({ open: [], outcomes: [], lastSeq: 0, whole: 0 });
    expect(typeof loaded === 'object' && loaded.state).toEqual(state);
  });

  it('that dies before its last checkpoint leaves a checkpoint and outcomes that read back as the state it held', async () => {
    const { stateDir, store, state } = workspace();
    const plan = await planFleet('Durable killed', 12, state);
    store.dieAtEnd = true;
    // 1.8 s of clock a request (three reads): a checkpoint every third request, the last of them before the last request
    await expect(applyPlan({ plan, api, accountId: ACCOUNT, state, store, stateDir, parallelism: 2, now: ticking(600), checkpointEveryMs: 5_000 })).rejects.toThrow('killed');
    // the serial the last request moved the state to (the final checkpoint moves it on by one)
    const lastRequest = state.serial - 1;
    const checkpointed = store.checkpoints.at(-1)!.serial;
    expect(checkpointed).toBeGreaterThan(0);
    expect(checkpointed).toBeLessThan(lastRequest);
    const loaded = await loadState(new LocalStore(stateDir, stateDir), ACCOUNT, 'local');
    if (typeof loaded === 'string') throw new Error(loaded);
    // the journal was compacted at each checkpoint: it holds only the outcomes after the last one
    expect(loaded.journal.outcomes.every((o) => o.serial! > checkpointed)).toBe(true);
    expect(loaded.journal.outcomes.length).toBe(lastRequest - checkpointed);
    expect(loaded.journal.open).toEqual([]);
    // every write's outcome is there (the bindings of unchanged objects are made again by any plan)
    const written = new Set(plan.layers.flat().flatMap((step) => step.operations.map((op) => op.address)));
    const writtenOnly = (resources: AccountState['resources']): AccountState['resources'] => Object.fromEntries(Object.entries(resources).filter(([address]) => written.has(address)));
    expect(loaded.state.serial).toBe(lastRequest);
    expect(writtenOnly(loaded.state.resources)).toEqual(writtenOnly(state.resources));
    expect(Object.keys(writtenOnly(loaded.state.resources)).length).toBe(12 * (1 + 2 * (1 + 2 + 2)));
  });
});
