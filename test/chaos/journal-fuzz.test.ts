/**
 * The journal fuzz (docs/architecture.md, "State, journal and locks"; RELIABILITY.md): applies of
 * a fleet are killed after a seeded number of journal appends — the in-process emulator keeps
 * answering what was in flight, nothing more reaches the disk — and what each left in the state
 * directory is damaged in seeded ways (journal-mutations.ts). Every trial must either be refused,
 * with a message naming the file and an adsctl command to run, or recover exactly: the next apply,
 * run against a copy of the emulator's data as the kill left it, ends with every object of the
 * fleet there once and bound, nothing twice and no binding lost. A checkpoint deleted is put back
 * as the refusal says, from the version a first, finished apply kept in history, and the trial
 * goes on from there.
 *
 * `ADSCTL_CHAOS_TRIALS` sets the number of trials (200 by default, as in `npm test`; `npm run
 * chaos` runs 2,000), `ADSCTL_CHAOS_SEED` the seed (printed with any failure).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdsApi } from '../../src/api/ads-api.js';
import { ApiClient } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { applyPlan } from '../../src/apply/apply.js';
import { recoverJournal } from '../../src/apply/recover.js';
import { planAccounts } from '../../src/engine/plan-accounts.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import type { AccountPlan } from '../../src/plan/types.js';
import { loadState } from '../../src/state/apply-journal.js';
import { describeJournalDamage, journalPath } from '../../src/state/journal.js';
import { LocalStore } from '../../src/state/local-store.js';
import { emptyState, statePath, type AccountState } from '../../src/state/state-file.js';
import type { JournalLog } from '../../src/state/store.js';
import { TestClient } from '../support/client.js';
import { fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import { emulatorLookups } from '../golden/plan/harness.js';
import { pipelineAccount } from '../golden/plan/pipeline.js';
import { mutate, seeded, type Mutation, type Remains } from './journal-mutations.js';
import { testClock } from '../support/test-clock.js';
import { testNow } from '../support/test-clock.js';

const ACCOUNT = '18ce54d4x5t';
const FLEET: Fleet = { prefix: 'Chaos', campaigns: 4, lineItems: 2, keywords: 1, posts: 1 };
const TRIALS = Number(process.env['ADSCTL_CHAOS_TRIALS'] ?? 200);
const SEED = Number(process.env['ADSCTL_CHAOS_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** Killed applies recorded; each trial damages one of them. */
const RECORDINGS = 3;

