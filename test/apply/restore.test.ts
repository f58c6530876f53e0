/**
 * Putting back a serving line item's old promoted post (src/apply/restore.ts), in process against
 * the emulator: when the new post is refused after the old promotion was removed, the apply creates
 * the old one again, journalled like any write, binds it at its address with its old values, says
 * so and still reports the refusal; a run that dies with that create in flight is finished by the
 * next run's recovery, which finds it on the service and binds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdsApi } from '../../src/api/ads-api.js';
import { ApiClient } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { applyPlan } from '../../src/apply/apply.js';
import type { ApplyEvent } from '../../src/apply/events.js';
import { recoverJournal } from '../../src/apply/recover.js';
import { planAccounts } from '../../src/engine/plan-accounts.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import type { AccountPlan } from '../../src/plan/types.js';
import { loadState } from '../../src/state/apply-journal.js';
import type { JournalRecord } from '../../src/state/journal-record.js';
import { LocalStore } from '../../src/state/local-store.js';
import { emptyState, type AccountState } from '../../src/state/state-file.js';
import type { JournalLog } from '../../src/state/store.js';
import { emulatorLookups } from '../golden/plan/harness.js';
import { pipelineAccount } from '../golden/plan/pipeline.js';
import { TestClient } from '../support/client.js';
import { listAll } from '../support/e2e.js';
import { clearRefusals, refuse } from '../support/refusals.js';
import { testClock, testNow } from '../support/test-clock.js';

const ACCOUNT = '18ce54d4x5t';
const [OLD, NEW] = SEED_POST_IDS.slice(40) as [string, string];

/** Local files that keep every journal record written, and can die (throw) once a chosen record is written. */
class WatchedStore extends LocalStore {
  records: JournalRecord[] = [];
  /** Dies right after writing the record this accepts: nothing after it reaches the disk. */
  dieAfter?: (record: JournalRecord) => boolean;
  private dead = false;

  override checkpoint(state: AccountState, operation: string, final: boolean): Promise<void> {
    if (this.dead) throw new Error('killed');
    return super.checkpoint(state, operation, final);
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
      begin: (head) => log.begin(head),
      append: async (record) => {
        if (this.dead) throw new Error('killed');
        this.records.push(record);
        await log.append(record);
        if (this.dieAfter?.(record) === true) this.dead = true;
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
    parallelism: 1,
    now: testNow,
  });
  api = new AdsApi(client);
});
afterAll(async () => {
  await client.close();
  await emulator.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An ACTIVE campaign `name` with one ACTIVE line item promoting `post`. */
function manifest(name: string, post: string): string {
  return `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  swap:
    name: ${name}
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: ACTIVE
    line_items:
      li:
        name: ${name} item
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.00"
        start_time: 2027-01-01T00:00:00Z
        entity_status: ACTIVE
        promoted_posts: ["${post}"]
`;
}

async function planOf(name: string, post: string, state: AccountState): Promise<AccountPlan> {
  const desired = loadManifestSources([{ file: 'swap.yaml', text: manifest(name, post) }]).value!.accounts[0]!;
  const plan = await planAccounts([pipelineAccount(desired, state, api, () => client.counts.reads)], { mode: 'plan', targets: [], lookups: () => Promise.resolve(emulatorLookups(ACCOUNT)) });
  expect(plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return plan.accounts[0]!;
}

/** The line item of campaign `name` applied with OLD, then a plan swapping it to NEW, refused by the emulator. */
async function refusedSwap(name: string): Promise<{ stateDir: string; store: WatchedStore; state: AccountState; plan: AccountPlan }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'adsctl-restore-'));
  dirs.push(stateDir);
  const store = new WatchedStore(stateDir, stateDir);
  const state: AccountState = { ...emptyState(ACCOUNT, 'local'), account_id: ACCOUNT };
  const first = await applyPlan({ plan: await planOf(name, OLD, state), api, accountId: ACCOUNT, state, store, stateDir, now: testNow });
  expect(first.errors).toEqual([]);
  store.records = [];
  const plan = await planOf(name, NEW, state);
  expect(plan.restores?.map((r) => r.parent)).toEqual(['campaigns.swap.line_items.li']);
  await refuse(emulator.info, { method: 'POST', path: '/promoted_tweets$', match: { tweet_ids: NEW }, status: 404, code: 'NOT_FOUND', message: `Tweet ${NEW} was not found`, parameter: 'tweet_ids' });
  return { stateDir, store, state, plan };
}

