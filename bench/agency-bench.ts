/**
 * An agency's nightly drift check: a directory of 300 account manifests of about 300 resources
 * each (adsctl creates the sandbox accounts on a real `adsctl emulator --latency 20` process),
 * applied in one run, then planned in one run with nothing to change, then — a tenth of the
 * accounts changed by hand — planned with `--refresh-only`, which attributes each drifted object
 * from the account history. Measured: wall time, CPU and peak memory of the adsctl process, and
 * each plan's reads against the least a refresh (plus one history request per drifted object) can do.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEED_POST_IDS } from '../src/emulator/store/seed.js';
import { spawnEmulator } from '../test/support/cli.js';
import { TestClient } from '../test/support/client.js';
import { benchGenerate, type GenerateBenchResult } from './generate-bench.js';
import { measured, resetStats, routed, stats, type RunFigures } from './plan-apply-bench.js';

const CAMPAIGNS = 6;
const LINE_ITEMS_PER_CAMPAIGN = 10;
const CRITERIA_PER_LINE_ITEM = 3;
const POSTS = 50;

function manifest(endpoint: string, n: number): { text: string; resources: number } {
  const lines = ['version: 1', `endpoint: ${endpoint}`, `account: { name: Client ${n} }`, 'funding_instruments:', '  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }', 'campaigns:'];
  let resources = 2;
  for (let c = 0; c < CAMPAIGNS; c++) {
    lines.push(`  c${c}:`, `    name: Client ${n} campaign ${c}`, '    funding_instrument: card', '    daily_budget: "100.00"', '    entity_status: PAUSED', '    line_items:');
    resources++;
    for (let l = 0; l < LINE_ITEMS_PER_CAMPAIGN; l++) {
      lines.push(`      l${l}:`, `        name: Line item ${c}.${l}`, '        product_type: PROMOTED_TWEETS', '        objective: ENGAGEMENTS', '        placements: [ALL_ON_SERVICE]', '        bid_strategy: MAX', '        bid_amount: "1.00"', '        entity_status: PAUSED', '        start_time: 2027-01-01T00:00:00Z', '        targeting:');
      resources++;
      for (let t = 0; t < CRITERIA_PER_LINE_ITEM; t++) lines.push(`          - { targeting_type: BROAD_KEYWORD, targeting_value: "keyword ${c} ${l} ${t}" }`);
      resources += CRITERIA_PER_LINE_ITEM;
      if (c === 0 && l === 0) {
        lines.push(`        promoted_posts: [${SEED_POST_IDS.slice(0, POSTS).map((id) => `"${id}"`).join(', ')}]`);
        resources += POSTS;
      }
    }
  }
  return { text: `${lines.join('\n')}\n`, resources };
}

export interface AgencyBenchResult {
  accounts: number;
  resources: number;
  apply: RunFigures;
  plan: RunFigures;
  /**
   * `plan --refresh-only` after hand changes in `DRIFTED_SHARE` of the accounts: its reads against
   * the refresh minimum plus one account history request per drifted object (docs/architecture.md,
   * "Who changed it").
   */
  drift: RunFigures & { driftedAccounts: number; driftedObjects: number; historyRequests: number };
  /** `adsctl generate` of the 300 accounts applied, when asked for. */
  generate?: GenerateBenchResult;
}

/** The share of accounts changed by hand before the refresh-only run. */
const DRIFTED_SHARE = 0.1;
const HISTORY_ROUTE = 'GET /12/accounts/:account_id/account_history';

/** The live account id and the bound ids of the state file of account `n` under `dir`. */
function boundIds(dir: string, n: number): { accountId: string; ids: Record<string, string> } {
  const stateDir = join(dir, '.adsctl', 'state');
  const name = readdirSync(stateDir).find((f) => f.endsWith('.json') && readFileSync(join(stateDir, f), 'utf8').includes(`"Client ${n} campaign 0"`));
  if (name === undefined) throw new Error(`no state names account ${n}`);
  const state = JSON.parse(readFileSync(join(stateDir, name), 'utf8')) as { account_id: string; resources: Record<string, { id: string }> };
  return { accountId: state.account_id, ids: Object.fromEntries(Object.entries(state.resources).map(([address, r]) => [address, r.id])) };
}

/**
 * Changes every tenth account by hand, as the owner through the API: campaign c1's daily budget,
 * a keyword added to c2.l0, one of c3.l0's deleted. Returns the number of drifted objects.
 */
async function driftByHand(client: TestClient, dir: string, accounts: number): Promise<{ accounts: number; objects: number }> {
  const every = Math.round(1 / DRIFTED_SHARE);
  const drifted = Array.from({ length: accounts }, (_, n) => n).filter((n) => n % every === 0);
  const check = (what: string, status: number, text: string): void => {
    if (status >= 300) throw new Error(`${what} answered ${status}: ${text}`);
  };
  await Promise.all(
    drifted.map(async (n) => {
      const { accountId, ids } = boundIds(dir, n);
      const base = `/12/accounts/${accountId}`;
      const put = await client.put(`${base}/campaigns/${ids['campaigns.c1']!}`, { daily_budget_amount_local_micro: 55_000_000 });
      check('PUT campaign', put.status, put.text);
      const added = await client.post(`${base}/targeting_criteria`, { line_item_id: ids['campaigns.c2.line_items.l0']!, targeting_type: 'BROAD_KEYWORD', targeting_value: `by hand ${n}` });
      check('POST targeting_criteria', added.status, added.text);
      const removed = await client.delete(`${base}/targeting_criteria/${ids['campaigns.c3.line_items.l0.targeting["BROAD_KEYWORD:keyword 3 0 0"]']!}`);
      check('DELETE targeting_criteria', removed.status, removed.text);
    }),
  );
  return { accounts: drifted.length, objects: drifted.length * 3 };
}

