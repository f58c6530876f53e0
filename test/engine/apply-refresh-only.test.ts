/**
 * Issue 23: `apply --refresh-only`, Terraform's `apply -refresh-only`, through the engine
 * in-process (test/support/engine-harness.ts) against the in-process emulator, steps in order. A
 * budget changed by hand, a line item deleted by hand and a campaign made by hand are shown as
 * `plan --refresh-only` shows them; approved, only the state is written (every request the run
 * makes goes through a proxy that counts them: not one write), after which `plan --refresh-only`
 * sees no drift and a plain plan shows the manifest's values as changes of the manifest. Apply
 * then converges. The answer `no` at the prompt and a saved plan refused are
 * test/e2e/apply-refresh-only.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { stepsInOrder } from '../support/e2e.js';
import { refreshOnlyManifest } from '../support/refresh-only-manifest.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { startGateProxy, type GateProxy } from '../support/gate-proxy.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let gate: GateProxy;
let ws: EngineWorkspace;
const clock = manualClock();
const ids: Record<string, string> = {};

const manifest = refreshOnlyManifest;


/** The account's state file as adsctl keeps it (the seeded account's id is its key). */
const stateText = (): string => readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.json`), 'utf8');
const state = (): { serial: number; unmanaged_seen?: Record<string, string[]>; resources: Record<string, { id: string; applied: Record<string, unknown> }> } => JSON.parse(stateText());

/** The requests the CLI sent through the proxy while `run` ran, other than reads. */
async function writesDuring(run: () => Promise<unknown>): Promise<Array<{ method: string; path: string }>> {
  const before = gate.requests().length;
  await run();
  return gate.requests().slice(before).filter((r) => r.method !== 'GET');
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  gate = await startGateProxy(emulator.info.base_url);
  gate.open();
  ws = createEngineWorkspace(emulator.info, manifest(gate.url), clock);
});
afterAll(async () => {
  ws.remove();
  await gate.close();
  await emulator.close();
});
stepsInOrder();

describe('apply --refresh-only accepts what changed outside adsctl into the state', () => {
  it('applies the manifest; with no drift, apply --refresh-only says so and writes nothing', async () => {
    await expectCode(ws.apply(), 0);
    const bound = ws.bindings(ACCOUNT);
    ids['campaign'] = bound.get('campaigns.launch')!;
    ids['eu'] = bound.get('campaigns.launch.line_items.eu')!;
    ids['us'] = bound.get('campaigns.launch.line_items.us')!;
    expect(Object.values(ids).every((id) => id !== undefined)).toBe(true);
    const before = stateText();
    let run = { stdout: '', stderr: '' };
    const writes = await writesDuring(async () => {
      run = await expectCode(ws.applyRefreshOnly({ answer: null }), 0);
    });
    expect(run.stdout).toContain('No changes. Nothing changed outside adsctl since the last apply.');
    expect(run.stderr).not.toContain('Enter a value');
    expect(writes).toEqual([]);
    expect(stateText()).toBe(before);
  });

  it('shows the changes made by hand, as plan --refresh-only does', async () => {
    const budget = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${ids['campaign']}`, { daily_budget_amount_local_micro: 7_000_000 }, { as: 'form' });
    expect(budget.status, budget.text).toBe(200);
    const deleted = await client.delete(`/12/accounts/${ACCOUNT}/line_items/${ids['eu']}`);
    expect(deleted.status, deleted.text).toBe(200);
    const made = await client.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'By hand', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 3_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    ids['hand'] = String((made.body as { data: { id: string } }).data.id);
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    expect(refresh.stdout).toContain('# campaigns.launch has changed');
    expect(refresh.stdout).toContain('# campaigns.launch.line_items.eu has been deleted');
    expect(refresh.stdout).toContain(`campaign "By hand" (id ${ids['hand']})`);
  });

  it('approved, writes only the state: no write request reaches the service', async () => {
    const before = state();
    let run = { stdout: '', stderr: '' };
    const writes = await writesDuring(async () => {
      run = await expectCode(ws.applyRefreshOnly(), 0);
    });
    expect(writes).toEqual([]);
    expect(run.stdout).toContain('Objects have changed outside of adsctl');
    expect(run.stdout).toContain(
      'Apply complete! State updated: 1 object changed outside adsctl recorded as live, 1 address deleted outside adsctl forgotten, 1 object not managed by adsctl recorded as seen. Nothing was sent to the service.',
    );
    const after = state();
    expect(after.serial).toBe(before.serial + 1);
    expect(after.resources['campaigns.launch']?.applied['daily_budget_amount_local_micro']).toBe(7_000_000);
    expect(after.resources['campaigns.launch.line_items.eu']).toBeUndefined();
    expect(after.resources['campaigns.launch.line_items.us']).toEqual(before.resources['campaigns.launch.line_items.us']);
    expect(after.unmanaged_seen).toEqual({ campaign: [ids['hand']] });
    const history = await ws.history(ACCOUNT);
    expect(history[0]?.operation).toContain('apply --refresh-only');
    // the live account is as the hand left it
    const live = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${ids['campaign']}`);
    expect((live.body as { data: { daily_budget_amount_local_micro: number } }).data.daily_budget_amount_local_micro).toBe(7_000_000);
  });

  it('leaves no drift, and a plain plan shows the manifest moving the budget back and creating the line item', async () => {
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect(refresh.stdout).toContain('No changes. Nothing changed outside adsctl since the last apply.');
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('# campaigns.launch will be updated in-place');
    expect(plan.stdout).toMatch(/daily_budget += 7\.00 USD -> 10\.00 USD/);
    expect(plan.stdout).toContain('# campaigns.launch.line_items.eu will be created');
    expect(plan.stdout).not.toContain('changed outside adsctl');
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { resource_changes: Array<{ address: string; drift: boolean; reason: string | null; change: { actions: string[]; attributes: Array<{ path: string; origin: string }> } }> };
    const changed = json.resource_changes.filter((c) => c.change.actions.join() !== 'no-op');
    expect(changed.map((c) => [c.address, c.change.actions, c.drift, c.reason, c.change.attributes.filter((a) => a.path === 'daily_budget_amount_local_micro').map((a) => a.origin)])).toEqual([
      ['campaigns.launch', ['update'], false, null, ['manifest']],
      ['campaigns.launch.line_items.eu', ['create'], false, 'new', []],
    ]);
  });

  it('with --target accepts only the targeted drift', async () => {
    const renamed = await client.put(`/12/accounts/${ACCOUNT}/line_items/${ids['us']}`, { name: 'US by hand' }, { as: 'form' });
    expect(renamed.status, renamed.text).toBe(200);
    const second = await client.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'Also by hand', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 2_000_000, entity_status: 'PAUSED' });
    expect(second.status, second.text).toBeLessThan(300);
    ids['second'] = String((second.body as { data: { id: string } }).data.id);
    const writes = await writesDuring(() => expectCode(ws.applyRefreshOnly({ target: ['campaigns.launch.line_items.us'] }), 0));
    expect(writes).toEqual([]);
    const after = state();
    expect(after.resources['campaigns.launch.line_items.us']?.applied['name']).toBe('US by hand');
    // the campaign made by hand is no target's: still new, still drift
    expect(after.unmanaged_seen).toEqual({ campaign: [ids['hand']] });
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    expect(refresh.stdout).not.toContain('campaigns.launch.line_items.us has changed');
    expect(refresh.stdout).toContain(`campaign "Also by hand" (id ${ids['second']})`);
  });

  it('apply converges, and the final plan has no changes', async () => {
    await expectCode(ws.apply(), 0);
    await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
    const live = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${ids['campaign']}`);
    expect((live.body as { data: { daily_budget_amount_local_micro: number } }).data.daily_budget_amount_local_micro).toBe(10_000_000);
  });
});
