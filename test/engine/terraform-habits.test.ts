/**
 * Issue 9, point 10, through the engine in-process, steps in order: `plan --refresh-only` shows
 * only what changed outside adsctl and exits 2 only for that; `plan --destroy` is the plan
 * `destroy` shows, saved with `--out` and printed by `show` as text, Markdown and JSON, then
 * applied. Every step that applies ends with a plan showing no changes. Against the in-process
 * emulator at a manual clock that moves a second on before the change by hand (the account
 * history counts changes from the whole second after the last apply's write). What only a process
 * shows — Terraform's single-dash spellings, `--refresh-only` refusing `--out`, `FORCE_COLOR` and
 * `--color` — is test/e2e/terraform-habits.test.ts.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { ACCOUNT, habitsManifest } from '../support/habits-manifest.js';


const planSchema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validatePlanJson = new Ajv2020({ allErrors: true, strict: true }).compile(planSchema);

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();

const manifest = (daily: { alpha: string; beta: string }): string => habitsManifest(emulator.info.base_url, daily);

async function expectNoChanges(): Promise<void> {
  const run = await expectCode(ws.plan({ detailedExitcode: true }), 0);
  expect(run.stdout).toContain('No changes.');
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest({ alpha: '10.00', beta: '20.00' }), clock);
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});
stepsInOrder();

describe("Terraform's habits, through the engine", () => {
  it('plans and applies one target, then the rest', async () => {
    await expectCode(ws.plan({ detailedExitcode: true, target: ['campaigns.alpha'] }), 2);
    const apply = await expectCode(ws.apply({ target: ['campaigns.alpha'] }), 0);
    expect(apply.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    await expectCode(ws.apply(), 0);
    await expectNoChanges();
  });

  it('plan --refresh-only shows only what changed outside adsctl, and exits 2 for it', async () => {
    ws.write(manifest({ alpha: '10.00', beta: '25.00' }));
    const manifestOnly = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect(manifestOnly.stdout).toContain('No changes. Nothing changed outside adsctl since the last apply.');
    expect(manifestOnly.stdout).not.toContain('campaigns.beta');

    const alphaId = ws.bindings(ACCOUNT).get('campaigns.alpha')!;
    clock.advance(1000);
    const byHand = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${alphaId}`, { name: 'Renamed by hand' }, { as: 'form' });
    expect(byHand.status, byHand.text).toBe(200);

    const drift = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    expect(drift.stdout).toContain('Objects have changed outside of adsctl');
    expect(drift.stdout).toContain('# campaigns.alpha has changed');
    expect(drift.stdout).toMatch(/name += "Habits alpha" -> "Renamed by hand"/);
    expect(drift.stdout).toContain('adsctl will not take any actions to undo these');
    expect(drift.stdout).not.toContain('campaigns.beta');
    expect(drift.stdout).not.toMatch(/^Plan: /m);
    const json = JSON.parse((await expectCode(ws.plan({ refreshOnly: true, format: 'json' }), 0)).stdout) as { resource_changes: Array<{ address: string; drift: boolean; change: { actions: string[] } }>; requests: { writes: number } };
    expect(validatePlanJson(json), JSON.stringify(validatePlanJson.errors)).toBe(true);
    expect(json.resource_changes.map((c) => [c.address, c.drift, c.change.actions])).toEqual([['campaigns.alpha', true, ['no-op']]]);
    expect(json.requests.writes).toBe(0);

    await expectCode(ws.apply(), 0);
    await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    await expectNoChanges();
  });

  it('plan --destroy is the plan destroy shows, saved with --out, shown by show, applied from the file', async () => {
    const planned = await expectCode(ws.plan({ destroy: true, out: 'destroy.plan', detailedExitcode: true }), 2);
    expect(planned.stdout).toContain('# campaigns.alpha will be destroyed');
    expect(planned.stdout).toContain('Plan: 0 to add, 0 to change, 2 to destroy.');
    // no terminal and no answer: destroy shows its plan and cancels
    const destroyShows = await expectCode(ws.destroy({ answer: null }), 1);
    expect(destroyShows.stdout).toBe(planned.stdout);

    const text = ws.show('destroy.plan');
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(planned.stdout);
    const markdown = ws.show(ws.path('destroy.plan'), 'markdown');
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('**Plan: 0 to add, 0 to change, 2 to destroy.**');
    const shownJson = ws.show('destroy.plan', 'json');
    expect(shownJson.code).toBe(0);
    const json = JSON.parse(shownJson.stdout) as { mode: string; summary: { destroy: number } };
    expect(validatePlanJson(json), JSON.stringify(validatePlanJson.errors)).toBe(true);
    expect(json).toMatchObject({ mode: 'destroy', summary: { destroy: 2 } });
    const notAPlan = ws.show('account.yaml');
    expect(notAPlan.code).toBe(1);
    expect(notAPlan.stderr).toBe('Error: account.yaml: not a saved plan (not JSON)\n');

    const applied = await expectCode(ws.applySaved('destroy.plan'), 0);
    expect(applied.stdout).toContain('0 added, 0 changed, 2 destroyed.');
    expect(await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).toEqual([]);
    await expectCode(ws.apply(), 0);
    await expectNoChanges();
  });
});
