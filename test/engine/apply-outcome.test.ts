/**
 * The apply outcome line tells the truth, through the engine in-process against the in-process
 * emulator at a manual clock: when the
 * service refuses one operation (promoting a user the service finds ineligible, which validate
 * and plan cannot know), apply names the failing address on stderr, ends with
 * `Apply failed: 1 error; ...` and exits 1, for a plan made on the spot and for a saved plan
 * alike; `Apply complete!` is printed only by the apply that succeeds, which is followed by a plan
 * with no changes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineRun, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';
/** A seeded user the service refuses to promote, and one it promotes. */
const INELIGIBLE = '1000000000000000001';
const ELIGIBLE = '783214';
const BAD = `campaigns.outcome.line_items.followers.promoted_accounts["${INELIGIBLE}"]`;
/** Whom the line item promotes: the ineligible user (refused) or an eligible one (accepted). */
type Goal = 'refused' | 'accepted';

function manifest(endpoint: string, goal: Goal): string {
  return `version: 1
endpoint: ${endpoint}
account:
  id: ${ACCOUNT}
funding_instruments:
  main: { id: lygyi }
campaigns:
  outcome:
    name: E2E Outcome
    funding_instrument: main
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      followers:
        name: E2E Followers
        product_type: PROMOTED_ACCOUNT
        objective: FOLLOWERS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-03-01T00:00:00Z
        promoted_accounts: ["${goal === 'refused' ? INELIGIBLE : ELIGIBLE}"]
`;
}

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();
let ws: EngineWorkspace;

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The run failed the way Terraform reports it: the error block of BAD, then the failed line, and no complete line anywhere. */
function expectFailed(run: EngineRun, failedLine: string): void {
  expect(run.stderr).toMatch(new RegExp(`\\nError: ${literal(BAD)}: [^\\n]*INVALID_USER[^\\n]*\\n\\n${literal(failedLine)}\\n$`));
  expect(run.stdout + run.stderr).not.toContain('Apply complete!');
  // the error is printed once, at the end; progress only says the address failed
  expect(run.stderr.split(`Error: ${BAD}`).length - 1).toBe(1);
  expect(run.stderr).toContain(`${BAD} failed; the error follows at the end`);
}

async function livePromotedUsers(): Promise<string[]> {
  return (await listAll(client, `/12/accounts/${ACCOUNT}/promoted_accounts`)).map((p) => String(p['user_id'])).sort();
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url, 'refused'), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('the outcome of an apply, through the engine', () => {
  it('plans a promotion the service will refuse, as validate and plan cannot know', async () => {
    await expectCode(ws.validate(), 0);
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('Plan: 3 to add, 0 to change, 0 to destroy.');
  });

  it('names the refused address and says the apply failed, with what was done, exit 1', async () => {
    const apply = await expectCode(ws.apply(), 1);
    expectFailed(apply, 'Apply failed: 1 error; 2 added, 0 changed, 0 destroyed.');
    const bound = ws.bindings(ACCOUNT);
    expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(['campaigns.outcome', 'campaigns.outcome.line_items.followers']);
    expect(await livePromotedUsers()).toEqual([]);
  });

  it('reports a saved plan that fails the same way', async () => {
    const saved = join(ws.dir, 'outcome.plan');
    const plan = await expectCode(ws.plan({ out: saved }), 0);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const apply = await expectCode(ws.applySaved(saved), 1);
    expectFailed(apply, 'Apply failed: 1 error; 0 added, 0 changed, 0 destroyed.');
  });

  it('says Apply complete! once every operation succeeds, and then plans no changes', async () => {
    ws.write(manifest(emulator.info.base_url, 'accepted'));
    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('\nApply complete! Resources: 1 added, 0 changed, 0 destroyed.\n');
    expect(apply.stderr).not.toContain('Error:');
    expect(apply.stdout + apply.stderr).not.toContain('Apply failed');
    expect(await livePromotedUsers()).toEqual([ELIGIBLE]);
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
  });
});
