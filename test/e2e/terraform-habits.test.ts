/**
 * Issue 9, point 10, through the real CLI against the emulator, steps in order: Terraform's
 * single-dash spellings work; `plan --refresh-only` shows only what changed outside adsctl and
 * exits 2 only for that; `plan -destroy` is the plan `destroy` shows, saved with `-out` and
 * printed by `show` as text, Markdown and JSON, then applied; `FORCE_COLOR` and `--color` colour
 * output that is not a terminal. Every step that applies ends with a plan showing no changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, parseStateList, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';
const ESC = '\u001b[';

const planSchema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validatePlanJson = new Ajv2020({ allErrors: true, strict: true }).compile(planSchema);

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

function manifest(daily: { alpha: string; beta: string }): string {
  return `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  alpha: { name: "Habits alpha", funding_instrument: main, daily_budget: "${daily.alpha}", entity_status: PAUSED }
  beta: { name: "Habits beta", funding_instrument: main, daily_budget: "${daily.beta}", entity_status: PAUSED }
`;
}

async function adsctl(args: string[], code: number, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const run = await runCli(args, { env: { ...ws.env, ...env }, cwd: ws.dir });
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

async function bound(): Promise<Map<string, string>> {
  return parseStateList((await adsctl(['state', 'list'], 0)).stdout);
}

async function expectNoChanges(): Promise<void> {
  const run = await adsctl(['plan', '-detailed-exitcode'], 0);
  expect(run.stdout).toContain('No changes.');
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest({ alpha: '10.00', beta: '20.00' }));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});
stepsInOrder();

describe("Terraform's habits, through the CLI", () => {
  it('takes -target, -auto-approve and -detailed-exitcode with one dash', async () => {
    await adsctl(['plan', '-detailed-exitcode', '-target', 'campaigns.alpha'], 2);
    const apply = await adsctl(['apply', '-auto-approve', '-target=campaigns.alpha'], 0);
    expect(apply.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    await adsctl(['apply', '-auto-approve'], 0);
    await expectNoChanges();
  });

  it('plan --refresh-only shows only what changed outside adsctl, and exits 2 for it', async () => {
    ws.write(manifest({ alpha: '10.00', beta: '25.00' }));
    const manifestOnly = await adsctl(['plan', '--refresh-only', '-detailed-exitcode'], 0);
    expect(manifestOnly.stdout).toContain('No changes. Nothing changed outside adsctl since the last apply.');
    expect(manifestOnly.stdout).not.toContain('campaigns.beta');

    const alphaId = (await bound()).get('campaigns.alpha')!;
    const byHand = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${alphaId}`, { name: 'Renamed by hand' }, { as: 'form' });
    expect(byHand.status, byHand.text).toBe(200);

    const drift = await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2);
    expect(drift.stdout).toContain('Objects have changed outside of adsctl');
    expect(drift.stdout).toContain('# campaigns.alpha has changed');
    expect(drift.stdout).toMatch(/name += "Habits alpha" -> "Renamed by hand"/);
    expect(drift.stdout).toContain('adsctl will not take any actions to undo these');
    expect(drift.stdout).not.toContain('campaigns.beta');
    expect(drift.stdout).not.toMatch(/^Plan: /m);
    const json = JSON.parse((await adsctl(['plan', '--refresh-only', '--json'], 0)).stdout) as { resource_changes: Array<{ address: string; drift: boolean; change: { actions: string[] } }>; requests: { writes: number } };
    expect(validatePlanJson(json), JSON.stringify(validatePlanJson.errors)).toBe(true);
    expect(json.resource_changes.map((c) => [c.address, c.drift, c.change.actions])).toEqual([['campaigns.alpha', true, ['no-op']]]);
    expect(json.requests.writes).toBe(0);

    const refused = await adsctl(['plan', '--refresh-only', '--out', 'x.plan'], 1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    await adsctl(['apply', '--auto-approve'], 0);
    await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 0);
    await expectNoChanges();
  });

  it('plan -destroy is the plan destroy shows, saved with -out, shown by show, applied from the file', async () => {
    const planned = await adsctl(['plan', '-destroy', '-out=destroy.plan', '-detailed-exitcode'], 2);
    expect(planned.stdout).toContain('# campaigns.alpha will be destroyed');
    expect(planned.stdout).toContain('Plan: 0 to add, 0 to change, 2 to destroy.');
    const destroyShows = await adsctl(['destroy'], 1);
    expect(destroyShows.stdout).toBe(planned.stdout);

    const text = await adsctl(['show', 'destroy.plan'], 0);
    expect(text.stdout).toBe(planned.stdout);
    const markdown = await adsctl(['show', join(ws.dir, 'destroy.plan'), '--markdown'], 0);
    expect(markdown.stdout).toContain('**Plan: 0 to add, 0 to change, 2 to destroy.**');
    const json = JSON.parse((await adsctl(['show', 'destroy.plan', '--json'], 0)).stdout) as { mode: string; summary: { destroy: number } };
    expect(validatePlanJson(json), JSON.stringify(validatePlanJson.errors)).toBe(true);
    expect(json).toMatchObject({ mode: 'destroy', summary: { destroy: 2 } });
    const notAPlan = await adsctl(['show', 'account.yaml'], 1);
    expect(notAPlan.stderr).toBe('Error: account.yaml: not a saved plan (not JSON)\n');

    const applied = await adsctl(['apply', 'destroy.plan'], 0);
    expect(applied.stdout).toContain('0 added, 0 changed, 2 destroyed.');
    expect(await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).toEqual([]);
    await adsctl(['apply', '-auto-approve'], 0);
    await expectNoChanges();
  });

  it('colours output when FORCE_COLOR or --color asks, even without a terminal', async () => {
    const plain = await adsctl(['plan', '-destroy'], 0);
    expect(plain.stdout).not.toContain(ESC);
    const forced = await adsctl(['plan', '-destroy'], 0, { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain(ESC);
    const flag = await adsctl(['plan', '-destroy', '--color'], 0);
    expect(flag.stdout).toContain(ESC);
    const off = await adsctl(['plan', '-destroy', '--no-color'], 0, { FORCE_COLOR: '1' });
    expect(off.stdout).not.toContain(ESC);
    const forcedOff = await adsctl(['plan', '-destroy'], 0, { FORCE_COLOR: '0' });
    expect(forcedOff.stdout).not.toContain(ESC);
    await expectNoChanges();
  });
});
