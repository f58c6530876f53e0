/**
 * Makes the live fixtures of the golden plan cases from the real emulator, so they hold exactly
 * what the service returns: for each fixture, a fresh in-process emulator (seeded account
 * 18ce54d4x5t, funding instrument lygyi), the "before" manifests of before/ planned and applied
 * through the real apply engine (each apply checked to leave a plan with no changes), state
 * addresses moved as `adsctl state mv` would, changes made outside adsctl through the API, and
 * then `live.json` and `state.json` written into the case directory. For a saved-plan case,
 * `now.json` holds what `apply PLANFILE` finds: the state serial after any further state writes,
 * and the live records after changes made once the plan was saved.
 *
 * Timestamps the run stamps are pinned so fixtures do not depend on the clock: written by an
 * apply → T_APPLIED; changed outside adsctl → T_OUTSIDE; changed after the plan was saved →
 * T_LATER. Ids come from the emulator's seeded counter and are the same on every run.
 *
 * Not part of the test suite. Run (all fixtures, or some with -t):
 *   npx vitest run --config test/golden/plan/make-fixture.config.ts [-t CASE]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AdsApi } from '../../../src/api/ads-api.js';
import { ApiClient } from '../../../src/api/client.js';
import { emulatorEndpoint } from '../../../src/api/endpoints.js';
import { applyPlan } from '../../../src/apply/apply.js';
import { hasErrors } from '../../../src/diag/diagnostic.js';
import { formatDiagnostics } from '../../../src/diag/format.js';
import { parseTime } from '../../../src/emulator/clock.js';
import { startEmulator } from '../../../src/emulator/emulator.js';
import { SEED } from '../../../src/emulator/store/seed.js';
import { loadManifestSources } from '../../../src/manifest/load.js';
import { LocalStore } from '../../../src/state/local-store.js';
import { emptyState, writeState, type AccountState } from '../../../src/state/state-file.js';
import { CASES_DIR } from './harness.js';
import { checkLiveFixture, type FixtureKind, type LiveFixture, type WireRecord } from './live-fixture.js';
import { planAccounts } from '../../../src/engine/plan-accounts.js';
import { emulatorLookups } from './harness.js';
import { pipelineAccount } from './pipeline.js';

const T_APPLIED = '2026-11-20T09:00:00Z';
const T_OUTSIDE = '2026-11-21T14:30:00Z';
const T_LATER = '2026-11-22T08:15:00Z';

const ACCOUNT = SEED.account_id;

/** Changes made through the API, outside adsctl; `id` gives the live id the state binds to an address. */
type OutsideChanges = (api: AdsApi, id: (address: string) => string) => Promise<void>;

/** How one case's fixture is made. */
interface FixtureSpec {
  /** Manifests of before/ applied in order (none: the seeded account as it is). */
  apply: string[];
  /** Addresses moved in state, each with everything under it, one `state mv` (one state write) each. */
  moves?: Array<[from: string, to: string]>;
  /** Changes made outside adsctl after the applies; they are in `live.json`. */
  outside?: OutsideChanges;
  /** For a saved plan: what happens after it was saved, recorded in `now.json`. */
  later?: { outside?: OutsideChanges; stateWrites?: number };
}

const US = 'campaigns.summer_sale.line_items.us';
const POST_2 = `${US}.promoted_posts["1346184843440914432"]`;

