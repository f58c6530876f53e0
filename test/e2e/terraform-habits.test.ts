/**
 * Issue 9, point 10, through the real CLI against the emulator, steps in order: what only a
 * process shows of Terraform's habits. Single-dash spellings work (`-target`, `-auto-approve`,
 * `-detailed-exitcode`, `-destroy`, `-out=`); `plan --refresh-only` refuses `--out` in one line;
 * `FORCE_COLOR` and `--color` colour output that is not a terminal. Every step that applies ends
 * with a plan showing no changes. What the runs plan, show and apply (refresh-only plans, the
 * destroy plan saved, shown and applied) is test/engine/terraform-habits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { habitsManifest } from '../support/habits-manifest.js';

const ESC = '\u001b[';

let emulator: RunningEmulator;
let ws: Workspace;

const manifest = (daily: { alpha: string; beta: string }): string => habitsManifest(emulator.info.base_url, daily);

async function adsctl(args: string[], code: number, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const run = await runCli(args, { env: { ...ws.env, ...env }, cwd: ws.dir });
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

async function expectNoChanges(): Promise<void> {
  const run = await adsctl(['plan', '-detailed-exitcode'], 0);
  expect(run.stdout).toContain('No changes.');
}

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
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

  it('refuses --out with --refresh-only in one line, and takes -destroy and -out= with one dash', async () => {
    const refused = await adsctl(['plan', '--refresh-only', '--out', 'x.plan'], 1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const planned = await adsctl(['plan', '-destroy', '-out=destroy.plan', '-detailed-exitcode'], 2);
    expect(planned.stdout).toContain('Plan: 0 to add, 0 to change, 2 to destroy.');
    const text = await adsctl(['show', 'destroy.plan'], 0);
    expect(text.stdout).toBe(planned.stdout);
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
