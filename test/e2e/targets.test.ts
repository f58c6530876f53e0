/**
 * Targets are exact (issue: `--target campaigns.holiday`, a typo, said "No changes" with exit 0;
 * `destroy --target campaigns.hand_made` failed on the prevent_destroy of a campaign that was not
 * targeted). An address that matches nothing is an error with "did you mean"; a targeted plan
 * warns that targeting is in effect; protection checks apply only to what the plan would destroy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';


let emulator: RunningEmulator;
let ws: Workspace;

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  holidays:
    name: Holidays
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
    lifecycle: { prevent_destroy: true }
  hand_made:
    name: Hand made
    funding_instrument: main
    daily_budget: "3.00"
    entity_status: PAUSED
`;

const adsctl = expectRuns(() => ws);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('--target', () => {
  it('refuses an address that matches nothing, with the closest one', async () => {
    const typo = await adsctl(['plan', '--target', 'campaigns.holiday'], 1);
    const output = typo.stdout + typo.stderr;
    expect(output).toContain('--target campaigns.holiday matches no resource');
    expect(output).toContain('did you mean "campaigns.holidays"?');
    expect(typo.stdout).not.toContain('No changes');
  });

  it('warns that resource targeting is in effect', async () => {
    const plan = await adsctl(['plan', '--target', 'campaigns.hand_made'], 0);
    expect(plan.stdout + plan.stderr).toContain('Resource targeting is in effect');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
  });

  it('checks prevent_destroy only on what the plan would destroy', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    const destroyed = await adsctl(['destroy', '--target', 'campaigns.hand_made', '--auto-approve'], 0);
    expect(destroyed.stdout).toContain('1 destroyed');
    const untargeted = await adsctl(['destroy', '--auto-approve'], 1);
    expect(untargeted.stderr + untargeted.stdout).toContain('prevent_destroy');
  });
});
