/**
 * What an apply prints says what happened, and no more: an operation skipped because what it
 * waited for was refused gets no progress line, only the line that says it was skipped. Through
 * the engine in-process against the in-process emulator at a manual clock; what an interrupted
 * apply prints is test/e2e/apply-progress-truth.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { transcript } from '../support/e2e.js';
import { progressManifest } from '../support/progress-manifest.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { clearRefusals, refuse } from '../support/refusals.js';

let emulator: RunningEmulator;
const workspaces: EngineWorkspace[] = [];
const clock = manualClock();

beforeAll(async () => {
  ({ emulator } = await startTestEmulator({ clock }));
});
afterAll(async () => {
  await emulator.close();
});
afterEach(async () => {
  await clearRefusals(emulator.info);
  for (const ws of workspaces.splice(0)) ws.remove();
});

/** A paused campaign `key` named `name` whose line items each have one keyword and the promoted posts given. */
const manifest = (key: string, name: string, lineItems: Array<{ key: string; keyword: string; posts: string[] }>): string => progressManifest(emulator.info.base_url, key, name, lineItems);

function workspace(yaml: string): EngineWorkspace {
  const ws = createEngineWorkspace(emulator.info, yaml, clock);
  workspaces.push(ws);
  return ws;
}

/** The progress lines of a CI log (`[1.2s] ACCOUNT: create 2 campaigns`) and the addresses listed under them. */
const progressLines = (stderr: string): string[] => stderr.split('\n').filter((line) => /^\[\d/.test(line) || line.startsWith('    '));

describe('an operation skipped because what it waits for was refused', () => {
  it('gets no progress line, only the line that says it was skipped', async () => {
    const ws = workspace(manifest('skip', 'Skipped child', [{ key: 'refused', keyword: 'rafts', posts: [] }]));
    await refuse(emulator.info, { method: 'POST', path: '/line_items$', match: { name: 'Skipped child refused' }, status: 400, code: 'INVALID_PARAMETER', message: 'refused for the test', parameter: 'name' });
    const run = await expectCode(ws.apply(), 1);
    const keyword = 'campaigns.skip.line_items.refused.targeting["BROAD_KEYWORD:rafts"]';
    expect(run.stderr).toContain(`Skipped: ${keyword}: campaigns.skip.line_items.refused was not created`);
    expect(progressLines(run.stderr).join('\n'), transcript(run)).not.toMatch(/targeting criteri|BROAD_KEYWORD/);
    expect(progressLines(run.stderr).join('\n')).toMatch(/: create 1 line item\n {4}campaigns\.skip\.line_items\.refused/);
    await clearRefusals(emulator.info);
    await expectCode(ws.apply(), 0);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