const FIXTURES: Record<string, FixtureSpec> = {
  'create-everything': { apply: [] },
  'no-changes': { apply: ['base.yaml'] },
  'drift-one-field': {
    apply: ['base.yaml'],
    outside: async (api, id) => void (await api.update('campaign', ACCOUNT, id('campaigns.summer_sale'), { entity_status: 'ACTIVE' })),
  },
  'edit-and-drift-same-object': {
    apply: ['base.yaml'],
    outside: async (api, id) => void (await api.update('campaign', ACCOUNT, id('campaigns.summer_sale'), { daily_budget_amount_local_micro: 60_000_000, entity_status: 'ACTIVE' })),
  },
  'deleted-outside': {
    apply: ['base.yaml'],
    outside: async (api, id) => void (await api.delete('campaign', ACCOUNT, id('campaigns.winter_clearance'))),
  },
  'rename-keeping-id': { apply: ['base.yaml'], moves: [['campaigns.summer_sale', 'campaigns.summer_2026']] },
  replace: { apply: ['base.yaml'] },
  delete: { apply: ['base.yaml'] },
  'prevent-destroy-in-manifest': { apply: ['protected.yaml'] },
  'prevent-destroy-block-removed': { apply: ['protected.yaml'] },
  'prevent-destroy-resource-removed': { apply: ['protected.yaml'] },
  'targeting-added-removed': { apply: ['base.yaml'] },
  'promoted-posts-added-removed': { apply: ['base.yaml'] },
  'campaigns-41': { apply: [] },
  'campaigns-81': { apply: ['campaigns-81.yaml'] },
  'money-six-decimals': { apply: ['base.yaml'] },
  'lookup-problems': { apply: ['base.yaml'] },
  'stale-saved-plan': {
    apply: ['base.yaml'],
    later: {
      outside: async (api, id) => {
        await api.update('campaign', ACCOUNT, id('campaigns.summer_sale'), { entity_status: 'ACTIVE' });
        await api.delete('promoted_tweet', ACCOUNT, id(POST_2));
      },
    },
  },
  'stale-state-serial': { apply: ['base.yaml'], later: { stateWrites: 1 } },
};

const BEFORE = new URL('before/', CASES_DIR);

/** Every record of the account, by fixture kind, as the list endpoints return them (empty kinds left out). */
async function dump(api: AdsApi): Promise<LiveFixture> {
  const lineItems = await api.list('line_item', ACCOUNT, { with_draft: true });
  const kinds: Array<[FixtureKind, Promise<unknown[]>]> = [
    ['account', api.account(ACCOUNT).then((a) => [a])],
    ['funding_instrument', api.list('funding_instrument', ACCOUNT)],
    ['campaign', api.list('campaign', ACCOUNT, { with_draft: true })],
    ['line_item', Promise.resolve(lineItems)],
    ['targeting_criterion', api.targetingCriteria(ACCOUNT, lineItems.map((l) => l.id))],
    ['promoted_tweet', api.list('promoted_tweet', ACCOUNT)],
    ['promoted_account', api.list('promoted_account', ACCOUNT)],
    ['media_creative', api.list('media_creative', ACCOUNT)],
    ['line_item_curated_category', api.list('line_item_curated_category', ACCOUNT)],
  ];
  const out: LiveFixture = {};
  for (const [kind, read] of kinds) {
    const records = (await read) as WireRecord[];
    if (records.length > 0) out[kind] = records;
  }
  return out;
}

const recordKey = (kind: string, record: WireRecord): string => `${kind}/${String(record['id'])}`;

function indexOf(fixture: LiveFixture): Map<string, string> {
  const index = new Map<string, string>();
  for (const [kind, records] of Object.entries(fixture)) {
    if (kind === 'features') continue;
    for (const r of records as WireRecord[]) index.set(recordKey(kind, r), JSON.stringify(r));
  }
  return index;
}

/**
 * `fixture` with every timestamp stamped during [from, to] pinned: `updated_at` (and `created_at`
 * of a new record) of records that differ from `earlier` to `changedAt`, every other one to
 * `pinned(value)`.
 */
function pinTimes(fixture: LiveFixture, window: { from: number; to: number }, earlier: Map<string, string> | undefined, changedAt: string, pinned: (kind: string, record: WireRecord, field: string) => string): LiveFixture {
  const stamped = (v: unknown): boolean => {
    const t = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v) ? parseTime(v)?.getTime() : undefined;
    return t !== undefined && t >= window.from && t <= window.to;
  };
  const out: LiveFixture = {};
  for (const [kind, records] of Object.entries(fixture)) {
    if (kind === 'features') continue;
    out[kind as FixtureKind] = (records as WireRecord[]).map((r) => {
      const before = earlier?.get(recordKey(kind, r));
      const changed = earlier !== undefined && before !== JSON.stringify(r);
      const copy: WireRecord = {};
      for (const [field, value] of Object.entries(r)) {
        const byChange = changed && (field === 'updated_at' || (field === 'created_at' && before === undefined));
        copy[field] = !stamped(value) ? value : byChange ? changedAt : pinned(kind, r, field);
      }
      return copy;
    });
  }
  return out;
}