/** The account ids the apply recorded in the state files under `dir`. */
function appliedAccountIds(dir: string): string[] {
  const stateDir = join(dir, '.adsctl', 'state');
  return readdirSync(stateDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => /"account_id": "([^"]+)"/.exec(readFileSync(join(stateDir, name), 'utf8'))?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** Applies and plans the accounts; with `generate`, then generates them (generate-bench.ts) and plans that. */
export async function benchAgency(accounts = 300, generate = false): Promise<AgencyBenchResult> {
  const emu = await spawnEmulator(['--latency', '20']);
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-agency-'));
  try {
    mkdirSync(join(dir, '.adsctl'));
    let resources = 0;
    for (let n = 0; n < accounts; n++) {
      const m = manifest(emu.info.base_url, n);
      writeFileSync(join(dir, `client-${String(n).padStart(3, '0')}.yaml`), m.text);
      resources += m.resources;
    }
    const env = { ADSCTL_CONSUMER_KEY: emu.info.consumer_key, ADSCTL_CONSUMER_SECRET: emu.info.consumer_secret, ADSCTL_ACCESS_TOKEN: emu.info.access_token, ADSCTL_ACCESS_TOKEN_SECRET: emu.info.access_token_secret };
    const lineItems = CAMPAIGNS * LINE_ITEMS_PER_CAMPAIGN;

    await resetStats(emu.info.base_url);
    const apply = await measured(['apply', dir, '--auto-approve'], env);
    if (apply.code !== 0) throw new Error(`apply failed:\n${apply.output.slice(-3000)}`);
    const afterApply = await stats(emu.info.base_url);
    if (process.env['BENCH_DEBUG'] !== undefined) console.log(afterApply.byRoute);
    // per account: the account's create and the PUT of its name (the sandbox create takes no
    // parameters), its funding instrument, one campaign batch, 2 line item batches (40), 1
    // targeting batch (500), one promoted-posts POST
    const minWrites = accounts * (1 + 1 + 1 + Math.ceil(CAMPAIGNS / 40) + Math.ceil(lineItems / 40) + Math.ceil((lineItems * CRITERIA_PER_LINE_ITEM) / 500) + 1);

    await resetStats(emu.info.base_url);
    const plan = await measured(['plan', dir, '--detailed-exitcode'], env);
    if (plan.code !== 0) throw new Error(`plan after apply was not empty (exit ${plan.code}):\n${plan.output.slice(-3000)}`);
    const afterPlan = await stats(emu.info.base_url);
    // per account: the account, funding instruments, campaigns, line items, promoted posts,
    // targeting (one per 200 line items), curated categories
    const minReads = accounts * 7;

    // hand changes in a tenth of the accounts, after the apply's last write (the history is read
    // from the hour of the last apply; changes in its very second count as adsctl's own)
    await new Promise((r) => setTimeout(r, 1100));
    const hand = await driftByHand(new TestClient(emu.info), dir, accounts);
    await resetStats(emu.info.base_url);
    const refresh = await measured(['plan', dir, '--refresh-only', '--detailed-exitcode'], env);
    if (refresh.code !== 2) throw new Error(`the refresh-only plan did not report drift (exit ${refresh.code}):\n${refresh.output.slice(-3000)}`);
    const afterRefresh = await stats(emu.info.base_url);
    if (process.env['BENCH_DEBUG'] !== undefined) console.log(afterRefresh.byRoute);
    const historyRequests = afterRefresh.byRoute[HISTORY_ROUTE] ?? 0;
    if (historyRequests !== hand.objects) throw new Error(`${historyRequests} account history requests for ${hand.objects} drifted objects`);

    let generated: GenerateBenchResult | undefined;
    if (generate) {
      const ids = appliedAccountIds(dir);
      if (ids.length !== accounts) throw new Error(`the state names ${ids.length} accounts, not ${accounts}`);
      generated = await benchGenerate(emu.info.base_url, env, ids, resources, minReads);
    }
    return {
      accounts,
      resources,
      apply: { ...apply, requests: routed(afterApply, (method) => method !== 'GET'), minimum: minWrites },
      plan: { ...plan, requests: routed(afterPlan, (method) => method === 'GET'), minimum: minReads },
      drift: { ...refresh, requests: routed(afterRefresh, (method) => method === 'GET'), minimum: minReads + hand.objects, driftedAccounts: hand.accounts, driftedObjects: hand.objects, historyRequests },
      ...(generated === undefined ? {} : { generate: generated }),
    };
  } finally {
    emu.child.kill('SIGTERM');
    await emu.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
