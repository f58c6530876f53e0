/**
 * What a field left out means, and what an import records (issue: leaving out `entity_status` on
 * an imported PAUSED campaign planned `PAUSED -> ACTIVE` with a spend increase, and after
 * `adsctl import` the state had `"applied": {}`, so the next plan reported the imported campaign
 * as changed outside adsctl). A left-out field is left to the service, as docs/manifest.md says;
 * an import records the live values as applied. Through the engine in-process
 * (test/support/engine-harness.ts) against the in-process emulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { importInto } from '../support/engine-adoption.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let campaignId: string;

const manifest = (endpoint: string, extra = ''): string => `${seededAccountHead(endpoint)}campaigns:
  by_hand:
    name: Made by hand
    funding_instrument: main
    daily_budget: "7.00"
${extra}`;


beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  const made = await client.post(`/12/accounts/${ACCOUNT}/campaigns`, { funding_instrument_id: 'lygyi', name: 'Made by hand', daily_budget_amount_local_micro: 7_000_000, entity_status: 'PAUSED' });
  campaignId = String(made.body.data.id);
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('importing a paused campaign whose manifest leaves entity_status out', () => {
  it('records the live values of what the manifest sets as applied', async () => {
    await expectCode(importInto(ws, 'campaigns.by_hand', campaignId), 0);
    const state = JSON.parse(readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.json`), 'utf8')) as { resources: Record<string, { applied: Record<string, unknown> }> };
    // what the manifest sets, as it is live; what it leaves to the service is not taken for applied
    expect(state.resources['campaigns.by_hand']?.applied).toEqual({ name: 'Made by hand', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 7_000_000 });
  });

  it('plans no change: the status left out is left to the service, and nothing is drift', async () => {
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).not.toContain('ACTIVE');
  });

  it('a status written in the manifest is applied, and shown with its spend', async () => {
    ws.write(manifest(emulator.info.base_url, '    entity_status: ACTIVE\n'));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toMatch(/entity_status\s+= "PAUSED" -> "ACTIVE"|entity_status: "PAUSED" -> "ACTIVE"|"PAUSED" -> "ACTIVE"/);
    await expectCode(ws.apply(), 0);
    // taken out again: left to the service, which keeps it ACTIVE; no change planned
    ws.write(manifest(emulator.info.base_url));
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