const root = mkdtempSync(join(tmpdir(), 'adsctl-chaos-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Local files that stop writing after `appends` journal appends, as a process killed there would. */
class KilledStore extends LocalStore {
  private written = 0;
  /** Each checkpoint's text, in the order written. */
  readonly checkpoints: string[] = [];

  constructor(
    stateDir: string,
    private readonly appends: number,
  ) {
    super(stateDir, stateDir);
  }

  private get dead(): boolean {
    return this.written >= this.appends;
  }

  private alive(): void {
    if (this.dead) throw new Error('killed');
  }

  override async checkpoint(state: AccountState, operation: string, final: boolean): Promise<void> {
    this.alive();
    await super.checkpoint(state, operation, final);
    this.checkpoints.push(readFileSync(statePath(this.stateDir, ACCOUNT), 'utf8'));
  }

  override clearJournal(key: string): Promise<void> {
    this.alive();
    return super.clearJournal(key);
  }

  override async openJournal(key: string): Promise<JournalLog> {
    const log = await super.openJournal(key);
    return {
      get lastSeq() {
        return log.lastSeq;
      },
      get head() {
        return log.head;
      },
      begin: (head) => (this.alive(), log.begin(head)),
      rewrite: (records, base) => (this.alive(), log.rewrite(records, base)),
      append: async (record) => {
        this.alive();
        await log.append(record);
        this.written++;
      },
    };
  }
}

interface Running {
  emulator: RunningEmulator;
  client: ApiClient;
  api: AdsApi;
  test: TestClient;
  close(): Promise<void>;
}

async function emulatorOn(dataFile: string): Promise<Running> {
  const emulator = await startEmulator({ clock: testClock, port: 0, rateLimitScale: 0, log: () => {}, dataFile });
  const { info } = emulator;
  const client = new ApiClient({
    endpoint: emulatorEndpoint('local', info.base_url),
    credentials: { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret },
    parallelism: 2,
    now: testNow,
  });
  return {
    emulator,
    client,
    api: new AdsApi(client),
    test: new TestClient(info),
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

async function planFleet(on: Running, state: AccountState, campaigns = FLEET.campaigns): Promise<AccountPlan> {
  const loaded = loadManifestSources([{ file: 'fleet.yaml', text: fleetManifest(on.emulator.info.base_url, ACCOUNT, 'lygyi', { ...FLEET, campaigns }) }]);
  const desired = loaded.value!.accounts[0]!;
  const plan = await planAccounts([pipelineAccount(desired, state, on.api, () => on.client.counts.reads)], { mode: 'plan', targets: [], lookups: () => Promise.resolve(emulatorLookups(ACCOUNT)) });
  return plan.accounts[0]!;
}

/**
 * A clock that moves on `step` ms every time it is read, so that the apply checkpoints along the
 * way; it starts an hour back, so the times its journal records come before the service's.
 */
const ticking = (step: number): (() => number) => {
  let t = testNow() - 3_600_000;
  return () => (t += step);
};

interface Recording {
  killedAfter: number;
  /** The emulator's data as the kill left it. */
  dataFile: string;
  /** The versions kept in history/, by file name. */
  history: Map<string, string>;
  remains: Remains;
}

const historyDir = (stateDir: string): string => join(stateDir, 'history', ACCOUNT);

/**
 * Applies half the fleet to the end (which keeps a version in history/), then the whole fleet,
 * killing that apply after `appends` journal appends.
 */
async function record(n: number, appends: number): Promise<Recording> {
  const dir = join(root, `recording-${n}`);
  const stateDir = join(dir, 'state');
  const dataFile = join(dir, 'emulator.json');
  mkdirSync(stateDir, { recursive: true });
  const on = await emulatorOn(dataFile);
  try {
    const first = new KilledStore(stateDir, Number.POSITIVE_INFINITY);
    const state: AccountState = { ...emptyState(ACCOUNT, 'local'), account_id: ACCOUNT };
    const half = await applyPlan({ plan: await planFleet(on, state, FLEET.campaigns / 2), api: on.api, accountId: ACCOUNT, state, store: first, stateDir, parallelism: 2, now: testNow });
    expect(half.errors).toEqual([]);
    const store = new KilledStore(stateDir, appends);
    const plan = await planFleet(on, state);
    await applyPlan({ plan, api: on.api, accountId: ACCOUNT, state, store, stateDir, parallelism: 2, now: ticking(400), checkpointEveryMs: 2_000 }).catch(() => undefined);
    // what was in flight at the kill reaches the service all the same
    await new Promise((resolve) => setTimeout(resolve, 100));
    const checkpoint = readFileSync(statePath(stateDir, ACCOUNT), 'utf8');
    const history = new Map(readdirSync(historyDir(stateDir)).map((name) => [name, readFileSync(join(historyDir(stateDir), name), 'utf8')]));
    const older = [...new Set([...first.checkpoints, ...store.checkpoints].filter((c) => c !== checkpoint))];
    return { killedAfter: appends, dataFile, history, remains: { checkpoint, journal: readFileSync(journalPath(stateDir, ACCOUNT)), older } };
  } finally {
    await on.close();
  }
}

type Verdict = { refused: string } | { recovered: true } | { restored: true } | { failed: string };

/** A refusal that names the file and says which adsctl command to run; undefined when it does not. */
const clear = (refusal: string, stateDir: string): boolean => refusal.includes(stateDir) && /adsctl (apply|import|state)/.test(refusal);

/** The next run's reading of the state directory: refused (with the message), or the state to go on from. */
async function load(store: LocalStore): Promise<{ refused: string } | { state: AccountState }> {
  const loaded = await loadState(store, ACCOUNT, 'local');
  if (typeof loaded === 'string') return { refused: loaded };
  if (loaded.journal.damage !== undefined) return { refused: describeJournalDamage(loaded.journal.damage) };
  return { state: loaded.state };
}

/** The next apply, against a copy of the emulator's data: ends with the fleet there once and bound, or what is wrong. */
async function applyAgain(dir: string, recording: Recording, store: LocalStore, state: AccountState): Promise<string | undefined> {
  const dataFile = join(dir, 'emulator.json');
  copyFileSync(recording.dataFile, dataFile);
  const on = await emulatorOn(dataFile);
  try {
    await recoverJournal(on.api, ACCOUNT, state, store);
    const plan = await planFleet(on, state);
    const result = await applyPlan({ plan, api: on.api, accountId: ACCOUNT, state, store, stateDir: store.stateDir, parallelism: 2, now: testNow });
    if (result.errors.length > 0) return `the apply failed: ${result.errors.map((e) => `${e.address}: ${e.message}`).join('; ')}`;
    const bound = new Map(Object.entries(state.resources).map(([address, r]) => [address, r.id]));
    const problems = await fleetProblems(on.test, ACCOUNT, FLEET, bound);
    if (existsSync(journalPath(store.stateDir, ACCOUNT))) problems.push('the journal is left after a finished apply');
    return problems.length > 0 ? problems.join('; ') : undefined;
  } finally {
    await on.close();
  }
}

/**
 * Puts `mutation` in a state directory of its own and runs the next apply on it. A missing
 * checkpoint is then put back as its refusal says (the newest version kept, pushed with --force)
 * and the apply run again: refused once more, or recovered exactly.
 */
async function trial(n: number, recording: Recording, mutation: Mutation): Promise<Verdict> {
  const dir = join(root, `trial-${n}`);
  const stateDir = join(dir, 'state');
  mkdirSync(historyDir(stateDir), { recursive: true });
  try {
    for (const [name, text] of recording.history) writeFileSync(join(historyDir(stateDir), name), text);
    if (mutation.checkpoint !== undefined) writeFileSync(statePath(stateDir, ACCOUNT), mutation.checkpoint);
    if (mutation.journal !== undefined) writeFileSync(journalPath(stateDir, ACCOUNT), mutation.journal);
    const store = new LocalStore(stateDir, stateDir);
    let next = await load(store);
    let restored = false;
    if ('refused' in next && mutation.checkpoint === undefined) {
      if (!next.refused.includes('adsctl state pull') || !next.refused.includes('adsctl state push')) return { failed: `refused without the commands that restore the newest version: ${next.refused}` };
      const newest = (await store.history(ACCOUNT))[0]!;
      await store.push((await store.version(ACCOUNT, newest.serial))!, true);
      next = await load(store);
      restored = true;
    }
    if ('refused' in next) return clear(next.refused, stateDir) ? { refused: next.refused } : { failed: `refused unclearly: ${next.refused}` };
    const wrong = await applyAgain(dir, recording, store, next.state);
    if (wrong !== undefined) return { failed: wrong };
    return restored ? { restored: true } : { recovered: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`the journal fuzz (seed ${SEED}, ${TRIALS} trials)`, () => {
  const random = seeded(SEED);
  const recordings: Recording[] = [];

  beforeAll(async () => {
    // the killed apply makes 8 to 12 appends: it is killed after 2 to 8 of them
    for (let n = 0; n < RECORDINGS; n++) recordings.push(await record(n, 2 + Math.floor(random() * 7)));
  }, 120_000);

  it('recovers exactly from what each killed apply left, undamaged', async () => {
    for (const [n, recording] of recordings.entries()) {
      const verdict = await trial(-1 - n, recording, { kind: 'none', name: 'none', checkpoint: recording.remains.checkpoint, journal: recording.remains.journal });
      expect(verdict, `seed ${SEED}, recording killed after ${recording.killedAfter} appends`).toEqual({ recovered: true });
    }
  }, 120_000);

  it('refuses clearly or recovers exactly from every damage, never sending anything twice or losing a binding', async () => {
    const failures: string[] = [];
    const tally = { refused: 0, recovered: 0, restored: 0 };
    const byKind = new Map<string, { refused: number; recovered: number; restored: number; failed: number }>();
    for (let n = 0; n < TRIALS; n++) {
      const recording = recordings[Math.floor(random() * recordings.length)]!;
      const mutation = mutate(recording.remains, random);
      const verdict = await trial(n, recording, mutation);
      const counts = byKind.get(mutation.kind) ?? { refused: 0, recovered: 0, restored: 0, failed: 0 };
      counts['failed' in verdict ? 'failed' : 'refused' in verdict ? 'refused' : 'restored' in verdict ? 'restored' : 'recovered']++;
      byKind.set(mutation.kind, counts);
      if ('failed' in verdict) failures.push(`trial ${n} (apply killed after ${recording.killedAfter} appends; ${mutation.name}): ${verdict.failed}`);
      else if ('refused' in verdict) tally.refused++;
      else if ('restored' in verdict) tally.restored++;
      else tally.recovered++;
    }
    const kinds = [...byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, c]) => `  ${kind}: ${c.refused} refused, ${c.recovered} recovered, ${c.restored} restored from history and recovered, ${c.failed} failed`);
    process.stdout.write(`journal fuzz: seed ${SEED}, ${TRIALS} trials: ${tally.refused} refused, ${tally.recovered} recovered, ${tally.restored} restored from history and recovered, ${failures.length} failed\n${kinds.join('\n')}\n`);
    expect(failures, `seed ${SEED} (ADSCTL_CHAOS_SEED=${SEED} to run these trials again)`).toEqual([]);
  }, 600_000);
});