/** The tweet ids the line item of campaign `name` promotes now. */
async function promoted(name: string): Promise<string[]> {
  const test = new TestClient(emulator.info);
  const lineItem = (await listAll(test, `/12/accounts/${ACCOUNT}/line_items`)).find((l) => l['name'] === `${name} item`);
  const posts = await listAll(test, `/12/accounts/${ACCOUNT}/promoted_tweets`, { line_item_ids: String(lineItem?.['id']) });
  return posts.map((p) => String(p['tweet_id']));
}

const OLD_ADDRESS = `campaigns.swap.line_items.li.promoted_posts["${OLD}"]`;
const NEW_ADDRESS = `campaigns.swap.line_items.li.promoted_posts["${NEW}"]`;

describe('a serving line item whose new promoted post is refused', () => {
  it('gets its old one back, journalled and bound with its old values; the apply fails for the refusal', async () => {
    const { store, state, stateDir, plan } = await refusedSwap('Restore put back');
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, api, accountId: ACCOUNT, state, store, stateDir, now: testNow, onEvent: (e) => events.push(e) });
    await clearRefusals(emulator.info);
    expect(result.errors.map((e) => e.address)).toEqual([NEW_ADDRESS]);
    // the removal was put back: nothing destroyed, nothing added
    expect([result.added, result.destroyed]).toEqual([0, 0]);
    expect(events.filter((e) => e.type === 'restored')).toEqual([
      { type: 'restored', account: ACCOUNT, parent: 'campaigns.swap.line_items.li', address: OLD_ADDRESS, insteadOf: [NEW_ADDRESS], reason: expect.stringContaining(`Tweet ${NEW} was not found`) },
    ]);
    expect(await promoted('Restore put back')).toEqual([OLD]);
    const intents = store.records.flatMap((r) => ('intent' in r ? r.intent.operations : []));
    expect(intents.map((op) => `${op.action} ${op.address}`)).toEqual([`delete ${OLD_ADDRESS}`, `create ${NEW_ADDRESS}`, `create ${OLD_ADDRESS}`]);
    expect(state.resources[OLD_ADDRESS]?.applied).toMatchObject({ tweet_id: OLD });
    // the next plan swaps again, as the manifest still asks
    const next = await planOf('Restore put back', NEW, state);
    expect(next.changes.filter((c) => c.action !== 'noop').map((c) => `${c.action} ${c.address.steps.at(-1)?.key}`).sort()).toEqual([`create ${NEW}`, `delete ${OLD}`]);
  });

  it('killed with the putting back in flight, is finished by the next run: the old promotion found and bound', async () => {
    const { store, state, stateDir, plan } = await refusedSwap('Restore killed');
    // the run dies once the intent of the create that puts the old post back is on disk; the
    // request itself still reaches the service
    store.dieAfter = (record) => 'intent' in record && record.intent.operations.some((op) => op.address === OLD_ADDRESS && op.action === 'create');
    await expect(applyPlan({ plan, api, accountId: ACCOUNT, state, store, stateDir, now: testNow })).rejects.toThrow('killed');
    await clearRefusals(emulator.info);
    expect(await promoted('Restore killed')).toEqual([OLD]);
    const fresh = new LocalStore(stateDir, stateDir);
    const read = await loadState(fresh, ACCOUNT, 'local');
    if (typeof read === 'string') throw new Error(read);
    const loaded = read.state;
    expect(loaded.resources[OLD_ADDRESS]).toBeUndefined();
    expect(await recoverJournal(api, ACCOUNT, loaded, fresh)).toEqual([OLD_ADDRESS]);
    expect(loaded.resources[OLD_ADDRESS]?.applied).toMatchObject({ tweet_id: OLD });
  });
});
