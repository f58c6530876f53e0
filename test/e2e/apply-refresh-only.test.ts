/**
 * `apply --refresh-only` at the command line, steps in order: what only a process shows. A budget
 * changed by hand, then `no` typed at the confirmation changes nothing and sends nothing (every
 * request goes through a proxy that counts them), a saved plan is refused, and `--auto-approve`
 * writes the state alone and says so; an apply then converges. What the refresh-only apply accepts into the state is
 * test/engine/apply-refresh-only.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import { refreshOnlyManifest } from '../support/refresh-only-manifest.js';
import { startGateProxy, type GateProxy } from '../support/gate-proxy.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let gate: GateProxy;
let ws: Workspace;
const ids: Record<string, string> = {};

const manifest = refreshOnlyManifest;

const adsctl = expectRuns(() => ws);

/** The account's state file as adsctl keeps it (the seeded account's id is its key). */
const stateText = (): string => readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.json`), 'utf8');

/** The requests the CLI sent through the proxy while `run` ran, other than reads. */
async function writesDuring(run: () => Promise<unknown>): Promise<Array<{ method: string; path: string }>> {
  const before = gate.requests().length;
  await run();
  return gate.requests().slice(before).filter((r) => r.method !== 'GET');
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  gate = await startGateProxy(emulator.info.base_url);
  gate.open();
  ws = createWorkspace(emulator.info, manifest(gate.url));
});
afterAll(async () => {
  ws.remove();
  await gate.close();
  await emulator.close();
});
stepsInOrder();

describe('apply --refresh-only at the command line', () => {
  it('applies the manifest; a budget is changed by hand', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    ids['campaign'] = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.launch')!;
    const budget = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${ids['campaign']}`, { daily_budget_amount_local_micro: 7_000_000 }, { as: 'form' });
    expect(budget.status, budget.text).toBe(200);
  });

  it('answered no, changes nothing and sends nothing', async () => {
    const before = stateText();
    let run = { code: 0 as number | null, stdout: '', stderr: '' };
    const writes = await writesDuring(async () => {
      run = await ws.run(['apply', '--refresh-only'], { input: 'no\n' });
    });
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stdout).toContain('Objects have changed outside of adsctl');
    expect(run.stderr).toContain("Only 'yes' will be accepted to approve.");
    expect(run.stderr).toContain('Apply cancelled.');
    expect(writes).toEqual([]);
    expect(stateText()).toBe(before);
  });

  it('refuses a saved plan', async () => {
    await adsctl(['plan', '--out', 'saved.plan'], 0);
    const before = stateText();
    const refused = await adsctl(['apply', '--refresh-only', 'saved.plan'], 1);
    expect(refused.stderr).toContain('saved.plan is a saved plan, and apply --refresh-only applies none');
    expect(stateText()).toBe(before);
  });

  it('approved with --auto-approve, writes only the state and says so', async () => {
    let run = { stdout: '', stderr: '' };
    const writes = await writesDuring(async () => {
      run = await adsctl(['apply', '--refresh-only', '--auto-approve'], 0);
    });
    expect(writes).toEqual([]);
    expect(run.stdout).toContain('Apply complete! State updated: 1 object changed outside adsctl recorded as live,');
    expect(run.stdout).toContain('Nothing was sent to the service.');
  });

  it('apply converges, and the final plan has no changes', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
    const live = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${ids['campaign']}`);
    expect((live.body as { data: { daily_budget_amount_local_micro: number } }).data.daily_budget_amount_local_micro).toBe(10_000_000);
  });
});
