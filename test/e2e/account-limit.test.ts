/**
 * At the emulator's real limit of 200 active campaigns, a plan that pauses one active campaign
 * and adds an active one applies cleanly: the pause is ordered before the create that needs its
 * room. Without the room (nothing paused), adsctl refuses before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';
const LIMIT = 200;

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

/** A manifest of `n` campaigns `c000`... (all active, but `paused`), plus `extra` active ones. */
function manifest(n: number, paused: readonly string[] = [], extra: readonly string[] = []): string {
  const lines = ['version: 1', `endpoint: ${emulator.info.base_url}`, 'account:', `  id: "${ACCOUNT}"`, 'funding_instruments:', '  main: { id: lygyi }', 'campaigns:'];
  const names = [...Array.from({ length: n }, (_, i) => `c${String(i).padStart(3, '0')}`), ...extra];
  for (const name of names) {
    lines.push(`  ${name}: { name: "Limit ${name}", funding_instrument: main, daily_budget: "1.00", entity_status: ${paused.includes(name) ? 'PAUSED' : 'ACTIVE'} }`);
  }
  return `${lines.join('\n')}\n`;
}

async function activeCampaigns(): Promise<number> {
  return (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`)).filter((c) => c['entity_status'] === 'ACTIVE').length;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  ws?.remove();
  await emulator.close();
});

describe('the active campaign limit', () => {
  it('applies a pause and an activation at the limit, in that order', async () => {
    const adsctl = async (args: string[], code: number): Promise<CliRun> => {
      const run = await ws.run(args);
      expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
      return run;
    };
    const already = await activeCampaigns();
    const n = LIMIT - already;
    ws = createWorkspace(emulator.info, manifest(n));
    await adsctl(['apply', '--auto-approve'], 0);
    expect(await activeCampaigns()).toBe(LIMIT);

    // one more active campaign without room: refused by the plan, nothing written
    ws.write(manifest(n, [], ['newcomer']));
    const refused = await adsctl(['plan'], 1);
    expect(refused.stderr).toContain('error limit-active-campaigns');
    expect(await activeCampaigns()).toBe(LIMIT);

    // with one paused to make room, it applies cleanly
    ws.write(manifest(n, ['c000'], ['newcomer']));
    const planned = await adsctl(['plan'], 0);
    expect(planned.stdout).toContain('Plan: 1 to add, 1 to change, 0 to destroy.');
    const applied = await adsctl(['apply', '--auto-approve'], 0);
    expect(applied.stdout).toContain('Apply complete! Resources: 1 added, 1 changed, 0 destroyed.');
    expect(await activeCampaigns()).toBe(LIMIT);
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