/** Plans `manifest` against the emulator, applies the plan, and checks that a second plan has nothing left to do. */
async function applyManifest(api: AdsApi, client: ApiClient, state: AccountState, stateDir: string, manifest: string): Promise<void> {
  const loaded = loadManifestSources([{ file: manifest, text: readFileSync(new URL(manifest, BEFORE), 'utf8') }]);
  const desired = loaded.value?.accounts[0];
  if (desired === undefined) throw new Error(`${manifest} does not load:\n${formatDiagnostics(loaded.diagnostics, loaded.sources)}`);
  const account = pipelineAccount(desired, state, api, () => client.counts.reads);
  const options = { mode: 'plan' as const, targets: [], lookups: () => Promise.resolve(emulatorLookups(ACCOUNT)) };
  const plan = await planAccounts([account], options);
  if (hasErrors(plan.diagnostics)) throw new Error(`${manifest}: ${formatDiagnostics(plan.diagnostics, loaded.sources)}`);
  const accountPlan = plan.accounts[0];
  if (accountPlan === undefined) throw new Error(`${manifest}: no account plan`);
  const result = await applyPlan({ plan: accountPlan, api, accountId: ACCOUNT, state, store: new LocalStore(stateDir, stateDir), stateDir });
  expect(result.errors, `${manifest}: apply errors`).toEqual([]);
  const again = await planAccounts([account], options);
  expect(again.accounts[0]?.changes.filter((c) => c.action !== 'noop').map((c) => c.address), `${manifest}: changes left after apply`).toEqual([]);
}

function moveAll(state: AccountState, from: string, to: string): void {
  for (const address of Object.keys(state.resources)) {
    if (address !== from && !address.startsWith(`${from}.`) && !address.startsWith(`${from}[`)) continue;
    const entry = state.resources[address];
    if (entry === undefined) continue;
    delete state.resources[address];
    state.resources[`${to}${address.slice(from.length)}`] = entry;
  }
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

async function makeFixture(name: string, spec: FixtureSpec): Promise<void> {
  const from = Math.floor(Date.now() / 1000) * 1000;
  const emulator = await startEmulator({ port: 0, rateLimitScale: 0, log: () => {} });
  const { info } = emulator;
  const client = new ApiClient({
    endpoint: emulatorEndpoint('local', info.base_url),
    credentials: { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret },
    parallelism: 1,
  });
  const api = new AdsApi(client);
  const stateDir = mkdtempSync(join(tmpdir(), 'adsctl-fixture-'));
  const { format_version, account, endpoint, serial, resources } = emptyState(ACCOUNT, 'local');
  const state: AccountState = { format_version, account, account_id: ACCOUNT, endpoint, serial, resources };
  try {
    for (const manifest of spec.apply) await applyManifest(api, client, state, stateDir, manifest);
    for (const [source, target] of spec.moves ?? []) {
      moveAll(state, source, target);
      writeState(stateDir, state);
    }
    const id = (address: string): string => {
      const entry = state.resources[address];
      if (entry === undefined) throw new Error(`${name}: ${address} is not in the state`);
      return entry.id;
    };
    const applied = await dump(api);
    await spec.outside?.(api, id);
    const outside = spec.outside === undefined ? undefined : await dump(api);
    const window = { from, to: Date.now() + 1000 };
    const live = pinTimes(outside ?? applied, window, outside === undefined ? undefined : indexOf(applied), T_OUTSIDE, () => T_APPLIED);
    expect(checkLiveFixture(live, 'live.json')).toEqual([]);

    const dir = new URL(`${name}/`, CASES_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL('live.json', dir), json(live));
    if (state.serial > 0) writeFileSync(new URL('state.json', dir), json({ ...state, resources: Object.fromEntries(Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : 1))) }));

    if (spec.later !== undefined) {
      await spec.later.outside?.(api, id);
      const later = await dump(api);
      const pinnedLive = new Map<string, WireRecord>();
      for (const [kind, records] of Object.entries(live)) for (const r of records as WireRecord[]) pinnedLive.set(recordKey(kind, r), r);
      const now = pinTimes(later, { from, to: Date.now() + 1000 }, indexOf(outside ?? applied), T_LATER, (kind, r, field) => String(pinnedLive.get(recordKey(kind, r))?.[field] ?? T_APPLIED));
      expect(checkLiveFixture(now, 'now.json')).toEqual([]);
      writeFileSync(new URL('now.json', dir), json({ serials: { [ACCOUNT]: state.serial + (spec.later.stateWrites ?? 0) }, live: now }));
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    await client.close();
    await emulator.close();
  }
}

for (const [name, spec] of Object.entries(FIXTURES)) {
  it(name, () => makeFixture(name, spec));
}
