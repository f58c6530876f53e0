/**
 * The lifecycle of a manifest at the command line: what only a process shows, steps in order —
 * `validate`; `plan --detailed-exitcode` exiting 2; `apply` refused without a terminal or
 * `--auto-approve`; `apply --auto-approve` and `state list` printing what the state file binds;
 * a second run refused while one holds the state lock, and `--lock-timeout` waiting for it, the
 * run that waited ending converged ("No changes."); `adsctl import` of a campaign made by hand,
 * as the README gives it. The lifecycle's engine scenarios — drift, edits, saved plans, import,
 * destroy — are test/engine/lifecycle.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, parseStateList, stepsInOrder, transcript, type RunningCli, type Workspace } from '../support/e2e.js';
import { startGateProxy } from '../support/gate-proxy.js';
import type { CliRun } from '../support/run-cli.js';
import { ACCOUNT, handmadeCampaign, INITIAL, manifest, type Shape } from '../support/lifecycle-manifest.js';


let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
let shape: Shape = INITIAL;

const setShape = (next: Partial<Shape>): void => {
  shape = { ...shape, ...next };
  ws.write(manifest(emulator.info.base_url, shape));
};

/** Runs adsctl and checks its exit code, printing the whole run when it differs. */
async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

/** `adsctl state list`, as a map address → id. */
async function stateList(): Promise<Map<string, string>> {
  return parseStateList((await adsctl(['state', 'list'], 0)).stdout);
}

/** The bindings of the workspace's state file, address → id (none before the first apply); step 3 checks them against `state list`. */
function state(): Map<string, string> {
  const path = join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.json`);
  if (!existsSync(path)) return new Map();
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { resources: Record<string, { id: string }> };
  return new Map(Object.entries(doc.resources).map(([address, entry]) => [address, entry.id]));
}

async function campaign(id: string): Promise<Record<string, any>> {
  const reply = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`, { with_deleted: true });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
}

async function liveCampaignNames(): Promise<string[]> {
  return (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).map((c) => String(c['name'])).sort();
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, INITIAL));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('the lifecycle of a manifest, at the command line', () => {
  it('validates, plans the creates (exit 2), and refuses to apply without a terminal or --auto-approve', async () => {
    const valid = await adsctl(['validate'], 0);
    expect(valid.stdout).toContain('are valid');

    const plan = await adsctl(['plan', '--detailed-exitcode'], 2);
    expect(plan.stdout).toContain('# campaigns.spring will be created');
    expect(plan.stdout).toContain('# campaigns.spring.line_items.us.promoted_posts["1346184843436720128"] will be created');
    expect(plan.stdout).toContain('Plan: 12 to add, 0 to change, 0 to destroy.');

    const refused = await adsctl(['apply'], 1);
    expect(refused.stderr).toContain('--auto-approve');
    expect(refused.stdout).not.toContain('Apply complete!');
    expect(await liveCampaignNames()).toEqual([]);
    expect([...state().keys()].filter((a) => a.startsWith('campaigns.'))).toEqual([]);
  });

  it('applies with --auto-approve, and state list prints what the state file binds', async () => {
    const apply = await adsctl(['apply', '--auto-approve'], 0);
    expect(apply.stdout).toContain('Apply complete! Resources: 12 added, 0 changed, 0 destroyed.');

    const bound = await stateList();
    // what the later steps read from the state file is what `state list` prints
    expect(state()).toEqual(bound);
    expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).length).toBeGreaterThanOrEqual(12);
    expect(await liveCampaignNames()).toEqual(['E2E Autumn 2027', 'E2E Spring 2027']);
    // that nothing is left to change is the lock step's waiting plan
  });

  it('refuses a second run while one holds the state lock, and --lock-timeout waits for it; the apply converges', async () => {
    // the first run (applying a budget edit) goes through a closed gate: it holds the lock, its
    // first request held
    setShape({ springDaily: '90.00' });
    const gate = await startGateProxy(emulator.info.base_url);
    const first = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    let waiting: RunningCli | undefined;
    try {
      await gate.firstRequest;
      const lock = JSON.parse(readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`), 'utf8')) as { id: string; pid: number };
      expect(lock.pid).toBe(first.child.pid);

      const second = await adsctl(['plan'], 1);
      expect(second.stderr).toContain('locked by');
      expect(second.stderr).toContain(`pid ${first.child.pid}`);
      expect(second.stderr).toContain(lock.id);

      waiting = ws.start(['plan', '--detailed-exitcode', '--lock-timeout', '60s']);
      // give the waiting run time to reach the lock (not an assertion: it must wait however long)
      await new Promise((r) => setTimeout(r, 1_000));
      expect(waiting.child.exitCode).toBeNull();
      gate.open();
      const firstRun = await first.done;
      expect(firstRun.code, transcript(firstRun)).toBe(0);
      expect(firstRun.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
      // the run that waited plans after the apply: nothing is left to change
      const waited = await waiting.done;
      expect(waited.code, transcript(waited)).toBe(0);
      expect(waited.stdout).toContain('No changes.');
    } finally {
      for (const run of [first, waiting]) if (run !== undefined && run.child.exitCode === null) run.child.kill('SIGKILL');
      await gate.close();
    }
    expect(await campaign(state().get('campaigns.spring')!)).toMatchObject({ daily_budget_amount_local_micro: 90_000_000, total_budget_amount_local_micro: 1_500_000_000 });
  });

  it('imports a campaign made by hand with adsctl import, after which the plan has nothing to change', async () => {
    const id = await handmadeCampaign(client);
    setShape({ withHandmade: true });
    const imported = await adsctl(['import', 'campaigns.handmade', id], 0);
    expect(imported.stdout).toContain(`Import successful! campaigns.handmade is bound to ${id}.`);
    const plan = await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
  });
});
