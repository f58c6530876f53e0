/**
 * Status always watched (docs/manifest.md, "Status"): an account built by hand is adopted with
 * `generate`, which writes `entity_status` on the campaign and the line item although ACTIVE is the
 * service's default. A second user pauses both through the API: `plan --refresh-only
 * --detailed-exitcode` exits 2 naming both with who did it, and `apply` makes them ACTIVE again.
 * The same holds once the manifest leaves the status out: left out, it is as last applied.
 * Through the engine in-process (test/support/engine-harness.ts) against the in-process emulator,
 * at a manual clock that the test moves a second on before each change by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { generateInto } from '../support/engine-adoption.js';
import { manualClock } from '../support/manual-clock.js';
import { loginAs } from '../support/login.js';

const ACCOUNT = '18ce54d4x5t';
const MANAGER = '756201191646691329';
const A = `/12/accounts/${ACCOUNT}`;

let emulator: RunningEmulator;
let owner: TestClient;
let manager: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let campaignId: string;
let lineItemId: string;
/** The manifest generate wrote, inside the workspace. */
let manifest: string;


/** The live entity_status of the campaign and the line item. */
async function statuses(): Promise<[string, string]> {
  const c = await owner.get(`${A}/campaigns/${campaignId}`);
  const l = await owner.get(`${A}/line_items/${lineItemId}`);
  return [String(c.body.data.entity_status), String(l.body.data.entity_status)];
}

/**
 * Moves the clock (the emulator's and the runs') a second on from adsctl's last write: the account
 * history has whole seconds, and a change in the same second as the last apply counts as adsctl's own.
 */
function nextSecond(): void {
  clock.advance(1000);
}

/** The manager pauses both through the API, as a person in the web UI would. */
async function pauseByHand(): Promise<void> {
  nextSecond();
  for (const path of [`${A}/campaigns/${campaignId}`, `${A}/line_items/${lineItemId}`]) {
    const r = await manager.put(path, { entity_status: 'PAUSED' }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
  }
  expect(await statuses()).toEqual(['PAUSED', 'PAUSED']);
}

beforeAll(async () => {
  ({ emulator, client: owner } = await startTestEmulator({ clock }));
  manager = owner.as(await loginAs(owner, 'adsctl_manager'));
  const campaign = await owner.post(`${A}/campaigns`, { funding_instrument_id: 'lygyi', name: 'Serving by hand', daily_budget_amount_local_micro: 20_000_000 });
  expect(campaign.status, campaign.text).toBe(201);
  campaignId = String(campaign.body.data.id);
  const lineItem = await owner.post(`${A}/line_items`, { campaign_id: campaignId, name: 'Everyone', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: 'ALL_ON_SERVICE', bid_amount_local_micro: 1_500_000, start_time: '2026-12-01T00:00:00Z' });
  expect(lineItem.status, lineItem.text).toBe(201);
  lineItemId = String(lineItem.body.data.id);
  expect(await statuses()).toEqual(['ACTIVE', 'ACTIVE']);
  ws = createEngineWorkspace(emulator.info, '', clock);
});
afterAll(async () => {
  await emulator.close();
  ws?.remove();
});
stepsInOrder();

describe('a serving campaign and line item paused by hand after adoption', () => {
  it('generate writes the status ACTIVE of both, and plans no change', async () => {
    await expectCode(generateInto(ws, 'accounts', [ACCOUNT], emulator.info.base_url), 0);
    manifest = join(ws.dir, 'accounts', `${ACCOUNT}.yaml`);
    const text = readFileSync(manifest, 'utf8');
    expect(text.match(/entity_status: ACTIVE/g)?.length, text).toBe(2);
    const plan = await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('plan --refresh-only --detailed-exitcode exits 2, naming both and who paused them', async () => {
    await pauseByHand();
    const plan = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true }), 2);
    for (const address of ['campaigns.serving_by_hand', 'campaigns.serving_by_hand.line_items.everyone']) {
      expect(plan.stdout).toContain(`# ${address} has changed`);
    }
    const paused = plan.stdout.match(new RegExp(`entity_status = "ACTIVE" -> "PAUSED" \\(changed outside adsctl by user ${MANAGER} at `, 'g'));
    expect(paused?.length, plan.stdout).toBe(2);
    // the 20.00 a day it served is what the pause moved
    expect(plan.stdout).toMatch(/: 2 changed; daily spend -20\.00 USD\/day; changed by user /);
    expect(plan.stdout).toContain('Daily spend moved outside adsctl: -20.00 USD/day.');
  });

  it('apply makes both ACTIVE again, and the plan after it has nothing to change', async () => {
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    expect(await statuses()).toEqual(['ACTIVE', 'ACTIVE']);
    await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
  });

  it('the same with the status left out of the manifest: as last applied, so a pause by hand is drift', async () => {
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^\s+entity_status: ACTIVE\n/gm, ''));
    expect(readFileSync(manifest, 'utf8')).not.toContain('entity_status');
    await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
    await pauseByHand();
    const plan = await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('2 to change');
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    expect(await statuses()).toEqual(['ACTIVE', 'ACTIVE']);
    await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
  });

  it('a campaign the manifest keeps paused, activated by hand: drift, and the digest counts the 20.00 a day it now serves', async () => {
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^(\s+)daily_budget: "20\.00"\n/m, '$1daily_budget: "20.00"\n$1entity_status: PAUSED\n'));
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    expect(await statuses()).toEqual(['PAUSED', 'ACTIVE']);
    nextSecond();
    const r = await manager.put(`${A}/campaigns/${campaignId}`, { entity_status: 'ACTIVE' }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    const plan = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true }), 2);
    expect(plan.stdout).toMatch(/: 1 changed; daily spend \+20\.00 USD\/day; changed by user /);
    expect(plan.stdout).toContain('Daily spend moved outside adsctl: +20.00 USD/day.');
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    expect(await statuses()).toEqual(['PAUSED', 'ACTIVE']);
    await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
  });
});
