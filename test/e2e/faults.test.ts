/**
 * The lifecycle under injected faults: in every CLI run, 20% of requests are answered 429 or 503,
 * or have their connection dropped before the emulator handles them (reset) or after (lost: the
 * write happened, the answer never came). Each apply, plan and destroy must still succeed in one
 * run — retries, and re-reads for creates with no answer — and converge: the emulator holding
 * exactly one live object per managed address, the state bound to it, and a plan reporting no
 * changes. Faults are off (POST /_emulator/faults) only while the test itself reads or writes.
 *
 * Every fault costs the client a wait (a 503 says retry after 1 s, a 429 resets within a second),
 * so the steps spend no run on a check another run makes as well: a step's convergence plan is the
 * plan of the next step's run, which must show exactly the changes that step makes and nothing
 * more; only the last step before the destroy runs a plan of its own. The edited budgets and the
 * removed line item are applied by one run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, parseStateList, setFaults, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetCampaigns, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';

const FAULTS = '429=7%,503=7%,reset=3%,lost=3%';
const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
let fleet: Fleet = { prefix: 'E2E Faults', campaigns: 6, lineItems: 3, keywords: 3, posts: 3 };
let seed = 1;

const writeFleet = (next: Partial<Fleet>): void => {
  fleet = { ...fleet, ...next };
  ws.write(fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
};

/** Runs adsctl with faults on (a new seed each run, so no two runs meet the same faults). */
async function faulty(args: string[]): Promise<CliRun> {
  await setFaults(emulator.info, FAULTS, seed++);
  try {
    return await ws.run(args);
  } finally {
    await setFaults(emulator.info, '');
  }
}

/** Runs adsctl under faults and checks its exit code: the client's retries and re-reads must absorb them. */
async function expectRun(args: string[], code: number): Promise<CliRun> {
  const run = await faulty(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

async function bound(): Promise<Map<string, string>> {
  const run = await ws.run(['state', 'list']);
  expect(run.code, transcript(run)).toBe(0);
  return parseStateList(run.stdout);
}

/** The state as the last check of the fleet found it. */
let lastBound = new Map<string, string>();

/** The emulator holds exactly the fleet, bound in state. */
async function expectFleet(): Promise<Map<string, string>> {
  const state = await bound();
  expect(await fleetProblems(client, ACCOUNT, fleet, state)).toEqual([]);
  const managed = [...state.keys()].filter((a) => a.startsWith('campaigns.')).sort();
  expect(managed).toEqual(fleetAddresses(fleet).sort());
  lastBound = state;
  return state;
}

/** The emulator holds exactly the fleet, bound in state, and a plan under faults shows no changes. */
async function expectConverged(): Promise<void> {
  await expectFleet();
  const plan = await expectRun(['plan', '--detailed-exitcode'], 0);
  expect(plan.stdout).toContain('No changes.');
}

/**
 * Expects a run's plan to act on exactly `actions` (`<address> will be <action>`) and to sum up
 * as `summary`: the state before it matched everything but what the step changed, as a plan with
 * no changes would have shown.
 */
function expectPlanned(run: CliRun, actions: readonly string[], summary: string): void {
  const acted = [...run.stdout.matchAll(/^ {2}# (.+ will be .+)$/gm)].map((m) => m[1]!);
  expect(acted.sort(), transcript(run)).toEqual([...actions].sort());
  expect(run.stdout, transcript(run)).toContain(`\nPlan: ${summary}.\n`);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe(`the lifecycle with injected faults (${FAULTS})`, () => {
  it('creates every object exactly once', async () => {
    await expectRun(['apply', '--auto-approve'], 0);
    // converged: the next step's plan shows nothing but the changes it makes by hand
    await expectFleet();
  });

  it('reverts changes made by hand', async () => {
    const campaign = lastBound.get('campaigns.c01')!;
    const lineItem = lastBound.get('campaigns.c02.line_items.l1')!;
    expect((await client.put(`/12/accounts/${ACCOUNT}/campaigns/${campaign}`, { entity_status: 'ACTIVE' }, { as: 'form' })).status).toBe(200);
    const named = (await client.get(`/12/accounts/${ACCOUNT}/line_items/${lineItem}`)).body.data.name;
    expect((await client.put(`/12/accounts/${ACCOUNT}/line_items/${lineItem}`, { name: 'Renamed by hand' }, { as: 'form' })).status).toBe(200);
    const drift = await expectRun(['plan', '--detailed-exitcode'], 2);
    expect(drift.stdout).toMatch(/\(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
    // the two changes made by hand, and nothing left over from the first apply
    expectPlanned(drift, ['campaigns.c01 will be updated in-place', 'campaigns.c02.line_items.l1 will be updated in-place'], '0 to add, 2 to change, 0 to destroy');

    await expectRun(['apply', '--auto-approve'], 0);
    expect((await client.get(`/12/accounts/${ACCOUNT}/campaigns/${campaign}`)).body.data.entity_status).toBe('PAUSED');
    expect((await client.get(`/12/accounts/${ACCOUNT}/line_items/${lineItem}`)).body.data.name).toBe(named);
    await expectFleet();
  });

  it('applies edited budgets and deletes a line item removed from the manifest', async () => {
    // one run for both: the budgets go in the campaigns' update batch, the line item in a delete
    // batch of its own, each request meeting the faults on its own
    const removed = lastBound.get('campaigns.c03.line_items.l0')!;
    const gone = [...lastBound.keys()].filter((a) => a.startsWith('campaigns.c03.line_items.l0'));
    expect(gone).toHaveLength(1 + fleet.keywords + fleet.posts);
    writeFleet({ dailyBudget: (c) => `${20 + c}.00`, omit: ['c03.l0'] });
    const apply = await expectRun(['apply', '--auto-approve'], 0);
    // the six budgets, the line item and what goes with it, and nothing left over from the revert
    const updated = fleetCampaigns(fleet).map((c) => `campaigns.${c.key} will be updated in-place`);
    expectPlanned(apply, [...updated, ...gone.map((a) => `${a} will be destroyed`)], `0 to add, 6 to change, ${gone.length} to destroy`);

    const campaigns = await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`);
    const budgets = campaigns.map((c) => [c['name'], c['daily_budget_amount_local_micro']]).sort();
    expect(budgets).toEqual([0, 1, 2, 3, 4, 5].map((c) => [`E2E Faults campaign 0${c}`, (20 + c) * 1_000_000]));
    expect((await client.get(`/12/accounts/${ACCOUNT}/line_items/${removed}`, { with_deleted: true })).body.data.deleted).toBe(true);
    await expectConverged();
  });

  it('destroys everything it manages', async () => {
    await expectRun(['destroy', '--auto-approve'], 0);
    const state = await bound();
    expect([...state.keys()]).toEqual([]);
    expect(await fleetProblems(client, ACCOUNT, { ...fleet, campaigns: 0 }, state)).toEqual([]);
    const again = await expectRun(['destroy', '--auto-approve'], 0);
    expect(again.stdout).toContain('No changes.');
    // the runs met every kind of fault (the sequence is seeded, so this does not vary)
    expect(Object.keys(emulator.stats.faults).sort()).toEqual(['429', '503', 'lost', 'reset']);
  });
});
